// receiver.concurrency: many checkouts delivered in parallel, each checkout's
// events in order (what the service does, spec 6.8 and 6.9).
// Spec 6.9: "Events of different payments are delivered in parallel; the
// receiver must expect concurrent requests."
import type { CheckDef } from '../check/def.ts';
import { answerOf, every, timed, withinLimit } from './check.ts';
import { failed, notRun, passed } from '../check/outcome.ts';
import { settledSlow, slowDelivery, type Ctx } from './context.ts';
import { describeLimit, fmtMs, RESPONSE_WAIT_SPEC_MS } from './options.ts';
import { BURST_SEQUENCE, eventBody } from './plan.ts';
import { NEEDS_STATE_URL, settledIn, settledStates, SETTLE_SPEC_MS } from './state.ts';
import type { Delivery } from './transport.ts';

export const CONCURRENCY = {
  allSuccess: {
    id: 'receiver.concurrency.all-success', requirements: ['R6.9-receiver-concurrent'],
    title: 'Deliveries of many checkouts in parallel all get 200', spec: '6.9',
    quote: 'Events of different payments are delivered in parallel; the receiver must expect concurrent requests.',
  },
  withinLimit: {
    id: 'receiver.concurrency.within-limit', requirements: ['R6.6-receiver-within-5s', 'R6.9-receiver-concurrent'],
    title: 'Deliveries of many checkouts in parallel are all answered within 5 s', spec: '6.6',
    quote: 'The service waits 5 seconds in total for a response.',
  },
  // Judged on the burst's checkouts, so it runs here; its id names what it shows.
  stateAfterBurst: {
    id: 'receiver.idempotency.state-after-burst', requirements: ['R6.9-receiver-concurrent'],
    title: "After a burst the receiver's state of every checkout is its last status", spec: '6.8',
    quote: 'Events of a single payment are delivered in order: an event is not delivered until the previous one is acknowledged.',
  },
} satisfies Record<string, CheckDef>;

// Checkout i of a burst starts i x 5 ms after the first (arbitrary, real ms at
// any time scale): 50 checkouts start within 250 ms. Events of real checkouts
// never share a microsecond, and a start with no spread at all measured the
// kernel's listen backlog rather than the receiver (Python's http.server
// listens with a backlog of 5; the dropped connections came back 1 s and 3 s
// later as SYN retries).
const RAMP_STEP_MS = 5;

/** One checkout's events, each sent once the previous one was answered; after one without an answer the service would not send the next. */
async function sequence(ctx: Ctx, id: string, bodies: string[], startMs: number): Promise<Delivery[]> {
  await ctx.t.pause(startMs);
  const out: Delivery[] = [];
  for (const [i, status] of BURST_SEQUENCE.entries()) {
    const label = `burst checkout ${id} ${status}`;
    out.push(out.some(d => d.status === undefined) ? ctx.t.skip('burst', label, 'the event before it got no answer (spec 6.8)')
      : await ctx.t.post(undefined, { kind: 'burst', label, raw: bodies[i] }));
  }
  return out;
}

/** Emits the three burst checks not-run with one reason, nothing sent. */
function notSent(ctx: Ctx, why: string): void {
  for (const def of [CONCURRENCY.allSuccess, CONCURRENCY.withinLimit, CONCURRENCY.stateAfterBurst]) ctx.emit(def, notRun(why));
}

/**
 * Sends the burst and judges it. When the receiver is slow for sure without
 * any burst (settledSlow), a burst could only repeat that: none is sent. When
 * some valid delivery outside a burst was already too slow, the burst's time
 * is not judged either: the receiver is slow, not overwhelmed, and
 * receiver.latency reports it.
 */
export async function runConcurrency(ctx: Ctx): Promise<Delivery[]> {
  const settled = settledSlow(ctx);
  if (settled) { notSent(ctx, `not sent: ${settled}`); return []; }
  if (ctx.success.refused) { notSent(ctx, ctx.success.refused); return []; }
  const n = ctx.opts.concurrency;
  const checkouts = Array.from({ length: n }, () => ctx.ids.checkout('burst'));
  const ids = checkouts.map(c => c.id);
  // Bodies are built and serialised before the burst starts so the sender's own work does not count as the receiver's latency.
  const bodies = checkouts.map(c => BURST_SEQUENCE.map((status, i) => JSON.stringify(eventBody(c, status, 'normal', i))));
  const t0 = performance.now();
  const burst = (await Promise.all(ids.map((id, i) => sequence(ctx, id, bodies[i], i * RAMP_STEP_MS)))).flat();
  const wallMs = performance.now() - t0;
  // A receiver that fell behind may still be working through abandoned
  // requests; the service would wait its minimum retry delay (spec 6.5) before
  // sending again, and so does the sender, so later prefixes judge a settled receiver.
  if (burst.some(d => d.status === undefined && !d.notSent) && ctx.t.allows(ctx.t.timing.pauseMs)) {
    await ctx.t.pause(ctx.t.timing.pauseMs, 'the minimum retry delay of spec 6.5, so the receiver settles after the burst');
  }
  const { limitMs, toleranceMs, clock } = ctx.t.timing;
  const what = `${n} checkouts in parallel, ${BURST_SEQUENCE.length} events each in order, ` +
    `${burst.filter(d => !d.notSent).length} deliveries in ${fmtMs(wallMs)} ms`;
  const limit = describeLimit(RESPONSE_WAIT_SPEC_MS, clock);

  // Both burst checks last as long as the burst did. Codes here, time below:
  // a delivery without an answer is within-limit's finding.
  const o = every(burst, { ok: ctx.success.ok, expected: `${ctx.success.code} to every delivery of the burst`, note: ctx.success.note,
    unanswered: { notRun: 'which receiver.concurrency.within-limit reports' } });
  ctx.emit(CONCURRENCY.allSuccess, { ...o, message: `${what}: ${o.message}` }, wallMs);

  // Spec 6.6: "The service waits 5 seconds in total for a response."
  const slow = slowDelivery(ctx);
  const w = slow
    ? notRun(`not judged: a valid delivery outside any burst already took longer than ${limit} (${slow.label}: ${answerOf(slow)}), ` +
      'which receiver.latency reports')
    : every(burst.filter(d => d.status !== undefined || d.timedOut || d.notSent), { ok: d => d.ms <= limitMs + toleranceMs,
      expected: `answered within ${limit}, tolerance ${fmtMs(toleranceMs)} ms`, unanswered: 'fail',
      unsure: d => withinLimit(d, limitMs + toleranceMs) === 'unsure' });
  ctx.emit(CONCURRENCY.withinLimit, { ...w, message: `${what}: ${w.message}` }, wallMs);

  ctx.emit(CONCURRENCY.stateAfterBurst, ...await timed(async () => {
    const template = ctx.opts.stateUrl;
    if (!template) return NEEDS_STATE_URL;
    const last = BURST_SEQUENCE[BURST_SEQUENCE.length - 1];
    if (burst.some(d => !ctx.success.ok(d)))
      return notRun('not judged: not every delivery of the burst got its success answer, which receiver.concurrency.all-success and within-limit report');
    const reads = await settledStates(ctx.t, template, ids, r => r.status === last, clock.toReal(SETTLE_SPEC_MS));
    const wrong = reads.filter(r => r.status !== last);
    const slowest = reads.reduce((a, b) => (b.afterMs > a.afterMs ? b : a));
    if (!wrong.length) return passed(`all ${ids.length} checkouts are ${last} (the last ${settledIn(slowest)})`);
    const seen = wrong.slice(0, 3).map(r => `${r.read.label}: ${r.status ?? r.problem} (${settledIn(r)})`).join('; ');
    return failed(`${wrong.length} of ${ids.length} checkouts are not ${last} after the burst: ${seen}`,
      `${last} for all ${ids.length} checkouts within ${describeLimit(SETTLE_SPEC_MS, clock)} of the last answer`, seen,
      wrong.slice(0, 5).map((r, i) => (i ? r.read.evidence : { ...r.read.evidence, primary: true })));
  }));
  return burst;
}
