// What certify-receiver will send, decided before anything is sent so the run
// can say how many requests go where and refuse to start past --max-requests.
// Every valid body comes from harness/webhook/bodies.ts (realistic, valid per
// spec 2.2-2.5). Every checkout goes through a path the service really sends
// (spec 3.1 and 6.2: STARTED first, a poller status only after
// PAYMENT_INITIATED), so a receiver that tracks checkouts is never shown an
// event it could fairly reject; only the idempotency checks repeat an event.
import { randomBytes } from 'node:crypto';
import { ABORT_REASONS, ABORT_REASON_STATUSES, CHECKOUT_STATUSES, POLLER_STATUSES } from '../contracts/enums.ts';
import { eventPosition, type EventPosition } from '../places/event-positions.ts';
import { pathThrough, transitionPlace, TRANSITION_KINDS, TRANSITIONS } from '../places/transitions.ts';
import { buildWebhookBody, type BuildWebhookOptions } from '../webhook/bodies.ts';

export type BodyKind = 'normal' | 'batch' | 'older';

/**
 * One event of a planned checkout: its body, and the JSON text that is sent,
 * made once when the plan is complete, as the service serialises an event once
 * for all its attempts; sending then costs no serialising.
 */
interface PlannedEvent {
  status: string; body: Record<string, unknown>; text: string;
  /** The place of the check's family this event exercises (a transition, an abortReason), when its check binds one. */
  place?: string;
}

/** One checkout of receiver.accepts: its events, delivered in order. */
export interface PlannedCheckout {
  label: string;
  kind: BodyKind;
  events: PlannedEvent[];
}

/** A checkout while the plan is made: its bodies may still be edited. */
type Draft = Omit<PlannedCheckout, 'events'> & { events: Omit<PlannedEvent, 'text'>[] };

/** The events each burst checkout goes through, in order (spec 6.8: one at a time per checkout). */
export const BURST_SEQUENCE = ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'] as const;
/** Sequence of the checkout whose state is read after duplicates; each event is repeated `times`. */
export const DUPLICATE_SEQUENCE = [
  { status: 'STARTED', times: 2 }, { status: 'PAYMENT_INITIATED', times: 2 }, { status: 'PAYMENT_COMPLETED', times: 3 },
] as const;
/** Garbage of receiver.robustness; each is followed by one valid delivery. */
export const GARBAGE = ['malformed-json', 'empty-body', 'wrong-content-type', 'large-body'] as const;
export type Garbage = typeof GARBAGE[number];

/**
 * A checkout as the service created it: its id and its creation time, from
 * which every one of its bodies is built, so createdDate (and everything
 * derived from the id: amounts, parties, endToEndId) is the same in each event.
 */
export interface Checkout { id: string; createdMs: number }

export class Ids {
  private n = 0;
  private readonly tag = randomBytes(3).toString('hex');
  /** A checkout id unique to this run, so repeated runs never look like duplicates to the receiver. */
  next(what: string): string { return `cr-${this.tag}-${what}-${++this.n}`; }
  /** A fresh checkout, created a minute ago. */
  checkout(what: string): Checkout { return { id: this.next(what), createdMs: Date.now() - 60_000 }; }
}

/** The statuses the service delivers for a checkout that ends in `status` (spec 3.1, 6.2). */
export function pathTo(status: string): string[] {
  if (status === 'STARTED') return ['STARTED'];
  if (POLLER_STATUSES.includes(status)) return ['STARTED', 'PAYMENT_INITIATED', status];
  return ['STARTED', status];
}

type Extra = Partial<Omit<BuildWebhookOptions, 'kind' | 'id' | 'status'>>;

/** The body of one event of checkout `c`; `step` orders lastModifiedDate within the checkout. */
export function eventBody(c: Checkout, status: string, kind: BodyKind = 'normal', step = 0, extra: Extra = {}): Record<string, unknown> {
  return buildWebhookBody({
    kind, id: c.id, status, referenceId: `ref-${c.id}`, endToEndId: `e2e-${c.id}`,
    createdDate: new Date(c.createdMs).toISOString(), lastModifiedDate: new Date(c.createdMs + step * 1000).toISOString(),
    ...(kind === 'batch' ? { payments: 3 } : {}), ...extra,
  });
}

function checkout(ids: Ids, kind: BodyKind, status: string, label: string, extra: Extra = {}): Draft {
  return along(ids, kind, pathTo(status), label, extra);
}

/** A checkout through the given statuses in order. */
function along(ids: Ids, kind: BodyKind, statuses: readonly string[], label: string, extra: Extra = {}): Draft {
  const c = ids.checkout(kind);
  return { label, kind, events: statuses.map((s, i) => ({ status: s, body: eventBody(c, s, kind, i, extra) })) };
}

/** Renames payment.scheduledDate to paymentScheduledDate in every event of a normal checkout. */
function respell(c: Draft): Draft {
  for (const e of c.events) {
    const p = e.body.payment as Record<string, unknown>;
    p.paymentScheduledDate = p.scheduledDate;
    delete p.scheduledDate;
  }
  return c;
}

interface Step { status: string; extra?: Extra; edit?: (body: Record<string, unknown>) => void }

/** A checkout with the given events in order; `edit` changes one event's body after it was built. */
function stepped(ids: Ids, kind: BodyKind, label: string, steps: Step[]): Draft {
  const c = ids.checkout(kind);
  return { label, kind, events: steps.map((s, i) => {
    const body = eventBody(c, s.status, kind, i, s.extra);
    s.edit?.(body);
    return { status: s.status, body };
  }) };
}

const payments = (b: Record<string, unknown>) => b.payments as Record<string, unknown>[];
/** Gives the batch's payments these transactionStatus values, one each. */
const eachTransactionStatus = (...values: string[]) => (b: Record<string, unknown>) =>
  payments(b).forEach((p, i) => { p.transactionStatus = values[i % values.length]; });
const setAll = (values: Record<string, unknown>) => (b: Record<string, unknown>) => {
  for (const [k, v] of Object.entries(values)) {
    const [top, field] = k.split('.');
    if (!field) b[top] = v;
    else if (top === 'payments') payments(b).forEach(p => { p[field] = v; });
    else (b[top] as Record<string, unknown>)[field] = v;
  }
};

/**
 * Spec 3.2 lists nine TransactionStatus values; from PAYMENT_INITIATED on the
 * builder sets the one equal to the checkout status. The values before
 * authorisation (STARTED, BANK_ACCOUNT_SELECTED, PAYMENT_RETRYABLE,
 * PAYMENT_CREATED: "Before that it may be present or not") go out here, on
 * the path with strong customer authentication (spec 6.2: PAYMENT_CREATED),
 * and a batch whose payments end in different final values.
 */
function transactionStatusCheckouts(ids: Ids): Draft[] {
  const ts = (v: string): Extra => ({ transactionStatus: v });
  return [
    stepped(ids, 'normal', 'normal checkout with strong customer authentication, transactionStatus STARTED then PAYMENT_CREATED', [
      { status: 'STARTED', extra: ts('STARTED') }, { status: 'PAYMENT_CREATED', extra: ts('PAYMENT_CREATED') },
      { status: 'PAYMENT_INITIATED' }, { status: 'PAYMENT_COMPLETED' }]),
    stepped(ids, 'normal', 'normal checkout with transactionStatus BANK_ACCOUNT_SELECTED then PAYMENT_RETRYABLE', [
      { status: 'STARTED', extra: ts('BANK_ACCOUNT_SELECTED') }, { status: 'PAYMENT_CREATED', extra: ts('PAYMENT_RETRYABLE') },
      { status: 'PAYMENT_INITIATED' }]),
    stepped(ids, 'batch', 'batch checkout whose payments differ in transactionStatus', [
      { status: 'STARTED', edit: eachTransactionStatus('STARTED', 'BANK_ACCOUNT_SELECTED', 'PAYMENT_RETRYABLE') },
      { status: 'PAYMENT_INITIATED' },
      { status: 'PAYMENT_COMPLETED', edit: eachTransactionStatus('PAYMENT_COMPLETED', 'PAYMENT_FAILED', 'PAYMENT_NONTRACKABLE') }]),
  ];
}

/** Spec 2.2: "amount ... Some banks do not provide it", and "updated if the end user edits the amount". */
function optionalValueCheckouts(ids: Ids): Draft[] {
  const noAmount = (b: Record<string, unknown>) => {
    for (const p of [b.payment, ...((b.payments as unknown[] | undefined) ?? [])]) if (p) delete (p as Record<string, unknown>).amount;
  };
  return [
    stepped(ids, 'normal', 'normal checkout whose bank does not provide the amount', [
      { status: 'STARTED', edit: noAmount }, { status: 'PAYMENT_INITIATED', edit: noAmount }, { status: 'PAYMENT_COMPLETED', edit: noAmount }]),
    stepped(ids, 'normal', 'normal checkout whose amount was edited by the end user', [
      { status: 'STARTED' },
      { status: 'PAYMENT_INITIATED', edit: b => { const p = b.payment as Record<string, number>; p.amount = Math.round(p.originalAmount * 50) / 100; } }]),
    stepped(ids, 'batch', 'batch checkout whose bank does not provide the amounts', [
      { status: 'STARTED', edit: noAmount }, { status: 'CANCELLED', edit: noAmount }]),
  ];
}

/**
 * The project's reading (docs/profile.md, Webhook): a value that is absent may
 * come as null. The spec never mentions null, so this is judged at level profile.
 */
function nullValueCheckouts(ids: Ids): Draft[] {
  const nulls = { 'payment.transactionStatus': null, 'payment.scheduledDate': null, 'payment.cardPaymentId': null, 'payment.remittanceInfo': null,
    abortReason: null, endToEndId: null, debtor: null };
  return [
    stepped(ids, 'normal', 'normal checkout with null for every absent value, then amount null', [
      { status: 'STARTED', edit: setAll(nulls) },
      // endToEndId is "returned unchanged": null in every event of the checkout.
      { status: 'PAYMENT_INITIATED', edit: setAll({ abortReason: null, endToEndId: null }) },
      { status: 'PAYMENT_COMPLETED', edit: setAll({ 'payment.amount': null, abortReason: null, endToEndId: null }) }]),
    stepped(ids, 'batch', 'batch checkout with null for every absent value', [
      { status: 'STARTED', edit: setAll({ 'payments.transactionStatus': null, 'payments.paymentScheduledDate': null, abortReason: null, endToEndId: null }) },
      { status: 'CANCELLED', edit: setAll({ abortReason: null, endToEndId: null }) }]),
  ];
}

/**
 * Spec 2.2 types amount "decimal" and originalAmount "number": a serialiser
 * that writes decimals as strings (to keep 10.10 from becoming 10.1) sends
 * the amount as "1234.50". Both kinds, every event.
 */
function decimalAmountCheckouts(ids: Ids): Draft[] {
  const asString = (b: Record<string, unknown>) => {
    for (const p of [b.payment, ...((b.payments as unknown[] | undefined) ?? [])] as (Record<string, unknown> | undefined)[])
      if (p && typeof p.amount === 'number') p.amount = p.amount.toFixed(2);
  };
  return (['normal', 'batch'] as const).map(kind => stepped(ids, kind, `${kind} checkout with the amount as a decimal string`,
    pathTo('PAYMENT_COMPLETED').map(status => ({ status, edit: asString }))));
}

/** Spec 2.2: cardPaymentId, "Identifier generated by the card payment provider. Only for card payments." */
function cardCheckout(ids: Ids): Draft {
  const card = setAll({ 'payment.cardPaymentId': `ch_${randomBytes(12).toString('base64url')}` });
  return stepped(ids, 'normal', 'normal checkout paid by card (cardPaymentId)', [
    { status: 'STARTED' }, { status: 'PAYMENT_INITIATED', edit: card }, { status: 'PAYMENT_COMPLETED', edit: card }]);
}

/**
 * Spec 6.7: an event is retried for up to 7 days, so a body dated days ago is
 * still an event to accept. A normal and a batch checkout, each through its
 * first, a middle and its final event, each event the place of its position.
 */
function lateCheckouts(ids: Ids): Draft[] {
  const now = Date.now();
  const days = (n: number) => new Date(now - n * 86_400_000).toISOString();
  const created = days(6.1);
  return (['normal', 'batch'] as const).map(kind => {
    const c = stepped(ids, kind, `${kind} checkout delivered 6 days after its events`, BURST_SEQUENCE.map((status, i) =>
      ({ status, extra: { createdDate: created, lastModifiedDate: days(6.1 - i * 0.05) } })));
    c.events.forEach(e => { e.place = eventPosition(kind, e.status); });
    return c;
  });
}

/** Marks the checkout's last event as the place `place` of its check's family. */
function ending(c: Draft, place: string): Draft {
  c.events[c.events.length - 1].place = place;
  return c;
}

/**
 * The transactionStatus of each of a batch's three payments at each checkout
 * status, all different: before authorisation values of spec 3.2 that claim
 * none ("Before that it may be present or not"), from PAYMENT_INITIATED on
 * authorised ones, one payment settled at once (an instant payment) and
 * PAYMENT_COMPLETED from then on (a final value does not change).
 */
function batchTransactionStatuses(status: string): string[] {
  if (status === 'STARTED') return ['STARTED', 'BANK_ACCOUNT_SELECTED', 'PAYMENT_RETRYABLE'];
  if (status === 'PAYMENT_CREATED') return ['PAYMENT_CREATED', 'PAYMENT_RETRYABLE', 'BANK_ACCOUNT_SELECTED'];
  if (status === 'PAYMENT_INITIATED') return ['PAYMENT_INITIATED', 'PAYMENT_COMPLETED', 'PAYMENT_INITIATED'];
  if (POLLER_STATUSES.includes(status))
    return [status, 'PAYMENT_COMPLETED', status === 'PAYMENT_COMPLETED' ? 'PAYMENT_NONTRACKABLE' : 'PAYMENT_COMPLETED'];
  return ['PAYMENT_RETRYABLE', 'BANK_ACCOUNT_SELECTED', 'PAYMENT_CREATED'];
}

/**
 * Every move spec 3.1 allows, each the last move of its own checkout, in a
 * normal and in a batch checkout (whose payments differ in transactionStatus);
 * each event after STARTED is the place of its move.
 */
function transitionCheckouts(ids: Ids): Draft[] {
  return TRANSITION_KINDS.flatMap(kind => TRANSITIONS.map(t => {
    const c = kind === 'batch'
      ? stepped(ids, 'batch', `batch checkout moving ${t.id}, its payments in different transactionStatus values`,
        pathThrough(t).map(status => ({ status, edit: eachTransactionStatus(...batchTransactionStatuses(status)) })))
      : along(ids, 'normal', pathThrough(t), `normal checkout moving ${t.id}`);
    c.events.forEach((e, i) => { if (i) e.place = transitionPlace(kind, c.events[i - 1].status, e.status); });
    return c;
  }));
}

/** The checkouts of receiver.accepts, one group per check. */
export function acceptsPlan(ids: Ids): Record<string, PlannedCheckout[]> {
  const scheduledDate = '2026-12-01';
  const drafts: Record<string, Draft[]> = {
    'normal-statuses': CHECKOUT_STATUSES.map(s => ending(checkout(ids, 'normal', s, `normal checkout ending ${s}`), s)),
    'batch-statuses': CHECKOUT_STATUSES.map(s => ending(checkout(ids, 'batch', s, `batch checkout ending ${s}`), s)),
    // Each abortReason in a normal and in a batch checkout (ending in another of its statuses): one place per reason, held when both got 200.
    'abort-reasons': (['normal', 'batch'] as const).flatMap((kind, k) => ABORT_REASONS.map((r, i) => {
      const s = ABORT_REASON_STATUSES[(i + k) % ABORT_REASON_STATUSES.length];
      return ending(checkout(ids, kind, s, `${kind} checkout ending ${s} with abortReason ${r}`, { abortReason: r }), r);
    })),
    'scheduled-date': (['normal', 'batch'] as const).map(k => checkout(ids, k, 'PAYMENT_INITIATED', `${k} checkout with scheduledDate`,
      { scheduledDate, scheduledDateField: 'scheduledDate' })),
    // The batch body shape names it paymentScheduledDate (spec 2.3), and "both appear": a normal body
    // may carry that spelling too, which the body builder does not make, so the field is renamed here.
    'payment-scheduled-date': [
      checkout(ids, 'batch', 'PAYMENT_INITIATED', 'batch checkout with paymentScheduledDate', { scheduledDate, scheduledDateField: 'paymentScheduledDate' }),
      respell(checkout(ids, 'normal', 'PAYMENT_INITIATED', 'normal checkout with paymentScheduledDate', { scheduledDate })),
    ],
    'older-variant': ['PAYMENT_COMPLETED', 'CANCELLED'].map(s => checkout(ids, 'older', s, `older variant (spec 2.5) ending ${s}`)),
    'unknown-fields': (['normal', 'batch'] as const)
      .map(k => checkout(ids, k, 'PAYMENT_INITIATED', `${k} checkout with unknown extra fields`, { extraFields: true })),
    'transaction-statuses': transactionStatusCheckouts(ids),
    'card-payment': [cardCheckout(ids)],
    'optional-values': optionalValueCheckouts(ids),
    'null-values': nullValueCheckouts(ids),
    'decimal-amount': decimalAmountCheckouts(ids),
    'transitions': transitionCheckouts(ids),
    'late-event': lateCheckouts(ids),
  };
  const done = (c: Draft): PlannedCheckout => ({ ...c, events: c.events.map(e => ({ ...e, text: JSON.stringify(e.body) })) });
  return Object.fromEntries(Object.entries(drafts).map(([group, cs]) => [group, cs.map(done)]));
}

/** A fresh checkout's first event (auth probes, the delivery after garbage). */
export function freshBody(ids: Ids): Record<string, unknown> {
  return eventBody(ids.checkout('normal'), 'STARTED');
}

export interface PlanSize {
  accepts: number; auth: number; idempotency: number; concurrency: number; robustness: number;
  /** Deliveries in all. */
  total: number;
  /** GETs of --state-url (not deliveries). */
  stateReads: number;
}

/**
 * Where each receiver.auth probe is forged (auth.ts; harness/places/event-positions.ts): the first
 * event of a new checkout, the final event of a checkout whose earlier
 * events came with the registered key (its state must stay at the last of
 * them), and the first event of a new batch checkout (a receiver whose batch
 * flow is another code path may verify the key in one of them only).
 */
export const AUTH_PLACES = [
  { place: 'normal first', kind: 'normal', status: 'STARTED', before: [] },
  { place: 'normal final', kind: 'normal', status: 'PAYMENT_COMPLETED', before: ['STARTED', 'PAYMENT_INITIATED'] },
  { place: 'batch first', kind: 'batch', status: 'STARTED', before: [] },
] as const satisfies readonly { place: EventPosition; kind: 'normal' | 'batch'; status: string; before: readonly string[] }[];
export type AuthPlace = typeof AUTH_PLACES[number];

/** Deliveries and state reads per probe (plan.ts counts them): the valid events before each forged one, and the forged ones. */
const AUTH_DELIVERIES_PER_PROBE = AUTH_PLACES.reduce((n, p) => n + p.before.length + 1, 0);
const AUTH_CHECKOUTS_PER_PROBE = AUTH_PLACES.length;

/** receiver.idempotency.tracks-by-id (tracking.ts): two checkouts of one referenceId, 2 and 3 events. */
const TRACKING_DELIVERIES = 5;
/**
 * receiver.auth (auth.ts): each probe at each of its places, with the valid events before it; with --state-url one valid delivery
 * behind them, and a read of it, of a checkout never sent and of each probe's checkouts.
 */
const AUTH_PROBES = 7;
/** twice: STARTED + 2; three-times: STARTED, PAYMENT_INITIATED + 3; after-pause: STARTED, PAYMENT_INITIATED + 2. */
const IDEMPOTENCY_DELIVERIES = 3 + 5 + 4;

export function planSize(accepts: Record<string, PlannedCheckout[]>, concurrency: number, withState: boolean): PlanSize {
  const a = Object.values(accepts).flat().reduce((n, c) => n + c.events.length, 0);
  const dup = DUPLICATE_SEQUENCE.reduce((n, e) => n + e.times, 0);
  const size = {
    accepts: a, auth: AUTH_PROBES * AUTH_DELIVERIES_PER_PROBE + (withState ? 1 : 0),
    idempotency: IDEMPOTENCY_DELIVERIES + (withState ? dup + TRACKING_DELIVERIES : 0),
    concurrency: concurrency * BURST_SEQUENCE.length,
    robustness: GARBAGE.length * 2,
  };
  // At least: auth's probes, the checkout behind them and one never sent, the duplicated checkout, the two of one referenceId, each burst checkout.
  const stateReads = withState ? AUTH_PROBES * AUTH_CHECKOUTS_PER_PROBE + 2 + 1 + 2 + concurrency : 0;
  return { ...size, total: Object.values(size).reduce((n, x) => n + x, 0), stateReads };
}
