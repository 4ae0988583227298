// receiver.idempotency.tracks-by-id: spec 2.2, `id` is "Unique per checkout.
// Used to track updates per checkout", while referenceId is the merchant's
// "Customer reference given in the checkout request", which the spec does not
// call unique. One order paid in two attempts gives two checkouts with one
// referenceId: the first fails, the second completes, and each keeps its own
// state. Registered at should: a merchant that gives every checkout its own
// referenceId never meets two that share one.
import type { CheckDef } from '../check/def.ts';
import { answerOf, notSentOutcome } from './check.ts';
import { failed, notRun, passed, type Outcome } from '../check/outcome.ts';
import type { Ctx } from './context.ts';
import { eventBody } from './plan.ts';
import { NEEDS_STATE_URL, settledIn, settledStates, SETTLE_SPEC_MS } from './state.ts';
import type { Delivery } from './transport.ts';

export const TRACKS_BY_ID: CheckDef = {
  id: 'receiver.idempotency.tracks-by-id', requirements: ['R2.2-receiver-tracks-by-id'], spec: '2.2',
  title: 'Two checkouts that share a referenceId are tracked apart, by id',
  quote: 'id | string | Identifier returned when the checkout was created through the checkout-request endpoint. Unique per checkout. ' +
    'Used to track updates per checkout.',
};

/** The two attempts: the first fails, the second completes; their events in the order the service sends them. */
const ATTEMPTS = [['STARTED', 'FAILED'], ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED']] as const;

export async function tracksById(ctx: Ctx): Promise<Outcome> {
  const template = ctx.opts.stateUrl;
  if (!template) return NEEDS_STATE_URL;
  if (ctx.success.refused) return notRun(ctx.success.refused);
  const first = ctx.ids.checkout('attempt');
  const second = { ...ctx.ids.checkout('attempt'), createdMs: first.createdMs + 30_000 };
  const referenceId = `order-${first.id}`;
  const sent: Delivery[] = [];
  for (const [c, statuses] of [[first, ATTEMPTS[0]], [second, ATTEMPTS[1]]] as const) {
    for (const [i, status] of statuses.entries()) {
      const d = await ctx.t.post(eventBody(c, status, 'normal', i, { referenceId }),
        { kind: 'normal', label: `normal ${c.id} ${status} (referenceId ${referenceId})` });
      sent.push(d);
      if (d.notSent) return notSentOutcome(d);
      if (d.status === undefined && d.timedOut) return notRun(`not judged: ${d.label} got ${answerOf(d)}, which receiver.latency reports`);
      if (!ctx.success.ok(d)) {
        return failed(`the receiver refused an event of the second checkout of one referenceId: ${d.label}: ${answerOf(d)}${ctx.success.note}`,
          `${ctx.success.code} to every event of both checkouts`, `${d.label}: ${answerOf(d)}`,
          [{ ...d.evidence, primary: true }, ...sent.slice(0, -1).map(x => x.evidence)]);
      }
    }
  }
  const want = [ATTEMPTS[0].at(-1)!, ATTEMPTS[1].at(-1)!];
  const ids = [first.id, second.id];
  const reads = await settledStates(ctx.t, template, ids, (r, i) => r.status === want[i], ctx.t.timing.clock.toReal(SETTLE_SPEC_MS));
  const wrong = reads.flatMap((r, i) => (r.status === want[i] ? [] : [{ r, i }]));
  const what = `two checkouts with referenceId ${referenceId}, ${ATTEMPTS.map(a => a.join(' > ')).join(', then ')}`;
  if (!wrong.length) return passed(`${what}: the first is ${want[0]}, the second ${want[1]}`);
  const seen = wrong.map(({ r, i }) => `checkout ${i + 1}: ${r.status ?? r.problem} (${settledIn(r)})`).join('; ');
  return failed(`${what}: the state should follow each checkout by its id, seen ${seen}`, `checkout 1 ${want[0]}, checkout 2 ${want[1]}`, seen,
    [...wrong.map(({ r }, k) => (k ? r.read.evidence : { ...r.read.evidence, primary: true })), ...sent.map(d => d.evidence)]);
}
