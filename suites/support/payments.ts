// Payments as the payments suite makes them (spec 4.4, docs/profile.md "payment
// request"): a valid request per product from the end user's own accounts,
// the two answers a payment may get (created, or the strong-customer-
// authentication error whose link leads to authorize), and the authorisation.
// Results are kept per part of the run (part.ts) so later checks (status by id) build on them;
// each check that reads a kept answer shows its exchanges (memo.ts).
import { randomUUID } from 'node:crypto';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { isError, ok } from './api.ts';
import { authorizeLinks, bankCountry, describedProducts, ownAccount, paymentIdOf, paymentRequest, paymentStatusOf, type OwnAccount } from './describe.ts';
import { Prerequisite, type CheckContext } from './check.ts';
import { consentDriver } from './consent/driver.ts';
import type { ConsentOutcome } from './consent/task.ts';
import { Memo } from './memo.ts';
import { sessionCall, sessionCallUrl } from './sessions.ts';
import { target } from './target.ts';
import { banksUnderTest, services, type Bank } from './banks.ts';
import { businessDate, creditorAccount, SEPA_CURRENCY } from './payment-data.ts';
import { atLeast, type ApiVersion } from '../../harness/contracts/api-versions.ts';
import { perPart } from './part.ts';

export const PRODUCTS = ['domestic-transfer', 'sepa-credit', 'domestic-scheduled-transfer', 'sepa-scheduled-credit'] as const;
export type Product = typeof PRODUCTS[number];
export const SCHEDULED: Product[] = ['domestic-scheduled-transfer', 'sepa-scheduled-credit'];
/** The SEPA products: credit transfers in euro. */
const SEPA: Product[] = ['sepa-credit', 'sepa-scheduled-credit'];
/** The supportedServices value of instant domestic payments, made through domestic-transfer (spec 4.4). */
export const INSTANT = 'instant-domestic-transfer';

/** The API version each product arrived in (spec 9); sepa-credit is there from 1.0.0. */
const PRODUCT_SINCE: Partial<Record<Product, ApiVersion>> = {
  'domestic-transfer': '2.0.0',
  'domestic-scheduled-transfer': '3.1.0',
  'sepa-scheduled-credit': '3.2.0',
};

/** The product exists at the run's API version. */
function productExists(product: Product): boolean {
  const since = PRODUCT_SINCE[product];
  return !since || atLeast(target().apiVersion, since);
}

/** The payment every bank serves at the run's version: a domestic transfer from 2.0.0, a SEPA credit before. */
export function everyBankProduct(): Product {
  return productExists('domestic-transfer') ? 'domestic-transfer' : 'sepa-credit';
}

/** Products that a bank offers only when supportedServices lists them (spec 2.6); the others every bank serves, at the versions that have them. */
export function supports(bank: Bank, product: Product): boolean {
  if (!productExists(product)) return false;
  return SCHEDULED.includes(product) ? services(bank).includes(product) : true;
}

type Rec = Record<string, unknown>;

/** The plain payment of each product that the spec does not say every bank offers, and names no supportedServices value for (spec 2.6, 4.4). */
const OPEN_PRODUCTS: Partial<Record<Product, string>> = {
  'sepa-credit': `a plain SEPA credit in ${SEPA_CURRENCY}`,
  'domestic-transfer': "a plain domestic payment in the account's currency",
};

/**
 * Whether a bank offers `product` for the checks to judge it there: the
 * description's products for the bank say so, or else its supportedServices
 * for the scheduled products (supports). The spec does not say that every
 * bank offers SEPA credit or domestic payments, and names no supportedServices
 * value for either: a bank the description does not name offers one when a
 * plain payment of it is accepted there; a refusal says why the bank is not
 * judged, and how to have it judged.
 */
export async function offered(c: CheckContext | null, bank: Bank, product: Product): Promise<{ yes: boolean; why?: string }> {
  if (!productExists(product)) return { yes: false };
  if (describedProducts(bank.id).includes(product)) return { yes: true };
  if (!supports(bank, product)) return { yes: false };
  const plain = OPEN_PRODUCTS[product];
  if (!plain) return { yes: true };
  const a = await initiate(c, bank.id, product);
  if (a.kind !== 'refused') return { yes: true };
  return { yes: false, why: `${bank.id} refused ${plain} (${a.res.status}): the spec does not say every bank offers ${product} ` +
    `(name it under products: for ${bank.id} in the target description to have the refusal judged)` };
}

/** The first of `banks` that offers `product` (offered: described, listed, or a plain SEPA credit accepted there). */
export async function firstOffering(banks: readonly Bank[], product: Product): Promise<Bank | undefined> {
  for (const b of banks) if ((await offered(null, b, product)).yes) return b;
  return undefined;
}

/** A bank lists no account to pay from; when every bank under test says so, the checks say "no accounts at any bank". */
export class NoAccounts extends Prerequisite {}

const accountsCache = perPart(() => new Map<string, Promise<OwnAccount[]>>());

/** The end user's accounts at a bank: the first is the debtor of test payments, a second the creditor (payment-data.ts). */
export function ownAccounts(bankId: string): Promise<OwnAccount[]> {
  let p = accountsCache().get(bankId);
  if (!p) {
    p = (async () => {
      const res = await sessionCall(null, bankId, 'accounts', 'GET', 'accounts', {}, { label: `accounts for a payment at ${bankId}` });
      const list = ok(res) && Array.isArray(res.json) ? (res.json as Rec[]).filter(a => a && typeof a === 'object') : [];
      if (!list.length) throw new NoAccounts(`no account at ${bankId} to pay from (${res.status}; see data.accounts.list)`);
      return list.map(ownAccount);
    })();
    accountsCache().set(bankId, p);
  }
  return p;
}

/** The account's currency (description account.currency); EUR when the record gives none. */
export const currencyOf = (account: OwnAccount): string => account.currency ?? 'EUR';

export interface BodyOptions {
  /** Top-level fields left out. */
  omit?: string[];
  /** Fields left out of debtorAccount and creditorAccount (accountScheme, identifier). */
  omitAccount?: string[];
  amount?: string;
  /** Fields added (paymentMetadata, instantPayment). */
  extra?: Rec;
}

/** A complete, valid payment request for `product`, changed as `opts` says. */
export async function paymentBody(bankId: string, product: Product, opts: BodyOptions = {}): Promise<Rec> {
  const accounts = await ownAccounts(bankId);
  const bank = (await banksUnderTest()).find(b => b.id === bankId);
  const debtor = accounts[0]!, creditor = creditorAccount(accounts, bank && bankCountry(bank));
  if (!creditor)
    throw new Prerequisite(`the test user has one account at ${bankId} and no creditor other than it is known for its country`,
      'give the test user a second account at the bank,');
  const ref = (a: OwnAccount): Rec => {
    const r: Rec = product === 'domestic-scheduled-transfer'
      ? { accountScheme: 'BBAN', identifier: String(a.bban ?? a.iban ?? '') }
      : a.iban ? { iban: a.iban } : { bban: a.bban };
    for (const k of opts.omitAccount ?? []) delete r[k];
    return r;
  };
  const body: Rec = {
    debtorAccount: ref(debtor), creditorAccount: ref(creditor),
    debtorName: typeof debtor.ownerName === 'string' && debtor.ownerName ? debtor.ownerName : 'PIS Conformance',
    creditorName: 'PIS Conformance Creditor',
    instrumentedAmount: opts.amount ?? '10.00', currency: SEPA.includes(product) ? SEPA_CURRENCY : currencyOf(debtor),
    remittanceInformationUnstructured: 'pis-conformance test payment',
    endToEndIdentification: `pisc-${randomUUID().slice(0, 18)}`,
    ...(SCHEDULED.includes(product) ? { requestedExecutionDate: businessDate(7) } : {}),
    ...opts.extra,
  };
  for (const k of opts.omit ?? []) delete body[k];
  return body;
}

export type Answer =
  | { kind: 'created'; res: ExchangeResponse; paymentId?: string; status?: unknown }
  | { kind: 'sca'; res: ExchangeResponse; paymentId?: string; authorizeHref: string }
  | { kind: 'refused'; res: ExchangeResponse }
  | { kind: 'other'; res: ExchangeResponse };

/** The authorize link of a strong-customer-authentication answer (description payment.authorize-link), and the payment id in its path. */
function authorizeLink(res: ExchangeResponse): { href: string; id?: string } | undefined {
  const href = authorizeLinks(res.json)[0];
  if (!href) return undefined;
  const fromHref = /\/payments\/[^/]+\/([^/]+)\/authori[sz]e/i.exec(href)?.[1];
  return { href, id: fromHref && decodeURIComponent(fromHref) };
}

function classify(res: ExchangeResponse): Answer {
  // Before 3.0.0 the payment answer itself may carry the authorize link (docs/profile.md, API versions).
  const sca = isError(res) || ok(res) ? authorizeLink(res) : undefined;
  if (ok(res) && !sca) return { kind: 'created', res, paymentId: paymentIdOf(res.json), status: paymentStatusOf(res.json) };
  if (sca) return { kind: 'sca', res, paymentId: paymentIdOf(res.json) ?? sca.id, authorizeHref: sca.href };
  return isError(res) ? { kind: 'refused', res } : { kind: 'other', res };
}

/** True for an answer that accepted the payment: created, or sent to strong customer authentication. */
export const accepted = (a: Answer) => a.kind === 'created' || a.kind === 'sca';

/**
 * POST /payments/{product}. x-redirect-url is sent unless `headers` gives it
 * as '' (an empty value leaves a header out, as for x-psu-ip-address).
 */
export async function postPayment(c: CheckContext | null, bankId: string, product: Product, body: Rec, label: string,
  headers: Record<string, string> = {}): Promise<Answer> {
  const res = await sessionCall(c, bankId, 'payments', 'POST', 'payments', { product }, {
    body: paymentRequest(body), label: `${label} at ${bankId}`, headers: { [target().headers.redirectUrl]: target().redirectUrl, ...headers },
  });
  return classify(res);
}

const initiated = perPart(() => new Memo<Answer>());

/** Initiates a valid payment, once per bank and product per part of the run. */
export function initiate(c: CheckContext | null, bankId: string, product: Product): Promise<Answer> {
  return initiated().get(c, `${bankId} ${product}`, async ctx => postPayment(ctx, bankId, product, await paymentBody(bankId, product), product));
}

/**
 * Completes strong customer authentication: POST the authorize link (with
 * x-redirect-url unless `withRedirect` is false; spec 9 3.0.0), then the
 * driver follows the bank's link. The outcome says where the bank sent the
 * end user, when the driver can see it.
 */
export async function authorize(c: CheckContext | null, bankId: string, product: Product, answer: Extract<Answer, { kind: 'sca' }>,
  withRedirect = true): Promise<{ res: ExchangeResponse; outcome?: ConsentOutcome }> {
  const t = target();
  const res = await sessionCallUrl(c, bankId, 'payments', 'POST', answer.authorizeHref, {
    body: {}, label: `authorize the ${product} payment at ${bankId}${withRedirect ? '' : `, without ${t.headers.redirectUrl}`}`,
    headers: withRedirect ? { [t.headers.redirectUrl]: t.redirectUrl } : {},
  });
  const href = authorizeLinks(res.json)[0];
  if (!ok(res) || !href) return { res };
  // A person (manual driver) is done when the bank reports a status other than the one before authorisation.
  const before = answer.paymentId ? await paymentStatus(bankId, product, answer.paymentId) : undefined;
  const done = async () => !answer.paymentId || (await paymentStatus(bankId, product, answer.paymentId)) !== before;
  return { res, outcome: await consentDriver()({ href, what: 'authorize', c, done }) };
}

/** GET the payment by id (spec 3.3 "Get Payment by ID"). */
export function getPayment(c: CheckContext | null, bankId: string, product: Product, paymentId: string): Promise<ExchangeResponse> {
  return sessionCall(c, bankId, 'payments', 'GET', 'payment', { product, paymentId }, { label: `payment ${paymentId} (${product} at ${bankId})` });
}

async function paymentStatus(bankId: string, product: Product, paymentId: string): Promise<unknown> {
  return paymentStatusOf((await getPayment(null, bankId, product, paymentId)).json);
}

export interface Settled {
  answer: Answer;
  /** The payment read by its id once initiated, before any authorisation. */
  created?: ExchangeResponse;
  auth?: Awaited<ReturnType<typeof authorize>>;
}

const authorized = perPart(() => new Memo<Settled>());

/**
 * The payment of `product` at `bankId` (initiate), read by its id, then
 * authorised once when the bank asked for it: what the authorisation and status checks read, so a
 * bank never sees the same payment authorised twice.
 */
export function settledPayment(c: CheckContext | null, bankId: string, product: Product): Promise<Settled> {
  return authorized().get(c, `${bankId} ${product}`, async ctx => {
    const answer = await initiate(ctx, bankId, product);
    const created = accepted(answer) && answer.paymentId ? await getPayment(ctx, bankId, product, answer.paymentId) : undefined;
    return { answer, created, auth: answer.kind === 'sca' ? await authorize(ctx, bankId, product, answer) : undefined };
  });
}
