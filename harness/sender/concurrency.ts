// receiver.concurrency: many checkouts delivered in parallel, each checkout's
// events in order (what the service does, spec 6.8 and 6.9).
// Spec 6.9: "Events of different payments are delivered in parallel; the
// receiver must expect concurrent requests."
import type { CheckDef } from '../report/check.ts';
import { answerOf, every, result, timed } from './check.ts';
import type { Ctx } from './context.ts';
import { describeLimit, fmtMs, RESPONSE_WAIT_SPEC_MS } from './options.ts';
import { BURST_SEQUENCE, eventBody } from './plan.ts';
import { readState } from './state.ts';
import type { Delivery } from './transport.ts';

export const CONCURRENCY = {
  allSuccess: {
    id: 'receiver.concurrency.all-success', requirements: ['R6.9-receiver-concurrent'], title: 'Deliveries of many checkouts in parallel all get 200', spec: '6.9',
    quote: 'Events of different payments are delivered in parallel; the receiver must expect concurrent requests.',
  },
  withinLimit: {
    id: 'receiver.concurrency.within-limit', requirements: ['R6.6-receiver-within-5s', 'R6.9-receiver-concurrent'], title: 'Deliveries of many checkouts in parallel are all answered within 5 s', spec: '6.6',
    quote: 'The service waits 5 seconds in total for a response.',
  },
  // Judged on the burst's checkouts, so it runs here; its id names what it shows.
  stateAfterBurst: {
    id: 'receiver.idempotency.state-after-burst', requirements: ['R6.9-receiver-concurrent'], title: "After a burst the receiver's state of every checkout is its last status", spec: '6.8',
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

/** One checkout's events, each sent once the previous one was answered. */
async function sequence(ctx: Ctx, id: string, bodies: Record<string, unknown>[], startMs: number): Promise<Delivery[]> {
  await new Promise(r => setTimeout(r, startMs));
  const out: Delivery[] = [];
  for (const [i, status] of BURST_SEQUENCE.entries()) out.push(await ctx.t.post(bodies[i], { kind: 'burst', label: `burst checkout ${id} ${status}` }));
  return out;
}

/**
 * `alone` are the valid normal deliveries sent before, outside any burst: when they
 * already took longer than the limit, the receiver is slow, not overwhelmed,
 * and receiver.latency reports it.
 */
export async function runConcurrency(ctx: Ctx, alone: readonly Delivery[]): Promise<Delivery[]> {
  const n = ctx.opts.concurrency;
  const ids = Array.from({ length: n }, () => ctx.ids.next('burst'));
  // Bodies are built before the burst starts so the sender's own work does not count as the receiver's latency.
  const bodies = ids.map(id => BURST_SEQUENCE.map((status, i) => eventBody(id, status, 'normal', i)));
  const t0 = performance.now();
  const burst = (await Promise.all(ids.map((id, i) => sequence(ctx, id, bodies[i], i * RAMP_STEP_MS)))).flat();
  const wallMs = performance.now() - t0;
  // A receiver that fell behind may still be working through abandoned
  // requests; the service would wait its minimum retry delay (spec 6.5) before
  // sending again, and so does the sender, so later prefixes judge a settled receiver.
  if (burst.some(d => d.status === undefined)) await new Promise(r => setTimeout(r, ctx.t.timing.pauseMs));
  const { limitMs, toleranceMs, scale } = ctx.t.timing;
  const what = `${n} checkouts in parallel, ${BURST_SEQUENCE.length} events each in order, ${burst.length} deliveries in ${fmtMs(wallMs)} ms`;

  // Both burst checks last as long as the burst did.
  const o = every(burst, ctx.success.ok, `${ctx.success.code} to every delivery of the burst`, ctx.success.note);
  ctx.emit(result(CONCURRENCY.allSuccess, { ...o, message: `${what}: ${o.message}` }, wallMs));

  // Spec 6.6: "The service waits 5 seconds in total for a response."
  ctx.emit(result(CONCURRENCY.withinLimit, (() => {
    const limit = describeLimit(RESPONSE_WAIT_SPEC_MS, scale);
    const slowAlone = alone.filter(d => d.ms > limitMs + toleranceMs);
    if (slowAlone.length)
      return { status: 'skipped' as const, message: `not judged: ${slowAlone.length} deliveries sent outside a burst already took longer than ${limit} (first: ${answerOf(slowAlone[0])}); receiver.latency reports that` };
    const w = every(burst, d => d.ms <= limitMs + toleranceMs, `answered within ${limit}, tolerance ${fmtMs(toleranceMs)} ms`);
    return { ...w, message: `${what}: ${w.message}` };
  })(), wallMs));

  const stateDef = CONCURRENCY.stateAfterBurst;
  if (!ctx.opts.stateUrl) {
    ctx.emit(await timed(stateDef, () => ({ status: 'skipped', message: "needs --state-url to read the receiver's state of a checkout", remedy: 'give --state-url' })));
    return burst;
  }
  const template = ctx.opts.stateUrl;
  ctx.emit(await timed(stateDef, async () => {
    const last = BURST_SEQUENCE[BURST_SEQUENCE.length - 1];
    if (burst.some(d => d.status !== ctx.success.code))
      return { status: 'skipped', message: 'not judged: not every delivery of the burst got its success answer, which receiver.concurrency.all-success reports' };
    const reads = await Promise.all(ids.map(id => readState(ctx.t, template, id)));
    const wrong = reads.filter(r => r.status !== last);
    if (!wrong.length) return { status: 'passed', message: `all ${ids.length} checkouts are ${last}` };
    const seen = wrong.slice(0, 3).map(r => `${r.read.label}: ${r.status ?? r.problem}`).join('; ');
    return {
      status: 'failed', expected: `${last} for all ${ids.length} checkouts`, seen,
      message: `${wrong.length} of ${ids.length} checkouts are not ${last} after the burst: ${seen}`,
      evidence: wrong.slice(0, 5).map(r => r.read.evidence),
    };
  }));
  return burst;
}

