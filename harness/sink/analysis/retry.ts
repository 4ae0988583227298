// webhook.retry: every failed answer is followed by a new attempt of the same event.
import { deliveries, skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import { RETRY_WAIT_BOUND_MS, nextOfEvent, sec, strangersNaming, type AttemptView, type CheckoutView, type RunView } from './view.ts';

// Spec 6.4: "The receiver must answer each request with status code 200. Any
// other status code triggers another attempt to deliver the same event."
// Spec 7: "any response other than 200 ... is a failed delivery and leads to a retry."
// One check per kind of answer, so a sender that takes 2xx for success fails
// only `after-other-2xx`. Slow answers belong to webhook.timeout, not here.
const CASES: Array<{ info: CheckDef; probes: string[]; when?: (a: AttemptView) => boolean }> = [
  { info: { id: 'webhook.retry.after-500', requirements: ['R6.4-non-200-retried'],
    title: 'A 500 answer is followed by another attempt of the same event', spec: '6.4',
    quote: 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.' },
    probes: ['status-500'] },
  { info: { id: 'webhook.retry.after-other-2xx', requirements: ['R6.4-non-200-retried'],
    title: 'A 201 or 204 answer is not taken for delivery: another attempt follows', spec: '6.4',
    quote: 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.' },
    probes: ['status-201', 'status-204'] },
  { info: { id: 'webhook.retry.after-3xx-4xx', requirements: ['R6.4-non-200-retried'],
    title: 'A 302, 400 or 413 answer is followed by another attempt of the same event', spec: '6.4',
    quote: 'The receiver must answer each request with status code 200. Any other status code triggers another attempt to deliver the same event.' },
    probes: ['status-302', 'status-400', 'too-large'] },
  // Spec 6.6: "Without a response in that time the event counts as not delivered
  // and is retried at the next backoff." Only attempts the sender itself gave up
  // on; one that waited and took a late answer fails webhook.timeout instead.
  { info: { id: 'webhook.retry.after-timeout', requirements: ['R6.6-no-answer-retried'],
    title: 'An attempt the sender gave up on after 5 s is followed by another attempt', spec: '6.6',
    quote: 'Without a response in that time the event counts as not delivered and is retried at the next backoff.' },
    probes: ['slow-4s', 'slow-6s'], when: a => a.d.answer === 'none' },
  { info: { id: 'webhook.retry.after-reset', requirements: ['R7-webhook-no-response-retried'],
    title: 'A connection reset without an answer is followed by another attempt', spec: '7',
    quote: 'Webhook: any response other than 200, or no response within 5 seconds, is a failed delivery and leads to a retry (section 6).' },
    probes: ['reset'] },
];

export const RETRY_CHECKS: readonly CheckDef[] = CASES.map(c => c.info);

/**
 * How a failed attempt's follow-up went: retried, missing, not watched long
 * enough to say, or unkeyed: no retry with the key, but attempts without it
 * named the checkout since (the retry may be among them: webhook.auth.api-key judges that).
 */
export function followUp(view: RunView, c: CheckoutView, a: AttemptView): 'retried' | 'missing' | 'unknown' | 'unkeyed' {
  if (nextOfEvent(c, a)) return 'retried';
  if (a.end + RETRY_WAIT_BOUND_MS > view.until) return 'unknown';
  return strangersNaming(view, c.id, a.end).length ? 'unkeyed' : 'missing';
}

export function checkRetries(view: RunView): Judged[] {
  return CASES.map(({ info, probes, when }) => {
    const failed = view.checkouts.flatMap(c => c.attempts.filter(a => probes.includes(a.d.probe) && (when ? when(a) : a.d.answer !== 'none'))
      .map(a => ({ c, a })));
    if (!failed.length) return skipped(info, when ? 'the sender never gave up on an attempt, so there was nothing to retry' :
      `no attempt was answered ${probes.map(p => p.replace('status-', '')).join(' or ')}, so there was nothing to retry`);
    const findings: Finding[] = [];
    let retried = 0, unknown = 0, unkeyed = 0;
    for (const { c, a } of failed) {
      const f = followUp(view, c, a);
      if (f === 'retried') retried++;
      else if (f === 'unknown') unknown++;
      else if (f === 'unkeyed') unkeyed++;
      else findings.push({
        message: `event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${c.id} was ` +
          `${a.d.answer === 'none' ? `given up by the sender after ${sec((a.closed ?? a.end) - a.arrived)}` : `answered ${a.d.answer}`} ` +
          `and not attempted again within ${sec(RETRY_WAIT_BOUND_MS)}`,
        attempts: [a],
      });
    }
    if (!findings.length && unkeyed)
      return skipped(info, `${unkeyed} of ${failed.length} such answers were followed only by attempts without the registered api-key, ` +
        'which are not counted as the sender\'s: whether they were its retries is not known (see webhook.auth.api-key)');
    if (!findings.length && !retried)
      return skipped(info, `the sink stopped watching less than ${sec(RETRY_WAIT_BOUND_MS)} after each such answer, too early to tell`);
    return verdict(info, 'another attempt of the same event after each such answer', findings,
      `${retried} of ${failed.length} such answers were followed by another attempt${unknown ? ` (${unknown} too close to the end of the run to tell)` : ''}`,
      findings.length ? [] : [deliveries(failed.map(x => x.a))]);
  });
}
