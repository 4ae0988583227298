// Required fields of a payment request, per product (spec 4.4 and 9 3.0.0,
// 3.1.0, 3.2.0; docs/profile.md "payment request"). The first missing or malformed
// field is refused with error 1002, an amount above the account's limit with
// 1008. Two faults switch single rules off; the `payments-bank-rules` quirk
// adds rules a real bank has and the spec does not state (bankRules).
import type { Product } from './payment-store.ts';
import { limitExceeded, missingParameter } from './errors.ts';
import type { CatalogName } from '../catalog-names.ts';

/** The payment amount limit of every seed account (spec 8 names one, not its size): arbitrary, far above any test payment. */
const PAYMENT_LIMIT = 1_000_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** A positive amount with at most two decimals; docs/profile.md shows a string ("10.00"), a number is tolerated. */
function amountOk(v: unknown): boolean {
  const s = typeof v === 'number' ? String(v) : v;
  return typeof s === 'string' && /^\d{1,13}(\.\d{1,2})?$/.test(s) && Number(s) > 0;
}

/** YYYY-MM-DD naming a real calendar day. */
function dateOk(v: unknown): boolean {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function checkAccount(name: string, v: unknown, product: Product): void {
  if (!isObject(v)) throw missingParameter(name);
  // Spec 4.4: domestic scheduled payments name the account by accountScheme and identifier.
  if (product === 'domestic-scheduled-transfer') {
    if (!nonEmpty(v.accountScheme)) throw missingParameter(`${name}.accountScheme`);
    if (!nonEmpty(v.identifier)) throw missingParameter(`${name}.identifier`);
    return;
  }
  if (!nonEmpty(v.iban) && !nonEmpty(v.bban)) throw missingParameter(`${name}.iban`, 'or bban is required');
}

/** `endToEndId`: the version requires endToEndIdentification on domestic and SEPA payments (spec 9 3.0.0). */
export function validatePayment(product: Product, body: Record<string, unknown>, faults: ReadonlySet<CatalogName>, endToEndId = true): void {
  checkAccount('creditorAccount', body.creditorAccount, product);
  if (body.debtorAccount !== undefined) checkAccount('debtorAccount', body.debtorAccount, product);
  if (body.instrumentedAmount === undefined) throw missingParameter('instrumentedAmount');
  if (!amountOk(body.instrumentedAmount)) throw missingParameter('instrumentedAmount', 'must be a positive decimal such as "10.00"');
  // Spec 8: a payment amount limit of a bank account exists.
  if (Number(body.instrumentedAmount) > PAYMENT_LIMIT) throw limitExceeded(PAYMENT_LIMIT);
  if (!nonEmpty(body.currency)) throw missingParameter('currency');
  if (!/^[A-Z]{3}$/.test(body.currency)) throw missingParameter('currency', 'must be an ISO 4217 code such as NOK');
  // Spec 9 3.0.0: endToEndIdentification on domestic and SEPA payments.
  // Fault payments-no-e2e-check: a domestic-transfer without it is accepted.
  const skipE2e = !endToEndId || (product === 'domestic-transfer' && faults.has('payments-no-e2e-check'));
  if (!skipE2e && !nonEmpty(body.endToEndIdentification)) throw missingParameter('endToEndIdentification');
  if (body.paymentMetadata !== undefined && !isObject(body.paymentMetadata)) throw missingParameter('paymentMetadata', 'must be an object');
  // docs/profile.md: a client asks for an instant domestic payment with "instantPayment": true.
  if (body.instantPayment !== undefined && typeof body.instantPayment !== 'boolean') throw missingParameter('instantPayment', 'must be true or false');
  // Spec 4.4: scheduled products add requestedExecutionDate.
  // Fault payments-scheduled-no-date-check: scheduled payments without it are accepted.
  if (product.includes('scheduled')) {
    if (body.requestedExecutionDate === undefined) {
      if (!faults.has('payments-scheduled-no-date-check')) throw missingParameter('requestedExecutionDate');
    } else if (!dateOk(body.requestedExecutionDate)) {
      throw missingParameter('requestedExecutionDate', 'must be a date YYYY-MM-DD');
    }
  }
}

const accountKey = (v: unknown): string =>
  isObject(v) ? String(v.iban ?? v.bban ?? v.identifier ?? '').replace(/\s+/g, '').toUpperCase() : '';

/**
 * Quirk payments-bank-rules: what a real bank refuses and the spec leaves to
 * the bank: a SEPA credit in another currency than EUR, a creditor that is
 * the debtor's own account, and an execution date on a Saturday or Sunday.
 */
export function bankRules(product: Product, body: Record<string, unknown>): void {
  if (product.startsWith('sepa') && body.currency !== 'EUR') throw missingParameter('currency', 'must be EUR on a SEPA credit transfer');
  const creditor = accountKey(body.creditorAccount);
  if (creditor && creditor === accountKey(body.debtorAccount)) throw missingParameter('creditorAccount', 'must differ from debtorAccount');
  const date = body.requestedExecutionDate;
  if (typeof date === 'string' && dateOk(date) && [0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()))
    throw missingParameter('requestedExecutionDate', 'must be a business day, not a Saturday or Sunday');
}
