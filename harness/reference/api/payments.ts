// Payment initiation (spec 4.4; docs/profile.md "Operations"): POST
// /payments/{product}; the strong-customer-authentication path (spec 9 1.0.1:
// "payment initiation responses differ by whether authentication is required"),
// POST .../{paymentId}/authorize and GET /payments/{product}/{paymentId}.
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { invalidId, notFound, scaRequired, unsupportedProduct } from './errors.ts';
import { psuIp, redirectUrl, requireSession } from './guards.ts';
import { isProduct, type Payment, type Product } from './payment-store.ts';
import { bankRules, validatePayment } from './payment-validation.ts';
import { NORDIC, type SeedBank } from '../data/banks.ts';
import { has, type Feature } from './versions.ts';

/** The products that arrived after 1.0.0 (spec 9); sepa-credit is there from the start. */
const PRODUCT_SINCE: Partial<Record<Product, Feature>> = {
  'domestic-transfer': 'domestic-transfer',
  'domestic-scheduled-transfer': 'domestic-scheduled-transfer',
  'sepa-scheduled-credit': 'sepa-scheduled-credit',
};

/** The products that need a supportedServices entry (docs/profile.md); the other two every bank serves. */
const NEEDS_SERVICE: Partial<Record<Product, string>> = {
  'domestic-scheduled-transfer': 'domestic-scheduled-transfer',
  'sepa-scheduled-credit': 'sepa-scheduled-credit',
};
const INSTANT = 'instant-domestic-transfer';

function product(call: Call): Product {
  const p = call.params.product;
  const since = isProduct(p) ? PRODUCT_SINCE[p] : undefined;
  if (!isProduct(p) || (since && !has(call.ctx, since))) throw notFound(call.req.method ?? 'GET', `/payments/${p}`);
  return p;
}

const authorizeHref = (call: Call, p: Payment) => `${call.baseUrl}/payments/${p.product}/${p.id}/authorize`;

export function createPayment(call: Call): Answer {
  const prod = product(call);
  const { session, bank } = requireSession(call, 'payment');
  psuIp(call, false);
  const redirect = redirectUrl(call);
  const faults = call.ctx.faults;
  const service = NEEDS_SERVICE[prod];
  if (service && !bank.record.supportedServices.includes(service)) throw unsupportedProduct(prod, bank.record.id);
  // Quirk bank-without-sepa: a bank outside the euro area offers no SEPA credit (the spec does not say every bank does).
  if (prod === 'sepa-credit' && faults.has('bank-without-sepa') && bank.behaviour.currency !== 'EUR') throw unsupportedProduct(prod, bank.record.id);
  // Quirk bank-without-domestic: a German bank pays only SEPA credits (in the euro area a domestic payment is one);
  // the spec does not say every bank offers domestic payments.
  if (prod === 'domestic-transfer' && faults.has('bank-without-domestic') && bank.record.countryCode === 'DE') throw unsupportedProduct(prod, bank.record.id);
  validatePayment(prod, call.body, faults, has(call.ctx, 'end-to-end-id'));
  // Quirk one-account: a user with one account cannot pay it to itself, so the bank's rules apply with it.
  if (faults.has('payments-bank-rules') || faults.has('one-account')) bankRules(prod, call.body);
  // Spec 4.4: instant domestic payments go through domestic-transfer at banks that list
  // instant-domestic-transfer (a later change of spec 9); docs/profile.md: the client asks with "instantPayment": true.
  const instant = prod === 'domestic-transfer' && call.body.instantPayment === true && has(call.ctx, 'later-changes');
  if (instant && !bank.record.supportedServices.includes(INSTANT)) throw unsupportedProduct(INSTANT, bank.record.id);
  const payment = call.ctx.payments.create({
    product: prod, bankId: bank.record.id, sessionId: session.id, request: { ...call.body, redirectUrl: redirect },
    // Spec 9 1.0.1: strong customer authentication arrived then; 1.0.0 creates every payment at once.
    needsSca: bank.behaviour.sca && has(call.ctx, 'authorize'), nordic: NORDIC.has(bank.record.countryCode),
    simplifiedStatus: has(call.ctx, 'later-changes'),
  });
  // Banks with strong customer authentication answer 1428 with the authorize link; before 3.0.0's
  // reworked errors the payment answer itself carries the link (docs/profile.md, API versions).
  if (payment.needsSca && has(call.ctx, 'error-body')) throw scaRequired(payment.id, authorizeHref(call, payment));
  const body: Record<string, unknown> = { paymentId: payment.id, status: call.ctx.payments.status(payment), creationDateTime: payment.creationDateTime };
  if (payment.needsSca) body.links = [{ rel: 'authorize', href: authorizeHref(call, payment) }];
  // Fault payments-sepa-no-payment-id: the SEPA success answer lacks paymentId.
  if (prod === 'sepa-credit' && faults.has('payments-sepa-no-payment-id')) delete body.paymentId;
  return ok(withExtras(faults, body, { transactionFees: { amount: '0.00', currency: call.body.currency } }), 201);
}

/** The payment named by the path, if it is of this product and of the session's bank. */
function paymentOf(call: Call, bank: SeedBank, prod: Product): Payment {
  const p = call.ctx.payments.get(call.params.paymentId);
  if (!p || p.product !== prod || p.bankId !== bank.record.id) throw invalidId('payment', call.params.paymentId);
  return p;
}

export function authorizePayment(call: Call): Answer {
  const prod = product(call);
  const { bank } = requireSession(call);
  const p = paymentOf(call, bank, prod);
  // Spec 9 3.0.0: x-redirect-url optional on POST /authorize; else (and before 3.0.0) the one given at initiation.
  const redirect = (has(call.ctx, 'authorize-redirect-url') ? redirectUrl(call) : undefined) ?? (p.request.redirectUrl as string | undefined);
  const ticket = call.ctx.tickets.issue({ kind: 'authorize', paymentId: p.id, redirectUrl: redirect });
  // The fault leaves the bank's link out for one product only: authorisation binds every product.
  const noLink = prod === 'sepa-scheduled-credit' && call.ctx.faults.has('payments-sepa-scheduled-authorize-no-link');
  return ok(withExtras(call.ctx.faults,
    noLink ? {} : { links: [{ type: 'GET', rel: 'authorize', href: call.ctx.tickets.href(call.origin, 'authorize', ticket, call.ctx.interactiveConsent) }] },
    { paymentId: p.id }));
}

export function getPayment(call: Call): Answer {
  const prod = product(call);
  const { bank } = requireSession(call);
  psuIp(call, false);
  const p = paymentOf(call, bank, prod);
  const r = p.request;
  // Fault payments-status-non-nordic: payment by id at a Nordic bank answers ACTC, outside spec 3.3's nine codes.
  // Fault payments-status-non-nordic-one-bank: the same at sparebank1-no only.
  const nonNordic = p.nordic && (call.ctx.faults.has('payments-status-non-nordic')
    || (p.bankId === 'sparebank1-no' && call.ctx.faults.has('payments-status-non-nordic-one-bank')));
  const status = nonNordic ? 'ACTC' : call.ctx.payments.status(p);
  // Fault payments-by-id-other-payment: a SEPA credit by id answers under another payment's id.
  const other = prod === 'sepa-credit' && call.ctx.faults.has('payments-by-id-other-payment');
  const body: Record<string, unknown> = {
    paymentId: other ? `${p.id}-other` : p.id, status, creationDateTime: p.creationDateTime, product: p.product,
    instrumentedAmount: r.instrumentedAmount, currency: r.currency,
  };
  if (r.endToEndIdentification !== undefined) body.endToEndIdentification = r.endToEndIdentification;
  // Fault payments-scheduled-date-dropped: a SEPA scheduled credit is read back due on its creation day.
  if (r.requestedExecutionDate !== undefined)
    body.requestedExecutionDate = prod === 'sepa-scheduled-credit' && call.ctx.faults.has('payments-scheduled-date-dropped') ? p.creationDateTime.slice(0, 10)
      : r.requestedExecutionDate;
  return ok(withExtras(call.ctx.faults, body, { statusReasonInformation: '' }));
}
