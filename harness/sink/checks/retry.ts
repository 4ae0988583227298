// webhook.retry: every failed answer is followed by a new attempt of the same event.
import { deliveries, verdict, type Finding } from './result.ts';
import { notRun, placed, type Outcome } from '../../check/outcome.ts';
import type { CheckDef } from '../../check/def.ts';
import { PlaceLedger } from '../../results/places.ts';
import type { AnswerClass } from '../../places/answer-classes.ts';
import { EVENT_POSITIONS } from '../../places/event-positions.ts';
import { nextOfEvent, positionOf, sec, strangersNaming, type AttemptView, type CheckoutView, type RunView } from './view.ts';

// Spec 6.4: "The receiver must answer each request with status code 200. Any
// other status code triggers another attempt to deliver the same event."
// Spec 7: "any response other than 200 ... is a failed delivery and leads to a retry."
// One check per kind of answer, so a sender that takes 2xx for success fails
// only `after-other-2xx`. Slow answers belong to webhook.timeout, not here.
// Each binds the answer classes it names (harness/places/answer-classes.ts):
// a sender that retries after 400 but takes 410 as "gone for good" fails at 410.
interface Case { info: CheckDef; probes: string[]; when?: (a: AttemptView) => boolean }
const CASES: Case[] = [
  { info: { id: 'webhook.retry.after-500', requirements: ['R6.4-non-200-retried'],
    title: 'A 500 or 503 answer is followed by another attempt of the same event', spec: '6.4',
    quote: 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.',
    bindsAt: { family: 'status-answer-class', only: ['500', '503'] } },
    probes: ['status-500', 'status-503'] },
  { info: { id: 'webhook.retry.after-other-2xx', requirements: ['R6.4-non-200-retried'],
    title: 'A 201 or 204 answer is not taken for delivery: another attempt follows', spec: '6.4',
    quote: 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.',
    bindsAt: { family: 'status-answer-class', only: ['201', '204'] } },
    probes: ['status-201', 'status-204'] },
  { info: { id: 'webhook.retry.after-3xx-4xx', requirements: ['R6.4-non-200-retried'],
    title: 'A 3xx or 4xx answer (302, 400, 401, 403, 404, 410, 413, 429 with and without Retry-After) is followed by another attempt', spec: '6.4',
    quote: 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.',
    // 413 is planned (answer-413), and also the sink's own answer to an oversized body.
    bindsAt: { family: 'status-answer-class', only: ['302', '400', '401', '403', '404', '410', '413', '429', '429 with Retry-After'] } },
    probes: ['status-302', 'status-400', 'status-401', 'status-403', 'status-404', 'status-410', 'status-413', 'status-429', 'status-429-retry-after',
      'too-large'] },
  // Spec 6.6: "Without a response in that time the event counts as not delivered
  // and is retried at the next backoff." Only attempts the sender itself gave up
  // on; one that waited and took a late answer fails webhook.timeout instead.
  { info: { id: 'webhook.retry.after-timeout', requirements: ['R6.6-no-answer-retried'],
    title: 'An attempt the sender gave up on after 5 s is followed by another attempt, at every event position', spec: '6.6',
    quote: 'Without a response in that time the event counts as not delivered and is retried at the next backoff.',
    bindsAt: { family: 'event-position' } },
    probes: ['slow-4s', 'slow-6s', 'slow-trickle'], when: a => a.d.answer === 'none' },
  { info: { id: 'webhook.retry.after-reset', requirements: ['R7-webhook-no-response-retried'],
    title: 'A connection reset without an answer is followed by another attempt', spec: '7',
    quote: 'Webhook: any response other than 200, or no response within 5 seconds, is a failed delivery and leads to a retry (section 6).',
    bindsAt: { family: 'answer-class', only: ['reset'] } },
    probes: ['reset'] },
];

/** Each retry check's definition with its judgement, for registration in index.ts. */
export const RETRY_CHECKS: readonly { def: CheckDef; judge(view: RunView): Outcome }[] =
  CASES.map(c => ({ def: c.info, judge: (view: RunView) => judgeRetry(view, c) }));

/** The answer class of a failed attempt (harness/places/answer-classes.ts). */
function answerClassOf(a: AttemptView): AnswerClass | undefined {
  const p = a.d.probe;
  if (p === 'status-429-retry-after') return '429 with Retry-After';
  if (p === 'too-large') return '413';
  if (p === 'reset') return 'reset';
  if ((p === 'slow-4s' || p === 'slow-6s' || p === 'slow-trickle') && a.d.answer === 'none') return 'timeout';
  return p.startsWith('status-') ? p.slice('status-'.length) as AnswerClass : undefined;
}

/**
 * How many times the sender's longest retry delay seen at a place in a run of
 * failures (the k-th attempt of an event failed) the sink must have watched on
 * without a retry before that retry is missing. Arbitrary: a sender's delays
 * for the same step vary with jitter (25 % upward is common, decorrelated
 * jitter draws up to 3 times the previous delay), so 3 times the longest seen.
 */
const OVERDUE_FACTOR = 3;

/** Spec ms: the longest delay before the retry after the k-th failed attempt of an event, over every event that had one. */
const longestAt = new WeakMap<RunView, Map<number, number>>();
function longestRetryAfter(view: RunView, k: number): number | undefined {
  let m = longestAt.get(view);
  if (!m) {
    m = new Map();
    for (const c of view.checkouts) for (const e of c.events) for (let i = 0; i + 1 < e.attempts.length; i++) {
      const a = e.attempts[i], b = e.attempts[i + 1];
      if (!a.delivered && b.arrived >= a.end) m.set(a.attempt, Math.max(m.get(a.attempt) ?? 0, b.arrived - a.end));
    }
    longestAt.set(view, m);
  }
  return m.get(k);
}

/**
 * Why a retry is missing: the sender went on to a later event of the checkout
 * without it, or it retried the same step of other events within a delay the
 * sink outwaited OVERDUE_FACTOR times. Undefined when neither holds.
 */
function missingBecause(view: RunView, c: CheckoutView, a: AttemptView): string | undefined {
  const later = c.events.slice(a.event + 1).find(e => e.attempts.some(x => x.arrived >= a.end));
  if (later) return `while the later event ${later.status} was sent`;
  const longest = longestRetryAfter(view, a.attempt);
  if (longest !== undefined && view.until - a.end >= OVERDUE_FACTOR * longest)
    return `while the sender retried after failed attempt ${a.attempt} of other events within ${sec(longest)} and the sink watched ` +
      `${sec(view.until - a.end)} on`;
  return undefined;
}

/**
 * How a failed attempt's follow-up went:
 * - retried: another attempt of the same event came;
 * - missing: none came within the run's retry wait, while the sender went on to
 *   a later event of the checkout or retried the same step of other events
 *   much sooner (missingBecause);
 * - waited: none came and neither holds: spec 6.5 sets a minimum delay and no
 *   maximum, so a sender with a longer backoff (60 s, 5 min ...) and one that
 *   gave up read alike: not judged;
 * - unknown: the sink stopped watching sooner than the retry wait;
 * - unkeyed: no retry with the key, but attempts without it named the checkout
 *   since (the retry may be among them: webhook.auth.api-key judges that).
 */
export function followUp(view: RunView, c: CheckoutView, a: AttemptView): 'retried' | 'missing' | 'waited' | 'unknown' | 'unkeyed' {
  if (nextOfEvent(c, a)) return 'retried';
  if (a.end + view.retryWait > view.until) return 'unknown';
  if (strangersNaming(view, c.id, a.end).length) return 'unkeyed';
  return missingBecause(view, c, a) ? 'missing' : 'waited';
}

/** Why a failed attempt without a retry or a later event is not judged: the figure and how to wait longer. */
function waitedText(n: number, of: number, view: RunView): string {
  return `${n} of ${of} failed attempts had no further attempt within ${sec(view.retryWait)} (the sink watched up to ` +
    `${sec(view.until)} into the run), no later event of their checkout came and the sender's other retries at that step were not much sooner: ` +
    'spec 6.5 sets a minimum retry delay and no maximum, ' +
    `so a longer backoff cannot be told from giving up; run with a longer --retry-wait (spec seconds) to wait for it`;
}

function judgeRetry(view: RunView, { info, probes, when }: Case): Outcome {
  const failed = view.checkouts.flatMap(c => c.attempts.filter(a => probes.includes(a.d.probe) && (when ? when(a) : a.d.answer !== 'none'))
    .map(a => ({ c, a })));
  if (!failed.length) return notRun(when ? 'the sender never gave up on an attempt, so there was nothing to retry' :
    `no attempt was answered ${probes.map(p => p.replace('status-', '')).join(' or ')}, so there was nothing to retry`);
  const findings: Finding[] = [];
  const family = info.bindsAt?.family ?? 'answer-class';
  const ledger = new PlaceLedger(family, info.bindsAt?.only ?? (family === 'event-position' ? EVENT_POSITIONS : []));
  const judged = (j: Outcome) => info.bindsAt ? placed(j, ledger) : j;
  let retried = 0, unknown = 0, unkeyed = 0, waited = 0;
  for (const { c, a } of failed) {
    const f = followUp(view, c, a);
    const place = (family === 'event-position' ? positionOf(c, a) : answerClassOf(a)) ?? a.d.probe;
    if (f === 'retried') { retried++; ledger.pass(place); }
    else if (f === 'unknown') { unknown++; ledger.skip(place, `the sink stopped watching less than ${sec(view.retryWait)} after the answer`); }
    else if (f === 'waited') { waited++; ledger.skip(place, waitedText(1, 1, view)); }
    else if (f === 'unkeyed') { unkeyed++; ledger.skip(place, 'followed only by attempts without the registered api-key (see webhook.auth.api-key)'); }
    else { ledger.fail(place); findings.push({
      message: `event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${c.id} was ` +
        `${a.d.answer === 'none' ? `given up by the sender after ${sec((a.closed ?? a.end) - a.arrived)}` : `answered ${a.d.answer}`} ` +
        `and not attempted again within ${sec(view.retryWait)}, ${missingBecause(view, c, a)}`,
      attempts: [a],
    }); }
  }
  if (!findings.length && unkeyed)
    return judged(notRun(`${unkeyed} of ${failed.length} such answers were followed only by attempts without the registered api-key, ` +
      'which are not counted as the sender\'s: whether they were its retries is not known (see webhook.auth.api-key)'));
  if (!findings.length && waited)
    return judged(notRun(waitedText(waited, failed.length, view)));
  if (!findings.length && !retried)
    return notRun(`the sink stopped watching less than ${sec(view.retryWait)} after each such answer, too early to tell`);
  return judged(verdict('another attempt of the same event after each such answer', findings,
    `${retried} of ${failed.length} such answers were followed by another attempt${unknown ? ` (${unknown} too close to the end of the run to tell)` : ''}`,
    findings.length ? [] : [deliveries(failed.map(x => x.a))]));
}
