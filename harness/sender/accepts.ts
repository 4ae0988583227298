// receiver.accepts: the receiver answers 200 to every body the service may send,
// each in a checkout that goes through a path the service really sends.
// This prefix judges the status code only; how long answers took is
// receiver.latency's (so a slow receiver is reported once, under latency).
import type { CheckDef } from './check.ts';
import { every, result } from './check.ts';
import type { Ctx } from './context.ts';
import { ACCEPTS_PARALLEL } from './options.ts';
import type { PlannedCheckout } from './plan.ts';
import type { Delivery } from './transport.ts';

// Spec 6.4: "The receiver must answer each request with status code 200. Any
// other status code triggers another attempt to deliver the same event."
const CHECKS: Record<string, Omit<CheckDef, 'id'>> = {
  'normal-statuses': { title: 'A normal checkout body of every CheckoutStatus, with its transactionStatus, gets 200', spec: '6.4', level: 'must' },
  'batch-statuses': { title: 'A batch checkout body of every CheckoutStatus gets 200', spec: '6.4', level: 'must' },
  // Spec 2.4: abortReason "may be populated when status is TIMED_OUT, FAILED or CANCELLED".
  'abort-reasons': { title: 'A body with each abortReason gets 200', spec: '2.4', level: 'must' },
  // Spec 2.3: "Both appear; the builder must accept and tolerate either."
  'scheduled-date': { title: 'A body with the scheduledDate spelling gets 200', spec: '2.3', level: 'must' },
  'payment-scheduled-date': { title: 'A body with the paymentScheduledDate spelling gets 200', spec: '2.3', level: 'must' },
  // Spec 2.5: "An earlier form of the body omits id, ... Receivers should accept it."
  'older-variant': { title: 'The older webhook variant gets 200', spec: '2.5', level: 'should' },
  // Spec 6.4 again: each request, so also a body with fields added after the receiver was written.
  'unknown-fields': { title: 'A body with unknown extra fields gets 200', spec: '6.4', level: 'must' },
};

/** Runs `fn` over the items, at most `parallel` at a time, results in item order. */
async function pool<T, R>(items: readonly T[], parallel: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => { while (next < items.length) { const i = next++; out[i] = await fn(items[i]); } };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return out;
}

/** One checkout's events in order, each once the previous one was answered (spec 6.8). */
async function deliver(ctx: Ctx, c: PlannedCheckout): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (const [i, e] of c.events.entries())
    out.push(await ctx.t.post(e.body, { kind: c.kind, label: `${c.label}: event ${i + 1} of ${c.events.length}, ${e.status}` }));
  return out;
}

/**
 * Sends every checkout (ACCEPTS_PARALLEL at a time), then emits one check per
 * group (its duration: the sum of its exchanges); a delivery that got no answer
 * within the wait is receiver.latency's when that happens here (see
 * successFrom). Returns every delivery in plan order.
 */
export async function runAccepts(ctx: Ctx, groups: Record<string, PlannedCheckout[]>): Promise<Delivery[]> {
  const flat = Object.entries(groups).flatMap(([name, checkouts]) => checkouts.map(c => ({ name, c })));
  const sent = await pool(flat, ACCEPTS_PARALLEL, ({ c }) => deliver(ctx, c));
  const all = sent.flat();
  const excuse = all.some(d => d.timedOut);
  const refusedKey = all.length > 0 && all.every(d => d.status === 401 || d.status === 403);
  const note = (excuse ? ' (deliveries without an answer within the wait are judged by receiver.latency)' : '')
    // Most likely a wrong --api-key rather than a receiver fault; the checks still fail, but say so.
    + (refusedKey ? ` (every delivery was refused with ${all[0].status}: check that --api-key is the key registered for this receiver)` : '');
  for (const name of Object.keys(groups)) {
    const def = { id: `receiver.accepts.${name}`, ...CHECKS[name] };
    const mine = sent.filter((_, i) => flat[i].name === name).flat();
    ctx.emit(result(def, every(mine, d => d.status === 200 || (excuse && d.timedOut), 'exactly 200', note), mine.reduce((n, d) => n + d.ms, 0)));
  }
  return all;
}
