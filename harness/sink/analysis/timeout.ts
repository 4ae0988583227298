// webhook.timeout: the 5 s response window of spec 6.6, probed with an answer
// after 4 s (inside it) and after 6 s (outside it).
import type { Evidence } from '../../report/model.ts';
import { deliveries, skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import { followUp } from './retry.ts';
import { RESPONSE_WAIT_MS, sec, type RunView } from './view.ts';

// Spec 6.6: "The service waits 5 seconds in total for a response."
export const WAITS_5S: CheckDef = {
  id: 'webhook.timeout.waits-5s', requirements: ['R6.6-waits-5s'], title: 'The sender waits 5 s for an answer before giving up (an answer after 4 s is taken)', spec: '6.6',
  quote: 'The service waits 5 seconds in total for a response.',
};
// Spec 6.6: "Without a response in that time the event counts as not delivered
// and is retried at the next backoff." Spec 7: "no response within 5 seconds is
// a failed delivery and leads to a retry." A sender still waiting at 6 s that
// takes the late 200 for delivery breaks this; one that hung up and did not retry
// fails webhook.retry.after-timeout instead (one fault, one check).
export const LATE_NOT_TAKEN: CheckDef = {
  id: 'webhook.timeout.late-answer-not-taken', requirements: ['R6.6-no-answer-retried'], title: 'An answer after 6 s is not taken for delivery: the event is attempted again', spec: '6.6',
  quote: 'Without a response in that time the event counts as not delivered and is retried at the next backoff.',
};

/**
 * The sink sees an attempt arrive some time after the sender started its 5 s
 * clock (its own scheduling, connecting, the network). That delay shows between
 * an answer and the arrival of the checkout's next event, which a sender sends
 * at once: the longest of those turnarounds is allowed on top of the timing
 * tolerance, the two together capped at 1.5 s (arbitrary: under a third of the
 * window, so a sender that gives up after 3 s is still caught however slow its
 * turnarounds and however wide the tolerance). A sender that spaces its events
 * on purpose (the reference moves a checkout 1 s per status) inflates the
 * turnaround; the cap is what keeps that from hiding a short timeout.
 */
export const MAX_SLACK_MS = 1_500;

export function turnaround(view: RunView): number {
  const gaps: number[] = [];
  for (const c of view.checkouts) for (let i = 1; i < c.events.length; i++) {
    const ack = c.events[i - 1].ackAt, next = c.events[i].attempts[0]?.arrived;
    if (ack !== undefined && next !== undefined && next >= ack) gaps.push(next - ack);
  }
  if (!gaps.length) return 0;
  return Math.max(...gaps);
}

/** Every attempt the sender hung up on before the sink answered must have lasted 5 s (less the tolerance). */
export function checkWaits5s(view: RunView): Judged {
  const slow = view.all.filter(a => a.d.probe === 'slow-4s' || a.d.probe === 'slow-6s');
  if (!slow.length) return skipped(WAITS_5S, 'no attempt was held for a slow answer');
  // The sink's own lateness (spec ms) blurs every hang-up it stamps; past the
  // allowance, a 3 s timeout cannot be told from 5 s, so the check says so
  // rather than guess (a false alarm is worse than a miss).
  const ownDelay = (view.opts.schedulingDelayMs ?? 0) / view.opts.timeScale;
  if (ownDelay > MAX_SLACK_MS)
    return skipped(WAITS_5S, `the sink itself ran up to ${sec(ownDelay)} late on this machine (more than the ${sec(MAX_SLACK_MS)} this check can allow), so hang-up times cannot be judged: run on a quieter machine or with a larger --time-scale`);
  const tol = Math.min(view.tol(RESPONSE_WAIT_MS), MAX_SLACK_MS);
  const lag = Math.min(turnaround(view), MAX_SLACK_MS - tol);
  const floor = RESPONSE_WAIT_MS - tol - lag;
  const findings: Finding[] = slow
    .filter(a => a.closed !== undefined && a.d.answer === 'none' && a.closed - a.arrived < floor)
    .map(a => ({ message: `the sender hung up ${sec(a.closed! - a.arrived)} after sending event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${a.d.checkoutId}, before the ${a.d.probe === 'slow-4s' ? '4 s' : '6 s'} answer`, attempts: [a] }));
  const gaveUp = slow.filter(a => a.d.answer === 'none' && a.closed !== undefined).map(a => a.closed! - a.arrived);
  const measured: Evidence = { kind: 'measurement', name: 'sender gave up after', expected: `≥ ${sec(floor)} (5 s less the tolerance and the sender's turnaround of ${sec(lag)})`, seen: gaveUp.length ? gaveUp.map(sec).join(', ') : 'never hung up first' };
  const taken = slow.filter(a => a.d.probe === 'slow-4s' && a.delivered).length;
  return verdict(WAITS_5S, `no hang-up before ${sec(floor)}`, findings,
    `${taken} answers after 4 s were taken; the sender gave up after ${gaveUp.length ? gaveUp.map(sec).join(', ') : '(never hung up first)'}`,
    [measured, ...(findings.length ? [] : [deliveries(slow)])]);
}

/** A 200 the sender read after 6 s must not end the event: another attempt follows. */
export function checkLateNotTaken(view: RunView): Judged {
  const late = view.checkouts.flatMap(c => c.attempts.filter(a => a.d.probe === 'slow-6s').map(a => ({ c, a })));
  if (!late.length) return skipped(LATE_NOT_TAKEN, 'no attempt was answered after 6 s');
  const taken = late.filter(x => x.a.delivered);
  const findings: Finding[] = [];
  for (const { c, a } of taken) if (followUp(view, c, a) === 'missing') findings.push({
    message: `event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${c.id}: the sender was still waiting when the 200 came ${sec(a.answered! - a.arrived)} after sending, took it for delivery and never attempted the event again`,
    attempts: [a],
  });
  const hungUp = late.length - taken.length;
  return verdict(LATE_NOT_TAKEN, 'the sender gives up by 5 s, or attempts the event again after a late 200', findings,
    `${hungUp} of ${late.length} attempts answered after 6 s were given up by the sender first; ${taken.length - findings.length} read late answers were followed by another attempt`,
    findings.length ? [] : [deliveries(late.map(x => x.a))]);
}
