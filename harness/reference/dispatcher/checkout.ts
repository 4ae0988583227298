// A checkout of the reference moving through its statuses: one event per status
// (spec 6.1), each created one spec second after the previous one, as a real
// checkout's status changes are detected one after another. Each event's body is
// built when the event is created (spec 2.2, 2.3); its lastModifiedDate is the
// status change's planned time (creation + i spec seconds), not the moment a
// possibly late timer fired, so a checkout's dates are always distinct and increasing.
import { randomUUID } from 'node:crypto';
import { statusesWithSca } from '../../contracts/rules.ts';
import { buildWebhookBody } from '../../webhook/bodies.ts';
import type { Clock, Timer } from '../clock.ts';
import type { CheckoutRequest } from './checkout-request.ts';
import type { Dispatcher } from './index.ts';
import type { CatalogName } from '../catalog-names.ts';

/** Arbitrary but realistic: a status change is detected one spec second after the previous one. */
const STATUS_STEP_MS = 1_000;

export interface RunningCheckout {
  id: string;
  request: CheckoutRequest;
  createdAtMs: number;
  /** Resolves once the event of the last status was created (or creation was cancelled). */
  allCreated: Promise<void>;
  /** Stops creating further events (on close). */
  cancel(): void;
}

/**
 * Each payment of a body, its `field` turned into a decimal string ("129.50"):
 * `webhook-decimal-amount` for amount, which spec 2.2 types "decimal" (a quirk),
 * `webhook-amount-string` for originalAmount, which it types "number" (a fault).
 */
function asDecimalStrings(body: Record<string, unknown>, field: 'amount' | 'originalAmount'): Record<string, unknown> {
  const fix = (p: unknown) => {
    const payment = p as Record<string, unknown>;
    if (typeof payment?.[field] === 'number') payment[field] = payment[field].toFixed(2);
  };
  fix(body.payment);
  if (Array.isArray(body.payments)) body.payments.forEach(fix);
  return body;
}

/** The payments of a body: `payment` of a normal one, each of `payments` of a batch. */
function paymentsOf(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const list = Array.isArray(body.payments) ? body.payments : body.payment ? [body.payment] : [];
  return list.filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null);
}

/**
 * `webhook-amount-not-original`: amount one unit below originalAmount though no
 * end user edited it (spec 2.2: it equals the original amount).
 * `webhook-card-payment-id`: a normal payment carries a cardPaymentId though it
 * is no card payment (spec 2.2: only for card payments).
 */
function bentAmounts(body: Record<string, unknown>, faults: ReadonlySet<CatalogName>): Record<string, unknown> {
  for (const p of paymentsOf(body)) {
    if (faults.has('webhook-amount-not-original') && typeof p.originalAmount === 'number') p.amount = Math.round((p.originalAmount - 1) * 100) / 100;
    if (faults.has('webhook-card-payment-id') && body.payment === p) p.cardPaymentId = `card-${String(body.id).slice(0, 8)}`;
  }
  return body;
}

/**
 * `webhook-omits-nulls`: a serialiser that leaves out null fields. The debtor is
 * not known before the end user picked an account, so a STARTED body has a null
 * debtor, which such a serialiser omits (spec 2.2 lists debtor; it says nothing of null).
 */
function omitUnknownDebtor(body: Record<string, unknown>, status: string): Record<string, unknown> {
  if (status === 'STARTED') delete body.debtor;
  return body;
}

/** The body as the faults and quirks in force serialise it. */
function serialised(body: Record<string, unknown>, status: string, faults: ReadonlySet<CatalogName>): Record<string, unknown> {
  if (faults.has('webhook-amount-string')) asDecimalStrings(body, 'originalAmount');
  if (faults.has('webhook-decimal-amount')) asDecimalStrings(body, 'amount');
  if (faults.has('webhook-omits-nulls')) omitUnknownDebtor(body, status);
  return body;
}

export function startCheckout(asked: CheckoutRequest, deps: { clock: Clock; dispatcher: Dispatcher; faults: ReadonlySet<CatalogName> }): RunningCheckout {
  const { clock, dispatcher, faults } = deps;
  // Spec 3.1, 6.2: a payment that needs strong customer authentication passes through
  // PAYMENT_CREATED (`webhook-no-sca-event`: the reference ignores the need; `webhook-batch-no-sca-event`: for batch checkouts only).
  const ignored = faults.has('webhook-no-sca-event') || (asked.kind === 'batch' && faults.has('webhook-batch-no-sca-event'));
  const request = { ...asked, statuses: statusesWithSca(asked.statuses, asked.sca && !ignored) };
  const id = randomUUID();
  const createdAtMs = clock.now();
  const createdAt = clock.date();
  const createdDate = createdAt.toISOString();
  const timers: Timer[] = [];
  let created!: () => void;
  const allCreated = new Promise<void>(resolve => { created = resolve; });
  // `webhook-events-reordered`: the last two statuses go out swapped (spec 3.1's order broken, 6.8), each dated as planned.
  const order = request.statuses.map((_, i) => i);
  const n = order.length;
  if (faults.has('webhook-events-reordered') && n >= 3) [order[n - 2], order[n - 1]] = [order[n - 1], order[n - 2]];
  const emit = (made: number) => {
    const event = order[made];
    const status = request.statuses[event];
    const body = buildWebhookBody({
      kind: request.kind, id, status,
      ...(request.payments !== undefined ? { payments: request.payments } : {}),
      // bodies.ts keeps abortReason only on a status where spec 2.4 allows it.
      ...(request.abortReason ? { abortReason: request.abortReason } : {}),
      ...(request.scheduledDate ? { scheduledDate: request.scheduledDate } : {}),
      ...(request.referenceId ? { referenceId: request.referenceId } : {}),
      ...(request.endToEndId ? { endToEndId: request.endToEndId } : {}),
      // `webhook-transaction-status-stale`: the payment's status stays STARTED whatever the checkout's (spec 3.2).
      ...(faults.has('webhook-transaction-status-stale') ? { transactionStatus: 'STARTED' } : {}),
      extraFields: faults.has('extra-fields'),
      createdDate,
      lastModifiedDate: new Date(createdAt.getTime() + event * STATUS_STEP_MS).toISOString(),
    });
    bentAmounts(body, faults);
    dispatcher.enqueue({ checkoutId: id, event, status, target: request.webhook, body: serialised(body, status, faults) });
    if (made === request.statuses.length - 1) created();
  };
  // Each status is scheduled only once the previous one was created: Node runs overdue timers of
  // different durations list by list, so timers set all at once could create event 3 before event 2.
  const next = (event: number) => {
    emit(event);
    if (event + 1 >= request.statuses.length) return;
    const due = createdAtMs + (event + 1) * STATUS_STEP_MS;
    timers.push(clock.after(Math.max(0, due - clock.now()), () => next(event + 1)));
  };
  // STARTED is created with the checkout, so it is queued before the 201 goes out.
  next(0);
  return { id, request, createdAtMs, allCreated, cancel: () => { timers.forEach(t => t.cancel()); created(); } };
}
