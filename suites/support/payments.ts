// Payments as the payments suite makes them (spec 4.4, profile.md "payment
// request"): a valid request per product from the end user's own accounts,
// the two answers a payment may get (created, or the strong-customer-
// authentication error whose link leads to authorize), and the authorisation.
// Results are kept per worker so later checks (status by id) build on them.
import { randomUUID } from 'node:crypto';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { isAbsoluteUrl, isError, links, obj, ok } from './api.ts';
import { Prerequisite, type CheckContext } from './check.ts';
import { consentDriver } from './consent/driver.ts';
import { sessionCall, sessionCallUrl } from './sessions.ts';
import { target } from './target.ts';
import { services, type Bank } from './banks.ts';

export const PRODUCTS = ['domestic-transfer', 'sepa-credit', 'domestic-scheduled-transfer', 'sepa-scheduled-credit'] as const;
export type Product = typeof PRODUCTS[number];
export const SCHEDULED: Product[] = ['domestic-scheduled-transfer', 'sepa-scheduled-credit'];

/** Products that a bank offers only when supportedServices lists them (spec 2.6); the others every bank serves. */
export function supports(bank: Bank, product: Product): boolean {
  return SCHEDULED.includes(product) ? services(bank).includes(product) : true;
}

type Rec = Record<string, unknown>;

const accountsCache = new Map<string, Promise<Rec[]>>();

/** The end user's accounts at a bank: the debtor and creditor of test payments (a transfer between own accounts). */
export function ownAccounts(bankId: string): Promise<Rec[]> {
  let p = accountsCache.get(bankId);
  if (!p) {
    p = (async () => {
      const res = await sessionCall(null, bankId, 'accounts', 'GET', 'accounts', {}, { label: 'accounts for a payment' });
      const list = ok(res) && Array.isArray(res.json) ? (res.json as Rec[]).filter(a => a && typeof a === 'object') : [];
      if (!list.length) throw new Prerequisite(`no account at ${bankId} to pay from (${res.status}; see data.accounts.list)`);
      return list;
    })();
    accountsCache.set(bankId, p);
  }
  return p;
}

export function currencyOf(account: Rec): string {
  const b = Array.isArray(account.balances) ? account.balances[0] as Rec | undefined : undefined;
  return typeof b?.currency === 'string' ? b.currency : 'EUR';
}

function isoDate(daysAhead: number): string {
  return new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

/** A complete, valid payment request for `product`, without the fields named in `omit`. */
export async function paymentBody(bankId: string, product: Product, omit: string[] = [], amount = '10.00'): Promise<Rec> {
  const accounts = await ownAccounts(bankId);
  const debtor = accounts[0]!, creditor = accounts[1] ?? accounts[0]!;
  const ref = (a: Rec): Rec => product === 'domestic-scheduled-transfer'
    ? { accountScheme: 'BBAN', identifier: String(a.bban ?? a.iban ?? '') }
    : typeof a.iban === 'string' && a.iban ? { iban: a.iban } : { bban: a.bban };
  const body: Rec = {
    debtorAccount: ref(debtor), creditorAccount: ref(creditor),
    debtorName: typeof debtor.ownerName === 'string' && debtor.ownerName ? debtor.ownerName : 'PIS Conformance',
    creditorName: 'PIS Conformance Creditor',
    instrumentedAmount: amount, currency: currencyOf(debtor),
    remittanceInformationUnstructured: 'pis-conformance test payment',
    endToEndIdentification: `pisc-${randomUUID().slice(0, 18)}`,
    ...(SCHEDULED.includes(product) ? { requestedExecutionDate: isoDate(7) } : {}),
  };
  for (const k of omit) delete body[k];
  return body;
}

export type Answer =
  | { kind: 'created'; res: ExchangeResponse; paymentId?: string; status?: unknown }
  | { kind: 'sca'; res: ExchangeResponse; paymentId?: string; authorizeHref: string }
  | { kind: 'refused'; res: ExchangeResponse }
  | { kind: 'other'; res: ExchangeResponse };

/** The authorize link of a strong-customer-authentication answer (profile.md: error 1428, link rel authorize). */
function authorizeLink(res: ExchangeResponse): { href: string; id?: string } | undefined {
  const l = links(res.json).find(x => x.rel === 'authorize' || (typeof x.href === 'string' && /authori[sz]e/i.test(x.href)));
  if (!l || !isAbsoluteUrl(l.href)) return undefined;
  const meta = (l as { meta?: { id?: unknown } }).meta;
  const fromHref = /\/payments\/[^/]+\/([^/]+)\/authori[sz]e/i.exec(l.href!)?.[1];
  return { href: l.href!, id: typeof meta?.id === 'string' ? meta.id : fromHref && decodeURIComponent(fromHref) };
}

export function classify(res: ExchangeResponse): Answer {
  if (ok(res)) {
    const b = obj(res);
    return { kind: 'created', res, paymentId: typeof b?.paymentId === 'string' && b.paymentId ? b.paymentId : undefined, status: b?.status };
  }
  const sca = isError(res) ? authorizeLink(res) : undefined;
  if (sca) return { kind: 'sca', res, paymentId: sca.id, authorizeHref: sca.href };
  return isError(res) ? { kind: 'refused', res } : { kind: 'other', res };
}

export async function postPayment(c: CheckContext | null, bankId: string, product: Product, body: Rec, label: string): Promise<Answer> {
  const res = await sessionCall(c, bankId, 'payments', 'POST', 'payments', { product }, {
    body, label, headers: { [target().headers.redirectUrl]: target().redirectUrl },
  });
  return classify(res);
}

const initiated = new Map<string, Promise<Answer>>();

/** Initiates a valid payment (once per bank and product per worker; the check that asks first records it). */
export function initiate(c: CheckContext | null, bankId: string, product: Product): Promise<Answer> {
  const key = `${bankId} ${product}`;
  let p = initiated.get(key);
  if (!p) {
    p = paymentBody(bankId, product).then(body => postPayment(c, bankId, product, body, `${product} at ${bankId}`));
    initiated.set(key, p);
  }
  return p;
}

/**
 * Completes strong customer authentication: POST the authorize link (with
 * x-redirect-url, spec 9 3.0.0), then the driver follows the bank's link.
 */
export async function authorize(c: CheckContext | null, bankId: string, product: Product, answer: Extract<Answer, { kind: 'sca' }>): Promise<ExchangeResponse> {
  const t = target();
  const res = await sessionCallUrl(c, bankId, 'payments', 'POST', answer.authorizeHref, {
    body: {}, label: 'authorize the payment', headers: { [t.headers.redirectUrl]: t.redirectUrl },
  });
  const href = links(res.json).map(l => l.href).find(isAbsoluteUrl);
  // A person (manual driver) is done when the bank reports a status other than the one before authorisation.
  const before = answer.paymentId ? await paymentStatus(null, bankId, product, answer.paymentId) : undefined;
  const done = async () => !answer.paymentId || (await paymentStatus(null, bankId, product, answer.paymentId)) !== before;
  if (ok(res) && href) await consentDriver()({ href: href!, what: 'authorize', c, done });
  return res;
}

/** GET the payment by id (spec 3.3 "Get Payment by ID"). */
export function getPayment(c: CheckContext | null, bankId: string, product: Product, paymentId: string): Promise<ExchangeResponse> {
  return sessionCall(c, bankId, 'payments', 'GET', 'payment', { product, paymentId }, { label: `payment ${paymentId}` });
}

async function paymentStatus(c: CheckContext | null, bankId: string, product: Product, paymentId: string): Promise<unknown> {
  return obj(await getPayment(c, bankId, product, paymentId))?.status;
}

const authorized = new Map<string, Promise<Answer>>();

/** A payment of `product` at `bankId`, authorised when the bank asked for it: what the status checks read. */
export function settledPayment(bankId: string, product: Product): Promise<Answer> {
  const key = `${bankId} ${product}`;
  let p = authorized.get(key);
  if (!p) {
    p = (async () => {
      const a = await initiate(null, bankId, product);
      if (a.kind === 'sca') await authorize(null, bankId, product, a);
      return a;
    })();
    authorized.set(key, p);
  }
  return p;
}
