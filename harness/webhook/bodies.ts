// Builds the webhook bodies the harness sends or the reference emits: realistic
// (uuid-like ids, ISO 8601 dates, amounts as JSON numbers, Nordic names and
// IBANs with real check digits) and valid against contracts/webhook-*.yaml.
// Values are derived from the checkout id, so one checkout's events agree with
// each other and a run can be repeated.
//
// Decisions others rely on:
// - transactionStatus is set from PAYMENT_INITIATED on (spec 6.1: "once the end
//   user has authorized"), equal to the checkout status; before that it is
//   absent (see transactionStatusFor). An explicit `transactionStatus` wins.
// - abortReason is included only when spec 2.4 allows it (status TIMED_OUT,
//   FAILED or CANCELLED); passed with any other status it is left out, so a
//   dispatcher can pass one checkout's abortReason with every event.
// - The older variant (2.5) has no id, endToEndId, abortReason or
//   transactionStatus; its referenceId is still derived from `id`.
// - Batch payments carry `paymentScheduledDate` unless `scheduledDateField`
//   says `scheduledDate` (spec 2.3 names both); a normal body uses scheduledDate.
import { createHash } from 'node:crypto';
import { abortReasonAllowed, transactionStatusExpected } from '../contracts/rules.ts';

type WebhookKind = 'normal' | 'batch' | 'older';

export interface BuildWebhookOptions {
  kind: WebhookKind;
  /** The checkout id (the `id` field; the older variant derives its referenceId from it). */
  id: string;
  status: string;
  referenceId?: string;
  endToEndId?: string;
  abortReason?: string;
  transactionStatus?: string;
  /** Batch only: number of payments, default 2. */
  payments?: number;
  /** YYYY-MM-DD; makes the payment(s) scheduled. */
  scheduledDate?: string;
  scheduledDateField?: 'scheduledDate' | 'paymentScheduledDate';
  /** Adds fields no spec names, at the top and in each payment (receivers must tolerate them). */
  extraFields?: boolean;
  /** ISO 8601; defaults to now, so pass the checkout's creation time to keep it equal across its events. */
  createdDate?: string;
  /** ISO 8601; defaults to now (normal, batch) or createdDate (older). */
  lastModifiedDate?: string;
}

/** The transactionStatus a body carries once the end user has authorised (spec 6.1, 3.2); undefined before. */
export function transactionStatusFor(checkoutStatus: string): string | undefined {
  return transactionStatusExpected(checkoutStatus) ? checkoutStatus : undefined;
}

interface Party { name: string; iban: string }

const COUNTRIES = [
  { country: 'NO', currency: 'NOK', bbanDigits: 11, people: ['Kari Nordmann', 'Ola Nordmann', 'Ingrid Haugen', 'Bjørn Østby'],
    merchants: ['Fjellsport AS', 'Nordlys Kaffe AS', 'Bergen Fiskehandel AS'] },
  { country: 'SE', currency: 'SEK', bbanDigits: 20, people: ['Astrid Lindqvist', 'Erik Johansson', 'Åsa Öberg'],
    merchants: ['Svea Möbler AB', 'Göteborgs Cykel AB'] },
  { country: 'DK', currency: 'DKK', bbanDigits: 14, people: ['Sofie Jensen', 'Mads Kristensen', 'Søren Ærø'],
    merchants: ['Hygge Design ApS', 'Aarhus Boghandel ApS'] },
  { country: 'FI', currency: 'EUR', bbanDigits: 14, people: ['Aino Korhonen', 'Mikko Virtanen', 'Päivi Jääskeläinen'],
    merchants: ['Kauppa Helsinki Oy', 'Lapin Matkat Oy'] },
] as const;

const REMITTANCE = ['Order', 'Invoice', 'Booking', 'Subscription'];

/** A deterministic stream of numbers from a seed string (sha256, 4 bytes per draw). */
function draws(seed: string): () => number {
  let counter = 0;
  return () => createHash('sha256').update(`${seed}#${counter++}`).digest().readUInt32BE(0);
}

/** An IBAN with correct ISO 13616 check digits (mod 97), so IBAN validators accept it. */
export function makeIban(country: string, bban: string): string {
  const numeric = (bban + country + '00').replace(/[A-Z]/g, c => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}

function party(next: () => number, who: 'people' | 'merchants', country: (typeof COUNTRIES)[number]): Party {
  const names = country[who];
  let bban = '';
  while (bban.length < country.bbanDigits) bban += String(next() % 10);
  return { name: names[next() % names.length], iban: makeIban(country.country, bban) };
}

/** An amount in major units with at most two decimals, between 49 and 9 999. */
function amount(next: () => number): number {
  return Math.round(4900 + (next() % 995_000)) / 100;
}

function uuidFrom(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function onePayment(next: () => number, currency: string, index: number): Record<string, unknown> {
  const value = amount(next);
  return {
    amount: value,
    originalAmount: value,
    currency,
    remittanceInfo: `${REMITTANCE[next() % REMITTANCE.length]} ${10_000 + (next() % 90_000)}${index ? `-${index + 1}` : ''}`,
  };
}

function addTransactionStatus(p: Record<string, unknown>, o: BuildWebhookOptions): void {
  const ts = o.transactionStatus ?? transactionStatusFor(o.status);
  if (ts !== undefined) p.transactionStatus = ts;
}

/** A valid webhook body of the given kind (spec 2.2, 2.3, 2.5) for one event of checkout `id`. */
export function buildWebhookBody(o: BuildWebhookOptions): Record<string, unknown> {
  const next = draws(o.id);
  const country = COUNTRIES[next() % COUNTRIES.length];
  const now = new Date().toISOString();
  const createdDate = o.createdDate ?? now;
  const referenceId = o.referenceId ?? `order-${createHash('sha256').update(o.id).digest('hex').slice(0, 10)}`;
  const debtor = party(next, 'people', country);

  if (o.kind === 'older') {
    const p = onePayment(next, country.currency, 0);
    return {
      referenceId,
      payment: { amount: p.amount, currency: p.currency, remittanceInfo: p.remittanceInfo },
      creditor: party(next, 'merchants', country),
      debtor,
      status: o.status,
      createdDate,
      lastModifiedDate: o.lastModifiedDate ?? createdDate,
      ...(o.extraFields ? { channel: 'hosted-checkout', merchantPortalVersion: '4.2.1' } : {}),
    };
  }

  const body: Record<string, unknown> = { id: o.id, referenceId };
  if (o.kind === 'normal') {
    const p = onePayment(next, country.currency, 0);
    if (o.scheduledDate) p.scheduledDate = o.scheduledDate;
    addTransactionStatus(p, o);
    if (o.extraFields) p.bankReference = `BR${next() % 1_000_000_000}`;
    body.payment = p;
    body.creditor = party(next, 'merchants', country);
  } else {
    const field = o.scheduledDateField ?? 'paymentScheduledDate';
    body.payments = Array.from({ length: Math.max(1, o.payments ?? 2) }, (_, i) => {
      const p = onePayment(next, country.currency, i);
      if (o.scheduledDate) p[field] = o.scheduledDate;
      addTransactionStatus(p, o);
      p.creditorData = { creditor: party(next, 'merchants', country), ...(o.extraFields ? { creditorReference: `CR-${i + 1}` } : {}) };
      if (o.extraFields) p.bankReference = `BR${next() % 1_000_000_000}`;
      return p;
    });
  }
  body.debtor = debtor;
  body.status = o.status;
  body.createdDate = createdDate;
  body.lastModifiedDate = o.lastModifiedDate ?? now;
  if (o.abortReason !== undefined && abortReasonAllowed(o.status, o.abortReason)) body.abortReason = o.abortReason;
  body.endToEndId = o.endToEndId ?? `E2E${uuidFrom(o.id).replace(/-/g, '').slice(0, 20).toUpperCase()}`;
  if (o.extraFields) {
    body.channel = 'hosted-checkout';
    body.metadata = { source: 'pis-conformance', attemptHint: 1 };
  }
  return body;
}

/** A fresh uuid-like checkout id (for callers that need one). */
export function newCheckoutId(seed = `${Date.now()}-${Math.random()}`): string {
  return uuidFrom(seed);
}
