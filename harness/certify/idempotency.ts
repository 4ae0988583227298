// receiver.idempotency: the same event delivered again gets the same success.
// Spec 6.3: "Delivery is at least once. The receiver must expect duplicates."
// Spec 6.4: "The receiver must answer each request with status code 200."
import type { CheckDef } from '../check/def.ts';
import { answerOf, every, notSentOutcome, timed } from './check.ts';
import { failed, notRun, passed, type Outcome } from '../check/outcome.ts';
import { budget, describeLimit, fmtMs } from './options.ts';
import { silence, type Ctx } from './context.ts';
import { DUPLICATE_SEQUENCE, eventBody, pathTo, type BodyKind } from './plan.ts';
import { NEEDS_STATE_URL, settledIn, settledStates, SETTLE_SPEC_MS } from './state.ts';
import { TRACKS_BY_ID, tracksById } from './tracking.ts';
import type { Delivery } from './transport.ts';

const def = (name: string, title: string): CheckDef => ({
  id: `receiver.idempotency.${name}`, requirements: ['R6.3-receiver-expects-duplicates'], title, spec: '6.3',
  quote: 'Delivery is at least once. The receiver must expect duplicates.',
});

export const IDEMPOTENCY = {
  twice: def('twice', 'The same event delivered twice gets 200 both times'),
  threeTimes: def('three-times', 'The same event delivered three times gets 200 every time'),
  // Spec 6.5: a retry comes at the earliest 10 s later, so a real duplicate often arrives after a pause.
  afterPause: def('after-pause', 'The same event delivered again after the minimum retry delay gets 200'),
  stateAfterDuplicates: def('state-after-duplicates', "After duplicated events the receiver's state is the last status"),
};

/**
 * Sends `steps` in order, each once the one before succeeded. Returns the
 * deliveries, or why the check cannot be judged: a step that did not get the
 * receiver's success (receiver.accepts or receiver.latency has that finding)
 * or a pause the time budget does not allow.
 */
async function inOrder(ctx: Ctx, kind: BodyKind,
  steps: { body: Record<string, unknown>; label: string; pauseMs?: number; judged?: boolean; copy?: boolean }[]): Promise<Delivery[] | Outcome> {
  if (ctx.success.refused) return notRun(ctx.success.refused);
  const out: Delivery[] = [];
  for (const s of steps) {
    if (s.pauseMs) {
      if (!ctx.t.allows(s.pauseMs))
        return notRun(`not judged: the pause of ${fmtMs(s.pauseMs)} ms before ${s.label} would outlast ${budget(ctx.opts).text}`, 'raise --max-duration');
      await ctx.t.pause(s.pauseMs, `the minimum retry delay of spec 6.5, before ${s.label}`);
    }
    const d = await ctx.t.post(s.body, { kind, label: s.label });
    out.push(d);
    if (s.judged) continue;
    if (d.notSent) return notSentOutcome(d);
    const owner = d.status === undefined && d.timedOut ? 'receiver.latency' : s.copy ? 'receiver.idempotency.twice and three-times' : 'receiver.accepts';
    if (!ctx.success.ok(d)) return notRun(`not judged: ${d.label} got ${answerOf(d)}, which ${owner} reports`);
  }
  return out;
}

/**
 * A fresh checkout goes through the path to `status` (spec 3.1), whose last
 * event is then delivered `times` times in all, the copies `pauseMs` apart.
 * The copies are judged only when the original and the events before it
 * succeeded: a body the receiver refuses in the first place is
 * receiver.accepts' finding, a slow one receiver.latency's.
 */
async function duplicated(ctx: Ctx, kind: 'normal' | 'batch', status: string, times: number, pauseMs = 0): Promise<Outcome> {
  const c = ctx.ids.checkout(`dup-${times}`);
  const id = c.id;
  const path = pathTo(status);
  // Built once: every copy is the same bytes, as the service's retries are.
  const body = eventBody(c, status, kind, path.length - 1);
  const sent = await inOrder(ctx, kind, [
    ...path.slice(0, -1).map((s, i) => ({ body: eventBody(c, s, kind, i), label: `${kind} ${id} ${s}` })),
    ...Array.from({ length: times }, (_, i) => ({ body, label: `${kind} ${id} ${status}, delivery ${i + 1} of ${times}`,
      pauseMs: i ? pauseMs : 0, judged: i > 0 })),
  ]);
  if (!Array.isArray(sent)) return sent;
  const original = sent[path.length - 1];
  const o = every(sent.slice(path.length), { ok: ctx.success.ok, expected: `${ctx.success.code} to every duplicate, as to the original`,
    note: ctx.success.note, unanswered: ctx.success.unanswered });
  // The original's exchange beside the refused duplicates shows the same body answered two ways.
  return o.status === 'failed' ? { ...o, evidence: [original.evidence, ...(o.evidence ?? [])] } : o;
}

/**
 * The checks run side by side (each on its own checkout, as the service would
 * deliver them), so a receiver that takes seconds per answer costs the longest
 * check rather than their sum; results are emitted in a fixed order.
 */
export async function runIdempotency(ctx: Ctx): Promise<void> {
  const quiet = silence(ctx);
  const checks: [CheckDef, () => Promise<Outcome> | Outcome][] = [
    [IDEMPOTENCY.twice, () => quiet ? notRun(quiet) : duplicated(ctx, 'normal', 'PAYMENT_INITIATED', 2)],
    [IDEMPOTENCY.threeTimes, () => quiet ? notRun(quiet) : duplicated(ctx, 'batch', 'PAYMENT_COMPLETED', 3)],
    [IDEMPOTENCY.afterPause, () => quiet ? notRun(quiet) : duplicated(ctx, 'normal', 'PAYMENT_COMPLETED', 2, ctx.t.timing.pauseMs)],
    [IDEMPOTENCY.stateAfterDuplicates, () => quiet && ctx.opts.stateUrl ? notRun(quiet) : stateAfterDuplicates(ctx)],
    [TRACKS_BY_ID, () => quiet && ctx.opts.stateUrl ? notRun(quiet) : tracksById(ctx)],
  ];
  const judged = await Promise.all(checks.map(([, body]) => timed(body)));
  checks.forEach(([def], i) => ctx.emit(def, ...judged[i]));
}

async function stateAfterDuplicates(ctx: Ctx): Promise<Outcome> {
  const template = ctx.opts.stateUrl;
  if (!template) return NEEDS_STATE_URL;
  const c = ctx.ids.checkout('dup-state');
  const id = c.id;
  const sent = await inOrder(ctx, 'normal', DUPLICATE_SEQUENCE.flatMap((e, i) => {
    const body = eventBody(c, e.status, 'normal', i);
    return Array.from({ length: e.times }, (_, k) => ({ body, label: `normal ${id} ${e.status}, delivery ${k + 1} of ${e.times}`, copy: k > 0 }));
  }));
  if (!Array.isArray(sent)) return sent;
  const last = DUPLICATE_SEQUENCE[DUPLICATE_SEQUENCE.length - 1].status;
  const [s] = await settledStates(ctx.t, template, [id], r => r.status === last, ctx.t.timing.clock.toReal(SETTLE_SPEC_MS));
  const seq = DUPLICATE_SEQUENCE.map(e => `${e.status} x${e.times}`).join(', ');
  if (s.status === last) return passed(`after ${seq} the state is ${last} (${settledIn(s)})`);
  return failed(`after ${seq} the receiver's state should be ${last}, seen ${s.status ?? s.problem} (${settledIn(s)})`,
    `${last} within ${describeLimit(SETTLE_SPEC_MS, ctx.t.timing.clock)} of the last answer`, `${s.status ?? s.problem ?? 'nothing'} (${settledIn(s)})`,
    [{ ...s.read.evidence, primary: true }, ...sent.map(d => d.evidence)]);
}
