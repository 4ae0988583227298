// Rules of the spec that a JSON Schema cannot state, each with its spec section
// and level (docs/checks.md: `must` is stated by the spec, `should` is
// advice or implied, `profile` is a decision of docs/profile.md). The webhook-body
// checker (body-rules.ts), the reference's control API and the webhook suite all
// ask these functions, so one reading of the spec is used everywhere.
import {
  ABORT_REASON_STATUSES, CHECKOUT_STATUSES, FINAL_CHECKOUT_STATUSES, NORDIC_COUNTRIES, NORDIC_PAYMENT_CODES, POLLER_STATUSES,
} from './enums.ts';
import type { Level } from '../results/model.ts';

export interface RuleInfo {
  id: string;
  spec: string;
  level: Level;
  /** The sentence of the spec (or profile) the rule enforces. */
  quote: string;
}

/** Every rule of this file, by id: where it comes from and how much it weighs. */
export const RULES = {
  'sequence.starts-with-started': { id: 'sequence.starts-with-started', spec: '3.1', level: 'must',
    quote: 'STARTED: Always sent.' },
  'sequence.poller-after-initiated': { id: 'sequence.poller-after-initiated', spec: '3.1', level: 'must',
    quote: 'PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_CANCELLED and PAYMENT_NONTRACKABLE can only be reached after PAYMENT_INITIATED.' },
  'sequence.nothing-after-final': { id: 'sequence.nothing-after-final', spec: '3.1', level: 'must',
    quote: 'CANCELLED, FAILED, TIMED_OUT and the PAYMENT_* poller statuses are Final.' },
  'sequence.known-statuses': { id: 'sequence.known-statuses', spec: '3.1', level: 'must',
    quote: 'The status values are those of 3.1.' },
  'abort-reason.status': { id: 'abort-reason.status', spec: '2.4', level: 'should',
    quote: 'abortReason may be populated when status is TIMED_OUT, FAILED or CANCELLED.' },
  // Spec 2.2 and 6.1 state it outright, so a body without it breaks the contract (the sink's check is must too).
  'transaction-status.once-authorised': { id: 'transaction-status.once-authorised', spec: '6.1', level: 'must',
    quote: 'Its body carries the current status and, once the end user has authorized, transactionStatus.' },
  'variant.older': { id: 'variant.older', spec: '2.5', level: 'should',
    quote: 'An earlier form of the body omits id, endToEndId, abortReason and transactionStatus, and has payment with amount, currency, remittanceInfo only.' },
  'end-to-end-id.present': { id: 'end-to-end-id.present', spec: '2.2', level: 'should',
    quote: 'endToEndId: sent in the initial checkout request and returned unchanged in the webhook body.' },
  'bic.length': { id: 'bic.length', spec: '2.6', level: 'must',
    quote: 'counterpartyAgent: BIC of the agent or intermediary bank, 8 or 11 characters.' },
  'bic.format': { id: 'bic.format', spec: '2.6', level: 'should',
    quote: 'counterpartyAgent is a BIC (ISO 9362: 4 letters bank, 2 letters country, 2 location, optional 3 branch).' },
  'payment-status.nordic': { id: 'payment-status.nordic', spec: '3.3', level: 'must',
    quote: 'Banks in Norway, Sweden, Finland and Denmark return only: RCVD, ACCP, ACSP, ACSC, RJCT, CANC, PDNG, NAUT, PRSY.' },
  'date.last-modified-after-created': { id: 'date.last-modified-after-created', spec: '2.2', level: 'should',
    quote: 'createdDate | string | Date the checkout was created. lastModifiedDate | string | Last update of the checkout.' },
  'date.iso-8601': { id: 'date.iso-8601', spec: '2.2', level: 'profile',
    quote: 'docs/profile.md: Dates are ISO 8601 strings (the spec says only "string").' },
} as const satisfies Record<string, RuleInfo>;

/**
 * Why a checkout's status sequence is forbidden by spec 3.1, or null when it is
 * allowed. Consecutive repeats of one status are read as duplicates of one event
 * (delivery is at least once, spec 6.3) and never count against the sequence.
 * Transitions other than the ones below are "not shown" in the spec, so they are
 * allowed (a too-narrow check would be a false alarm).
 */
export function sequenceViolation(statuses: readonly string[]): string | null {
  return sequenceFinding(statuses)?.reason ?? null;
}

/** sequenceViolation with the rule that was broken, for callers that report spec section and level. */
export function sequenceFinding(statuses: readonly string[]): { rule: RuleInfo; index: number; reason: string } | null {
  if (!statuses.length)
    return { rule: RULES['sequence.starts-with-started'], index: 0, reason: 'the sequence is empty, but STARTED is always sent (spec 3.1)' };
  const unknown = statuses.findIndex(s => !CHECKOUT_STATUSES.includes(s));
  if (unknown >= 0)
    return { rule: RULES['sequence.known-statuses'], index: unknown,
      reason: `status ${JSON.stringify(statuses[unknown])} at position ${unknown + 1} is not a CheckoutStatus of spec 3.1` };
  if (statuses[0] !== 'STARTED')
    return { rule: RULES['sequence.starts-with-started'], index: 0,
      reason: `the sequence starts with ${statuses[0]}, but STARTED is always sent first (spec 3.1)` };
  let initiated = false;
  for (let i = 1; i < statuses.length; i++) {
    const prev = statuses[i - 1], s = statuses[i];
    if (s === prev) continue;
    if (FINAL_CHECKOUT_STATUSES.includes(prev))
      return { rule: RULES['sequence.nothing-after-final'], index: i, reason: `${s} at position ${i + 1} follows the final status ${prev} (spec 3.1)` };
    if (s === 'PAYMENT_INITIATED') initiated = true;
    if (POLLER_STATUSES.includes(s) && !initiated)
      return { rule: RULES['sequence.poller-after-initiated'], index: i,
        reason: `${s} at position ${i + 1} comes without an earlier PAYMENT_INITIATED (spec 3.1)` };
  }
  return null;
}

/**
 * Spec 3.1 and 6.2: "PAYMENT_CREATED is sent when strong customer authentication
 * is needed." The statuses a checkout whose payment needs it goes through:
 * PAYMENT_CREATED comes before the first PAYMENT_INITIATED (or after STARTED when
 * the checkout never gets there), unless the list has it already.
 */
export function statusesWithSca(statuses: readonly string[], sca: boolean | undefined): string[] {
  if (!sca || statuses.includes('PAYMENT_CREATED')) return [...statuses];
  const at = statuses.indexOf('PAYMENT_INITIATED');
  const i = at >= 0 ? at : Math.min(1, statuses.length);
  return [...statuses.slice(0, i), 'PAYMENT_CREATED', ...statuses.slice(i)];
}

/** Spec 2.4 (`should`): abortReason only with TIMED_OUT, FAILED or CANCELLED; an absent or null abortReason is always fine. */
export function abortReasonAllowed(status: unknown, abortReason: unknown): boolean {
  if (abortReason === undefined || abortReason === null) return true;
  return typeof status === 'string' && ABORT_REASON_STATUSES.includes(status);
}

/**
 * Spec 6.1 and 2.2: transactionStatus is carried "once the end user has
 * authorized", i.e. from PAYMENT_INITIATED on (and with the poller statuses,
 * which only follow PAYMENT_INITIATED). Before that it may be present or not.
 */
export function transactionStatusExpected(status: unknown): boolean {
  return status === 'PAYMENT_INITIATED' || (typeof status === 'string' && POLLER_STATUSES.includes(status));
}

/** Spec 2.6 (`must`): a non-empty counterpartyAgent has 8 or 11 characters; "" means the bank gave none. */
export function bicLengthOk(s: string): boolean {
  return s === '' || s.length === 8 || s.length === 11;
}

/** `should`: the BIC shape of ISO 9362, beyond its length (the spec says only "BIC"). */
export function bicFormatOk(s: string): boolean {
  return s === '' || /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(s);
}

/** Spec 3.3 (`must`): a payment at a bank of NO, SE, FI or DK has one of the nine Nordic codes; other banks are not restricted. */
export function nordicStatusOk(countryCode: unknown, status: unknown): boolean {
  if (typeof countryCode !== 'string' || !NORDIC_COUNTRIES.includes(countryCode.toUpperCase())) return true;
  return typeof status === 'string' && NORDIC_PAYMENT_CODES.includes(status);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `profile`: an ISO 8601 date or date-time (docs/profile.md; the spec says only
 * "string", so this never makes a body invalid). A zone is not demanded.
 */
/**
 * A body whose lastModifiedDate is before its createdDate: a last update before
 * the checkout existed contradicts the body, though the spec does not rule on
 * it outright (should, in `validate` and the sink's webhook.body.last-modified-forward
 * alike). False when either is not a date.
 */
export function modifiedBeforeCreated(createdDate: unknown, lastModifiedDate: unknown): boolean {
  if (typeof createdDate !== 'string' || typeof lastModifiedDate !== 'string') return false;
  const created = Date.parse(createdDate), modified = Date.parse(lastModifiedDate);
  return Number.isFinite(created) && Number.isFinite(modified) && modified < created;
}

/**
 * What rule date.last-modified-after-created expects of a body, in the words
 * `validate` and the sink's webhook.body.last-modified-forward both print.
 */
export function modifiedAfterCreatedExpected(createdDate: unknown): string {
  return `a lastModifiedDate at or after createdDate ${JSON.stringify(createdDate)}`;
}

export function isIsoDateTime(s: string): boolean {
  if (!ISO_DATE_TIME.test(s) && !ISO_DATE.test(s)) return false;
  return !Number.isNaN(Date.parse(s.slice(0, 10)));
}

/** `must` where the spec says "YYYY-MM-DD" (scheduledDate, 2.2): the form and a real calendar day. */
export function isCalendarDate(s: string): boolean {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
