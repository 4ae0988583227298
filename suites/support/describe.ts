// Every value a check reads from, or puts in, a body whose shape the spec does
// not show, reached through the target description (docs/profile.md, "The
// target description"; harness/config/description.ts): the profile's shapes
// unless the target described its own. A check names `where(...)` when a value
// is missing, so a target with other shapes learns which key to describe.
import { setAt, valuesAt, type TargetDescription } from '../../harness/config/description.ts';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { isAbsoluteUrl } from '../../harness/http/url.ts';
import { target } from './target.ts';

type Rec = Record<string, unknown>;

const described = (): TargetDescription => target().description;

/** The keys of the description a message names: `consent.url`, `confirm-funds.available`. */
type Key = 'bank.id' | 'bank.country' | 'account.iban' | 'account.bban' | 'account.currency' | 'account.balance'
  | 'session.id' | 'consent.url' | 'consent.error-link' | 'payment.id' | 'payment.status'
  | 'payment.authorize-link' | 'confirm-funds.available';

function placeOf(key: Key): string {
  const [area, name] = key.split('.') as [keyof TargetDescription, string];
  return (described()[area] as unknown as Record<string, string>)[name]!;
}

/** Where a value is looked for, for a message: `/links/*\/href (description consent.url)`. */
export function where(key: Key): string {
  return `${placeOf(key)} (description ${key})`;
}

const first = (body: unknown, key: Key): unknown => valuesAt(body, placeOf(key))[0];
const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export const bankId = (bank: unknown): string | undefined => text(first(bank, 'bank.id'));
export const bankCountry = (bank: unknown): string | undefined => text(first(bank, 'bank.country'));
export const sessionIdOf = (body: unknown): string | undefined => text(first(body, 'session.id'));
export const paymentIdOf = (body: unknown): string | undefined => text(first(body, 'payment.id'));
export const paymentStatusOf = (body: unknown): unknown => first(body, 'payment.status');

/** An account of the test user as the suites use it: its identifiers, currency and balance (an amount as given), and its owner's name (spec 2.6). */
export interface OwnAccount { id?: string; iban?: string; bban?: string; currency?: string; balance?: unknown; ownerName?: unknown }

/** An account record read at the description's account places. */
export function ownAccount(record: unknown): OwnAccount {
  return {
    iban: text(first(record, 'account.iban')), bban: text(first(record, 'account.bban')), currency: text(first(record, 'account.currency')),
    balance: first(record, 'account.balance'), ownerName: (record as Rec | undefined)?.ownerName,
    // The id the transactions path names (GET /accounts/{accountId}/transactions).
    id: text((record as Rec | undefined)?.id),
  };
}

/** The consent URL of a consent answer: the first absolute URL at consent.url. */
export function consentUrlOf(body: unknown): string | undefined {
  return valuesAt(body, placeOf('consent.url')).find(isAbsoluteUrl) as string | undefined;
}

/** Every string at consent.error-link of an answer. */
export function consentErrorLinks(body: unknown): string[] {
  return valuesAt(body, placeOf('consent.error-link')).filter((v): v is string => typeof v === 'string' && v !== '');
}

/** A payment's authorize link (the strong-customer-authentication error, docs/profile.md 1428) is no link to the consent request. */
export const isAuthorizeHref = (href: string) => /authori[sz]e/i.test(href);

/** The consent-link error (spec 4.4, 7): an error answer with a link at consent.error-link that is not an authorize link. */
export function isConsentError(res: ExchangeResponse): boolean {
  return res.status >= 400 && res.status < 600 && consentErrorLinks(res.json).some(h => !isAuthorizeHref(h));
}

/** Every absolute URL at payment.authorize-link of an answer. */
export function authorizeLinks(body: unknown): string[] {
  return valuesAt(body, placeOf('payment.authorize-link')).filter(isAbsoluteUrl) as string[];
}

/** A yes-or-no answer of confirm-funds at confirm-funds.available. */
export function fundsAvailableOf(body: unknown): boolean | undefined {
  const v = first(body, 'confirm-funds.available');
  return typeof v === 'boolean' ? v : undefined;
}

/** A body in the target's shape: each field of the profile's body at the place the description gives it (fields it does not name stay). */
function reshape(body: Rec, fields: Record<string, string>): Rec {
  const out: Rec = {};
  for (const [name, value] of Object.entries(body)) {
    const place = fields[name];
    if (place) setAt(out, place, value); else out[name] = value;
  }
  return out;
}

/** The payment request of the profile's field names, as the target takes it. */
export const paymentRequest = (body: Rec): Rec => reshape(body, described().payment.fields);

/** The confirm-funds request of the profile's {iban, amount, currency}, as the target takes it. */
export const confirmFundsRequest = (body: { iban: unknown; amount: unknown; currency: unknown }): Rec =>
  reshape(body, described()['confirm-funds'].fields);

/** Products the description says a bank offers beyond its supportedServices (its own entry and '*'). */
export function describedProducts(id: string): string[] {
  const p = described().products;
  return [...p['*'] ?? [], ...p[id] ?? []];
}

/** The record fields (spec 2.6) the description says a bank returns with values: its own entry, else '*'. */
export function describedRecordFields(id: string): string[] {
  const r = described().records;
  return r[id] ?? r['*'] ?? [];
}
