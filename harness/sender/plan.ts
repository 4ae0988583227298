// What certify-receiver will send, decided before anything is sent so the run
// can say how many requests go where and refuse to start past --max-requests.
// Every valid body comes from harness/webhook/bodies.ts (realistic, valid per
// spec 2.2-2.5). Every checkout goes through a path the service really sends
// (spec 3.1 and 6.2: STARTED first, a poller status only after
// PAYMENT_INITIATED), so a receiver that tracks checkouts is never shown an
// event it could fairly reject; only the idempotency checks repeat an event.
import { randomBytes } from 'node:crypto';
import { ABORT_REASONS, ABORT_REASON_STATUSES, CHECKOUT_STATUSES, POLLER_STATUSES } from '../contracts/enums.ts';
import { buildWebhookBody, type BuildWebhookOptions } from '../webhook/bodies.ts';

export type BodyKind = 'normal' | 'batch' | 'older';

/** One checkout of receiver.accepts: its events, delivered in order. */
export interface PlannedCheckout {
  label: string;
  kind: BodyKind;
  events: { status: string; body: Record<string, unknown> }[];
}

/** The events each burst checkout goes through, in order (spec 6.8: one at a time per checkout). */
export const BURST_SEQUENCE = ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'] as const;
/** Sequence of the checkout whose state is read after duplicates; each event is repeated `times`. */
export const DUPLICATE_SEQUENCE = [
  { status: 'STARTED', times: 2 }, { status: 'PAYMENT_INITIATED', times: 2 }, { status: 'PAYMENT_COMPLETED', times: 3 },
] as const;
/** Garbage of receiver.robustness; each is followed by one valid delivery. */
export const GARBAGE = ['malformed-json', 'empty-body', 'wrong-content-type', 'large-body'] as const;
export type Garbage = typeof GARBAGE[number];

export class Ids {
  private n = 0;
  private readonly tag = randomBytes(3).toString('hex');
  /** A checkout id unique to this run, so repeated runs never look like duplicates to the receiver. */
  next(what: string): string { return `cr-${this.tag}-${what}-${++this.n}`; }
}

/** The statuses the service delivers for a checkout that ends in `status` (spec 3.1, 6.2). */
export function pathTo(status: string): string[] {
  if (status === 'STARTED') return ['STARTED'];
  if (POLLER_STATUSES.includes(status)) return ['STARTED', 'PAYMENT_INITIATED', status];
  return ['STARTED', status];
}

type Extra = Partial<Omit<BuildWebhookOptions, 'kind' | 'id' | 'status'>>;

/** The body of one event of checkout `id`; `step` orders lastModifiedDate within the checkout. */
export function eventBody(id: string, status: string, kind: BodyKind = 'normal', step = 0, extra: Extra = {}): Record<string, unknown> {
  const created = Date.now() - 60_000;
  return buildWebhookBody({
    kind, id, status, referenceId: `ref-${id}`, endToEndId: `e2e-${id}`,
    createdDate: new Date(created).toISOString(), lastModifiedDate: new Date(created + step * 1000).toISOString(),
    ...(kind === 'batch' ? { payments: 3 } : {}), ...extra,
  });
}

function checkout(ids: Ids, kind: BodyKind, status: string, label: string, extra: Extra = {}): PlannedCheckout {
  const id = ids.next(kind);
  return { label, kind, events: pathTo(status).map((s, i) => ({ status: s, body: eventBody(id, s, kind, i, extra) })) };
}

/** Renames payment.scheduledDate to paymentScheduledDate in every event of a normal checkout. */
function respell(c: PlannedCheckout): PlannedCheckout {
  for (const e of c.events) {
    const p = e.body.payment as Record<string, unknown>;
    p.paymentScheduledDate = p.scheduledDate;
    delete p.scheduledDate;
  }
  return c;
}

/** The checkouts of receiver.accepts, one group per check. */
export function acceptsPlan(ids: Ids): Record<string, PlannedCheckout[]> {
  const scheduledDate = '2026-12-01';
  return {
    'normal-statuses': CHECKOUT_STATUSES.map(s => checkout(ids, 'normal', s, `normal checkout ending ${s}`)),
    'batch-statuses': CHECKOUT_STATUSES.map(s => checkout(ids, 'batch', s, `batch checkout ending ${s}`)),
    'abort-reasons': ABORT_REASONS.map((r, i) => {
      const s = ABORT_REASON_STATUSES[i % ABORT_REASON_STATUSES.length];
      return checkout(ids, 'normal', s, `normal checkout ending ${s} with abortReason ${r}`, { abortReason: r });
    }),
    'scheduled-date': (['normal', 'batch'] as const).map(k => checkout(ids, k, 'PAYMENT_INITIATED', `${k} checkout with scheduledDate`,
      { scheduledDate, scheduledDateField: 'scheduledDate' })),
    // The batch body shape names it paymentScheduledDate (spec 2.3), and "both appear": a normal body
    // may carry that spelling too, which the body builder does not make, so the field is renamed here.
    'payment-scheduled-date': [
      checkout(ids, 'batch', 'PAYMENT_INITIATED', 'batch checkout with paymentScheduledDate', { scheduledDate, scheduledDateField: 'paymentScheduledDate' }),
      respell(checkout(ids, 'normal', 'PAYMENT_INITIATED', 'normal checkout with paymentScheduledDate', { scheduledDate })),
    ],
    'older-variant': ['PAYMENT_COMPLETED', 'CANCELLED'].map(s => checkout(ids, 'older', s, `older variant (spec 2.5) ending ${s}`)),
    'unknown-fields': (['normal', 'batch'] as const).map(k => checkout(ids, k, 'PAYMENT_INITIATED', `${k} checkout with unknown extra fields`, { extraFields: true })),
  };
}

/** A fresh checkout's first event (auth probes, the delivery after garbage). */
export function freshBody(ids: Ids): Record<string, unknown> {
  return eventBody(ids.next('normal'), 'STARTED');
}

export interface PlanSize {
  accepts: number; auth: number; idempotency: number; concurrency: number; robustness: number;
  /** Deliveries in all. */
  total: number;
  /** GETs of --state-url (not deliveries). */
  stateReads: number;
}

export const AUTH_PROBES = 4;
/** twice: STARTED + 2; three-times: STARTED, PAYMENT_INITIATED + 3; after-pause: STARTED, PAYMENT_INITIATED + 2. */
export const IDEMPOTENCY_DELIVERIES = 3 + 5 + 4;

export function planSize(accepts: Record<string, PlannedCheckout[]>, concurrency: number, withState: boolean): PlanSize {
  const a = Object.values(accepts).flat().reduce((n, c) => n + c.events.length, 0);
  const dup = DUPLICATE_SEQUENCE.reduce((n, e) => n + e.times, 0);
  const size = {
    accepts: a, auth: AUTH_PROBES,
    idempotency: IDEMPOTENCY_DELIVERIES + (withState ? dup : 0),
    concurrency: concurrency * BURST_SEQUENCE.length,
    robustness: GARBAGE.length * 2,
  };
  return { ...size, total: Object.values(size).reduce((n, x) => n + x, 0), stateReads: withState ? 1 + concurrency : 0 };
}
