// receiver.idempotency: the same event delivered again gets the same success.
// Spec 6.3: "Delivery is at least once. The receiver must expect duplicates."
// Spec 6.4: "The receiver must answer each request with status code 200."
import type { CheckDef } from '../report/check.ts';
import { answerOf, every, timed, type Outcome } from './check.ts';
import type { Ctx } from './context.ts';
import { DUPLICATE_SEQUENCE, eventBody, pathTo, type BodyKind } from './plan.ts';
import { readState } from './state.ts';
import type { Delivery } from './transport.ts';

const def = (name: string, title: string): CheckDef => ({
  id: `receiver.idempotency.${name}`, requirements: ['R6.3-receiver-expects-duplicates'], title, spec: '6.3', quote: 'Delivery is at least once. The receiver must expect duplicates.',
});

export const IDEMPOTENCY = {
  twice: def('twice', 'The same event delivered twice gets 200 both times'),
  threeTimes: def('three-times', 'The same event delivered three times gets 200 every time'),
  // Spec 6.5: a retry comes at the earliest 10 s later, so a real duplicate often arrives after a pause.
  afterPause: def('after-pause', 'The same event delivered again after the minimum retry delay gets 200'),
  stateAfterDuplicates: def('state-after-duplicates', "After duplicated events the receiver's state is the last status"),
};

async function repeat(ctx: Ctx, body: Record<string, unknown>, kind: BodyKind, label: string, times: number, pauseMs = 0): Promise<Delivery[]> {
  const out: Delivery[] = [];
  for (let i = 0; i < times; i++) {
    if (i && pauseMs) await new Promise(r => setTimeout(r, pauseMs));
    out.push(await ctx.t.post(body, { kind, label: `${label}, delivery ${i + 1} of ${times}` }));
  }
  return out;
}

/**
 * A fresh checkout goes through the path to `status` (spec 3.1), whose last
 * event is then delivered `times` times in all. The duplicates are judged
 * only when the original and the events before it succeeded: a body the
 * receiver refuses in the first place is receiver.accepts' finding.
 */
async function duplicated(ctx: Ctx, kind: 'normal' | 'batch', status: string, times: number, pauseMs = 0): Promise<Outcome> {
  const id = ctx.ids.next(`dup-${times}`);
  const path = pathTo(status);
  const before: Delivery[] = [];
  for (const [i, s] of path.slice(0, -1).entries())
    before.push(await ctx.t.post(eventBody(id, s, kind, i), { kind, label: `${kind} ${id} ${s}` }));
  const sent = await repeat(ctx, eventBody(id, status, kind, path.length - 1), kind, `${kind} ${id} ${status}`, times, pauseMs);
  const first = [...before, sent[0]].find(d => !ctx.success.ok(d));
  if (first) return { status: 'skipped', message: `not judged: ${first.label} got ${answerOf(first)} before any duplicate was sent, which receiver.accepts covers` };
  const o = every(sent.slice(1), ctx.success.ok, `${ctx.success.code} to every duplicate, as to the original`, ctx.success.note);
  // The original's exchange beside the refused duplicates shows the same body answered two ways.
  return o.status === 'failed' ? { ...o, evidence: [sent[0].evidence, ...(o.evidence ?? [])] } : o;
}

/**
 * The checks run side by side (each on its own checkout, as the service would
 * deliver them), so a receiver that takes seconds per answer costs the longest
 * check rather than their sum; results are emitted in a fixed order.
 */
export async function runIdempotency(ctx: Ctx): Promise<void> {
  const checks = await Promise.all([
    timed(IDEMPOTENCY.twice, () => duplicated(ctx, 'normal', 'PAYMENT_INITIATED', 2)),
    timed(IDEMPOTENCY.threeTimes, () => duplicated(ctx, 'batch', 'PAYMENT_COMPLETED', 3)),
    timed(IDEMPOTENCY.afterPause, () => duplicated(ctx, 'normal', 'PAYMENT_COMPLETED', 2, ctx.t.timing.pauseMs)),
    stateAfterDuplicates(ctx, `${ctx.success.code} to the original and to every duplicate`),
  ]);
  for (const c of checks) ctx.emit(c);
}

function stateAfterDuplicates(ctx: Ctx, expected: string) {
  const stateDef = IDEMPOTENCY.stateAfterDuplicates;
  const template = ctx.opts.stateUrl;
  if (!template) return timed(stateDef, () => ({ status: 'skipped', message: "needs --state-url to read the receiver's state of a checkout", remedy: 'give --state-url' }));
  return timed(stateDef, async () => {
    const id = ctx.ids.next('dup-state');
    const sent: Delivery[] = [];
    for (const [i, e] of DUPLICATE_SEQUENCE.entries()) sent.push(...await repeat(ctx, eventBody(id, e.status, 'normal', i), 'normal', `normal ${id} ${e.status}`, e.times));
    const refused = every(sent, d => d.status === ctx.success.code, expected, ctx.success.note);
    if (refused.status === 'failed') return { ...refused, status: 'skipped' as const, message: `not judged, not every delivery succeeded: ${refused.message}` };
    const last = DUPLICATE_SEQUENCE[DUPLICATE_SEQUENCE.length - 1].status;
    const s = await readState(ctx.t, template, id);
    const seq = DUPLICATE_SEQUENCE.map(e => `${e.status} x${e.times}`).join(', ');
    if (s.status === last) return { status: 'passed', message: `after ${seq} the state is ${last}` };
    return {
      status: 'failed', expected: last, seen: s.status ?? s.problem ?? 'nothing',
      message: `after ${seq} the receiver's state should be ${last}, seen ${s.status ?? s.problem}`,
      evidence: [s.read.evidence, ...sent.map(d => d.evidence)],
    };
  });
}
