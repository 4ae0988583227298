// receiver.accepts: the receiver answers 200 to every body the service may send,
// each in a checkout that goes through a path the service really sends.
// This prefix judges the status code only; how long answers took is
// receiver.latency's (so a slow receiver is reported once, under latency).
import type { CheckDef } from '../report/check.ts';
import { every, result } from './check.ts';
import type { Ctx } from './context.ts';
import { ACCEPTS_PARALLEL } from './options.ts';
import type { PlannedCheckout } from './plan.ts';
import type { Delivery } from './transport.ts';

const ANSWER_200 = 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.';
const SCHEDULED = 'The scheduled date field is named scheduledDate in the field definitions and paymentScheduledDate in the batch body shape. Both appear; the builder must accept and tolerate either.';
const accepts = (name: string, title: string, spec: string, quote: string, requirements: string[]): CheckDef => ({ id: `receiver.accepts.${name}`, requirements, title, spec, quote });
const TOLERANT = 'P-webhook-receiver-tolerant';

/** One check per group of acceptsPlan (plan.ts), by group name. */
export const ACCEPTS = {
  'normal-statuses': accepts('normal-statuses', 'A normal checkout body of every CheckoutStatus, with its transactionStatus, gets 200', '6.4', ANSWER_200, ['R6.4-receiver-answers-200']),
  'batch-statuses': accepts('batch-statuses', 'A batch checkout body of every CheckoutStatus gets 200', '6.4', ANSWER_200, ['R6.4-receiver-answers-200']),
  'abort-reasons': accepts('abort-reasons', 'A body with each abortReason gets 200', '2.4',
    'May be populated when status is TIMED_OUT, FAILED or CANCELLED and the end user attempted a payment but did not finish the checkout.', ['R6.4-receiver-answers-200']),
  'scheduled-date': accepts('scheduled-date', 'A body with the scheduledDate spelling gets 200', '2.3', SCHEDULED, ['R2.3-either-date-spelling', TOLERANT]),
  'payment-scheduled-date': accepts('payment-scheduled-date', 'A body with the paymentScheduledDate spelling gets 200', '2.3', SCHEDULED, ['R2.3-either-date-spelling', TOLERANT]),
  'older-variant': accepts('older-variant', 'The older webhook variant gets 200', '2.5',
    'An earlier form of the body omits id, endToEndId, abortReason and transactionStatus ... Receivers should accept it.', ['R2.5-receiver-accepts-older', TOLERANT]),
  // Each request, so also a body with fields added after the receiver was written.
  'unknown-fields': accepts('unknown-fields', 'A body with unknown extra fields gets 200', '6.4', ANSWER_200, ['R6.4-receiver-answers-200', TOLERANT]),
} satisfies Record<string, CheckDef>;

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
    const def: CheckDef = ACCEPTS[name as keyof typeof ACCEPTS];
    const mine = sent.filter((_, i) => flat[i].name === name).flat();
    ctx.emit(result(def, every(mine, d => d.status === 200 || (excuse && d.timedOut), 'exactly 200', note), mine.reduce((n, d) => n + d.ms, 0)));
  }
  return all;
}
