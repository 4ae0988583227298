// receiver.robustness: garbage does not take the receiver down, and is refused.
// Runs last: a receiver that dies here would otherwise fail every later check.
// Spec 6.4: "The receiver must answer each request with status code 200" - the
// valid delivery after the garbage is such a request (`must`). Refusing garbage
// with a 4xx is advice (`should`): the spec says nothing about bodies it does
// not define, but a 200 to garbage means the receiver did not look at the body.
import type { CheckDef } from '../check/def.ts';
import { answerOf, notSentOutcome } from './check.ts';
import { failed, notRun, passed, type Outcome } from '../check/outcome.ts';
import { settledSlow, VALID_KINDS, type Ctx } from './context.ts';
import { freshBody, GARBAGE, type Garbage } from './plan.ts';
import type { Delivery } from './transport.ts';

// Arbitrary size for the large body: twice the 1 MB most frameworks default
// to (express.json, fastify), so a receiver with a default limit refuses it.
const LARGE_BODY_BYTES = 2 * 1024 * 1024;

const SHAPES: Record<Garbage, { title: string; raw: () => string; contentType: string }> = {
  'malformed-json': { title: 'malformed JSON', raw: () => '{"id": "cr-broken", "status": "STARTED",', contentType: 'application/json' },
  'empty-body': { title: 'an empty body', raw: () => '', contentType: 'application/json' },
  'wrong-content-type': { title: 'a body of the wrong content type', raw: () => '<checkout><status>STARTED</status></checkout>',
    contentType: 'application/xml' },
  'large-body': { title: 'a 2 MB body', contentType: 'application/json',
    raw: () => `[${Array.from({ length: LARGE_BODY_BYTES / 8 }, () => '1234567').join(',')}]` },
};

const ANSWER_200 = 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.';

/** Two checks per kind of garbage: the receiver keeps working after it (must), and refuses it (should). */
export const ROBUSTNESS = Object.fromEntries(GARBAGE.map(g => {
  const shape = SHAPES[g].title;
  // The valid delivery after garbage is a request to answer 200 (spec 6.4); garbage itself is no webhook body (4.3).
  const def = (name: string, title: string): CheckDef => ({ id: `receiver.robustness.${g}.${name}`,
    requirements: [name === 'keeps-working' ? 'R6.4-receiver-answers-200' : 'R4.3-receiver-body-is-webhook'], title, spec: '6.4', quote: ANSWER_200 });
  return [g, {
    keeps: def('keeps-working', `After ${shape} the next valid delivery still gets 200`),
    refused: def('refused', `${shape[0].toUpperCase()}${shape.slice(1)} is refused with a 4xx`),
  }];
})) as Record<Garbage, { keeps: CheckDef; refused: CheckDef }>;

/** Emitted instead of the robustness checks when the receiver stopped accepting connections before them. */
export const STAYS_UP: CheckDef = {
  id: 'receiver.robustness.stays-up', requirements: ['R6.4-receiver-answers-200'],
  title: 'The receiver keeps accepting connections for the whole run', spec: '6.4', quote: ANSWER_200,
};

/** Emits both checks of one garbage not-run with one reason. */
function skipBoth(ctx: Ctx, g: Garbage, why: string): void {
  ctx.emit(ROBUSTNESS[g].keeps, notRun(why));
  ctx.emit(ROBUSTNESS[g].refused, notRun(why));
}

/** Whether the valid delivery after the garbage got the receiver's success (must). */
function keepsWorking(ctx: Ctx, title: string, garbage: Delivery, next: Delivery): Outcome {
  if (next.notSent) return notSentOutcome(next);
  if (ctx.success.ok(next)) return passed(`after ${title} (${answerOf(garbage)}), the next delivery got ${answerOf(next)}`);
  if (next.status === undefined && next.timedOut && typeof ctx.success.unanswered === 'object')
    return notRun(`not judged: the valid delivery after ${title} got no answer within the wait, ${ctx.success.unanswered.notRun}`);
  return failed(`after ${title} (answered: ${answerOf(garbage)}) the next valid delivery got ${answerOf(next)}${ctx.success.note}`,
    `${ctx.success.code} to the valid delivery after ${title}`, answerOf(next), [garbage.evidence, { ...next.evidence, primary: true }]);
}

/** Whether the garbage itself was refused with a 4xx (should). */
function refused(ctx: Ctx, g: Garbage, title: string, garbage: Delivery): Outcome {
  if (garbage.notSent) return notSentOutcome(garbage);
  // A receiver that hangs up on an oversized upload refuses it too.
  const hungUp = g === 'large-body' && garbage.status === undefined && /closed the connection/.test(garbage.error ?? '');
  if ((garbage.status !== undefined && garbage.status >= 400 && garbage.status < 500) || hungUp)
    return passed(`refused: ${answerOf(garbage)}`);
  if (garbage.status === undefined && garbage.timedOut && typeof ctx.success.unanswered === 'object')
    return notRun(`not judged: ${title} got no answer within the wait, ${ctx.success.unanswered.notRun}`);
  return failed(`${title} got ${answerOf(garbage)} instead of a 4xx`, 'a 4xx answer (400, 413, 415 or 422 are usual)', answerOf(garbage),
    [{ ...garbage.evidence, primary: true }]);
}

/**
 * Each garbage, then a valid delivery, one after the other so a crash is
 * blamed on the garbage that caused it. Not sent at all when the receiver
 * answered no valid delivery within the wait or gave none a 2xx: whether it
 * "keeps" working could not be told.
 */
export async function runRobustness(ctx: Ctx): Promise<Delivery[]> {
  const answeredOnce = ctx.t.log.some(d => VALID_KINDS.has(d.kind) && ctx.success.ok(d));
  const skipAll = ctx.success.refused ?? (answeredOnce ? undefined
    : 'not sent: the receiver answered no valid delivery within the wait, which receiver.latency reports; ' +
      'whether it keeps working after garbage could not be told');
  // Once the receiver is slow for sure, a valid delivery after the garbage could cost the whole wait and
  // not change the verdict: the garbage goes out (refused is judged), the delivery after it does not.
  const settled = settledSlow(ctx);
  const after: Delivery[] = [];
  let downAfter: string | undefined;
  for (const g of GARBAGE) {
    const shape = SHAPES[g];
    // Blaming this garbage for an earlier crash would mislead; the check that saw the crash failed already.
    const why = skipAll ?? (downAfter && `not judged: the receiver stopped accepting connections after ${downAfter}`);
    if (why) { skipBoth(ctx, g, why); continue; }
    const raw = shape.raw();
    const t0 = performance.now();
    const garbage = await ctx.t.post(undefined, { kind: 'garbage', label: `${shape.title} (${raw.length} bytes, ${shape.contentType})`, raw,
      contentType: shape.contentType });
    const label = `a valid delivery right after ${shape.title}`;
    const next = settled ? ctx.t.skip('normal', label, settled) : await ctx.t.post(freshBody(ctx.ids), { kind: 'normal', label });
    const took = performance.now() - t0;
    after.push(next);
    if (next.status === undefined && /connection refused/.test(next.error ?? '')) downAfter = shape.title;
    ctx.emit(ROBUSTNESS[g].keeps, keepsWorking(ctx, shape.title, garbage, next), took);
    ctx.emit(ROBUSTNESS[g].refused, refused(ctx, g, shape.title, garbage), garbage.ms);
  }
  return after;
}
