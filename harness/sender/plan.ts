// What certify-receiver will send, decided before anything is sent so the run
// can say how many requests go where and refuse to start past --max-requests.
// Every valid body comes from harness/webhook/bodies.ts (realistic, valid per
// spec 2.2-2.5); each one carries its own checkout id, so only the idempotency
// checks ever repeat an event.
import { randomBytes } from 'node:crypto';
import { ABORT_REASONS, ABORT_REASON_STATUSES, CHECKOUT_STATUSES } from '../contracts/enums.ts';
import { buildWebhookBody, transactionStatusFor } from '../webhook/bodies.ts';

export type BodyKind = 'normal' | 'batch' | 'older';

export interface PlannedBody {
  label: string;
  kind: BodyKind;
  body: Record<string, unknown>;
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

function body(ids: Ids, kind: BodyKind, status: string, extra: Partial<Parameters<typeof buildWebhookBody>[0]> = {}): Record<string, unknown> {
  const id = ids.next(kind);
  return buildWebhookBody({
    kind, id, status, referenceId: `ref-${id}`, endToEndId: `e2e-${id}`,
    ...(kind === 'older' ? {} : { transactionStatus: transactionStatusFor(status) }),
    ...(kind === 'batch' ? { payments: 3 } : {}),
    ...extra,
  });
}

/** The bodies of receiver.accepts, one group per check. */
export function acceptsBodies(ids: Ids): Record<string, PlannedBody[]> {
  const date = '2026-12-01';
  return {
    'normal-statuses': CHECKOUT_STATUSES.map(s => ({ label: `normal checkout, status ${s}`, kind: 'normal', body: body(ids, 'normal', s) })),
    'batch-statuses': CHECKOUT_STATUSES.map(s => ({ label: `batch checkout, status ${s}`, kind: 'batch', body: body(ids, 'batch', s) })),
    'abort-reasons': ABORT_REASONS.map((r, i) => {
      const s = ABORT_REASON_STATUSES[i % ABORT_REASON_STATUSES.length];
      return { label: `normal checkout, ${s} with abortReason ${r}`, kind: 'normal', body: body(ids, 'normal', s, { abortReason: r }) };
    }),
    'scheduled-date': (['normal', 'batch'] as const).map(k => ({ label: `${k} checkout with scheduledDate`, kind: k,
      body: body(ids, k, 'PAYMENT_INITIATED', { scheduledDate: date, scheduledDateField: 'scheduledDate' }) })),
    // The batch body shape names it paymentScheduledDate (spec 2.3); a normal body has only scheduledDate (2.2).
    'payment-scheduled-date': [{ label: 'batch checkout with paymentScheduledDate', kind: 'batch',
      body: body(ids, 'batch', 'PAYMENT_INITIATED', { scheduledDate: date, scheduledDateField: 'paymentScheduledDate' }) }],
    'older-variant': ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED', 'CANCELLED'].map(s => ({
      label: `older variant (spec 2.5), status ${s}`, kind: 'older', body: body(ids, 'older', s) })),
    'unknown-fields': (['normal', 'batch'] as const).map(k => ({ label: `${k} checkout with unknown extra fields`, kind: k,
      body: body(ids, k, 'PAYMENT_INITIATED', { extraFields: true }) })),
  };
}

/** A fresh valid delivery (auth probes, the delivery after garbage). */
export function freshBody(ids: Ids, status = 'STARTED', kind: BodyKind = 'normal'): Record<string, unknown> {
  return body(ids, kind, status);
}

/** The body of one event of a checkout whose id is fixed (bursts, duplicates). */
export function eventBody(id: string, status: string, kind: 'normal' | 'batch' = 'normal'): Record<string, unknown> {
  return buildWebhookBody({
    kind, id, status, referenceId: `ref-${id}`, endToEndId: `e2e-${id}`,
    transactionStatus: transactionStatusFor(status), ...(kind === 'batch' ? { payments: 2 } : {}),
  });
}

export interface PlanSize {
  accepts: number; auth: number; idempotency: number; concurrency: number; robustness: number;
  /** Deliveries in all. */
  total: number;
  /** GETs of --state-url (not deliveries). */
  stateReads: number;
}

export const AUTH_PROBES = 4;
export const IDEMPOTENCY_DELIVERIES = 2 + 3 + 2;

export function planSize(accepts: Record<string, PlannedBody[]>, concurrency: number, withState: boolean): PlanSize {
  const a = Object.values(accepts).reduce((n, g) => n + g.length, 0);
  const dup = DUPLICATE_SEQUENCE.reduce((n, e) => n + e.times, 0);
  const size = {
    accepts: a, auth: AUTH_PROBES,
    idempotency: IDEMPOTENCY_DELIVERIES + (withState ? dup : 0),
    concurrency: concurrency * BURST_SEQUENCE.length,
    robustness: GARBAGE.length * 2,
  };
  return { ...size, total: Object.values(size).reduce((n, x) => n + x, 0), stateReads: withState ? 1 + concurrency : 0 };
}
