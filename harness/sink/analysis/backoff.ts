// webhook.backoff: the delay before each retry, and its growth over
// consecutive failures of one event.
import type { Evidence } from '../../report/model.ts';
import { deliveries, skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import { MIN_RETRY_DELAY_MS, sec, type AttemptView, type RunView } from './view.ts';

// Spec 6.5: "Retries use exponential backoff with a minimum delay of 10 seconds."
// Spec 8: "Minimum retry delay: 10 seconds, growing exponentially."
export const MIN_DELAY: CheckDef = {
  id: 'webhook.backoff.min-delay', requirements: ['R6.5-min-delay'], title: 'Every retry comes at least 10 s after the failed attempt ended', spec: '6.5',
  quote: 'Retries use exponential backoff with a minimum delay of 10 seconds.',
};
export const GROWTH: CheckDef = {
  id: 'webhook.backoff.growth', requirements: ['R6.5-exponential'], title: 'Over consecutive failures of one event the retry delays grow exponentially', spec: '6.5',
  quote: 'Retries use exponential backoff with a minimum delay of 10 seconds.',
};

/**
 * The growth rule, and why its numbers are what they are (all arbitrary, chosen
 * to sit between what a conforming sender and a non-growing one can produce):
 * - A sender may add upward jitter that never goes below the 10 s minimum
 *   (catalog quirk `webhook-jitter`: up to 25 %). So one delay may come out up
 *   to 1.25 times its nominal value and the next one at its nominal value:
 *   a delay may look SMALLER than the one before by up to that factor, and a
 *   constant delay may look like growth by up to 1.25.
 * - Hence growth is judged over a chain of at least three delays, first to
 *   last: a growth factor of 1.5 per step (the gentlest in common use) with the
 *   worst jitter still gives 1.5^2 / 1.25 = 1.8, a constant delay at most 1.25.
 *   MIN_OVERALL_GROWTH = 1.5 sits between the two.
 * - No step may shrink by more than the jitter allows (1 / 1.25).
 * Two delays only cannot tell jittered growth from jittered constancy, so a
 * chain shorter than three delays is not judged (the suite's `held` checkout
 * fails three times for this reason).
 */
export const MAX_JITTER = 1.25;
export const MIN_OVERALL_GROWTH = 1.5;
const MIN_CHAIN = 3;

interface Delay { failed: AttemptView; retry: AttemptView; ms: number }

/** For every event, the delays from each failed attempt's end to the next attempt of the same event. */
function chains(view: RunView): Delay[][] {
  const out: Delay[][] = [];
  for (const c of view.checkouts) for (const e of c.events) {
    let run: Delay[] = [];
    for (let i = 0; i + 1 < e.attempts.length; i++) {
      const a = e.attempts[i], b = e.attempts[i + 1];
      if (a.delivered) { if (run.length) out.push(run); run = []; continue; }
      run.push({ failed: a, retry: b, ms: b.arrived - a.end });
    }
    if (run.length) out.push(run);
  }
  return out;
}

const label = (d: Delay) => `event ${d.retry.event} (${d.retry.status ?? 'unreadable'}) of checkout ${d.retry.d.checkoutId}`;

export function checkMinDelay(view: RunView): Judged {
  const delays = chains(view).flat();
  if (!delays.length) return skipped(MIN_DELAY, 'no failed attempt was retried, so there was no delay to measure');
  const floor = MIN_RETRY_DELAY_MS - view.tol(MIN_RETRY_DELAY_MS);
  const findings: Finding[] = delays.filter(d => d.ms < floor).map(d => ({
    message: `retry ${d.retry.attempt - 1} of ${label(d)} came ${sec(d.ms)} after the failed attempt ended`,
    attempts: [d.failed, d.retry],
  }));
  const shortest = Math.min(...delays.map(d => d.ms));
  const measured: Evidence = { kind: 'measurement', name: 'shortest retry delay', expected: `≥ ${sec(MIN_RETRY_DELAY_MS)} (tolerance ${sec(view.tol(MIN_RETRY_DELAY_MS))})`, seen: sec(shortest) };
  return verdict(MIN_DELAY, `every retry ≥ ${sec(MIN_RETRY_DELAY_MS)} after the failed attempt ended`, findings,
    `${delays.length} retries, the shortest ${sec(shortest)} after its failed attempt`, [measured]);
}

export function checkGrowth(view: RunView): Judged {
  const long = chains(view).filter(ch => ch.length >= MIN_CHAIN);
  if (!long.length) return skipped(GROWTH, `no event failed ${MIN_CHAIN} times in a row with retries, so growth cannot be told from jitter`);
  const findings: Finding[] = [];
  for (const ch of long) {
    const ms = ch.map(d => d.ms);
    const list = ms.map(sec).join(', ');
    const attempts = ch.flatMap(d => [d.failed, d.retry]);
    for (let i = 1; i < ch.length; i++) {
      const floor = ms[i - 1] / MAX_JITTER - view.tol(ms[i - 1]);
      if (ms[i] < floor) findings.push({ message: `the retry delays of ${label(ch[i])} shrank from ${sec(ms[i - 1])} to ${sec(ms[i])} (delays ${list})`, attempts });
    }
    const growth = ms[ms.length - 1] / ms[0];
    if (growth < MIN_OVERALL_GROWTH) findings.push({
      message: `the retry delays of ${label(ch[0])} did not grow: ${list}, last/first = ${growth.toFixed(2)}`,
      attempts,
    });
  }
  const evidence: Evidence[] = long.map(ch => ({ kind: 'measurement', name: `retry delays of ${label(ch[0])}`, expected: `growing: last/first ≥ ${MIN_OVERALL_GROWTH}, no step shrinking below 1/${MAX_JITTER}`, seen: ch.map(d => sec(d.ms)).join(', ') }));
  return verdict(GROWTH, `delays growing by last/first ≥ ${MIN_OVERALL_GROWTH} over ${MIN_CHAIN}+ consecutive failures`, findings,
    `${long.length} chains of consecutive failures, delays ${long.map(ch => ch.map(d => sec(d.ms)).join(' → ')).join('; ')}`,
    findings.length ? evidence : [...evidence, deliveries(long.flat().flatMap(d => [d.failed, d.retry]))]);
}
