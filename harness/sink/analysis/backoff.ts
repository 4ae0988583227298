// webhook.backoff: the delay before each retry, and its growth over
// consecutive failures of one event.
import type { Evidence } from '../../report/model.ts';
import { deliveries, listed, placed, skipped, verdict, type Finding } from './result.ts';
import { PlaceLedger } from '../../report/places.ts';
import { EVENT_POSITIONS } from '../../places/event-positions.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import { MIN_RETRY_DELAY_MS, judgeAtLeast, minOf, positionOf, sec, tooLate, type AttemptView, type RunView, type Timing } from './view.ts';

// Spec 6.5: "Retries use exponential backoff with a minimum delay of 10 seconds."
// Spec 8: "Minimum retry delay: 10 seconds, growing exponentially."
export const MIN_DELAY: CheckDef = {
  id: 'webhook.backoff.min-delay', requirements: ['R6.5-min-delay'],
  title: 'Every retry comes at least 10 s after the failed attempt ended, at every event position', spec: '6.5',
  quote: 'Retries use exponential backoff with a minimum delay of 10 seconds.',
  bindsAt: { family: 'event-position' },
};
export const GROWTH: CheckDef = {
  id: 'webhook.backoff.growth', requirements: ['R6.5-exponential'],
  title: 'Over consecutive failures of one event the retry delays grow exponentially', spec: '6.5',
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
const MAX_JITTER = 1.25;
const MIN_OVERALL_GROWTH = 1.5;
const MIN_CHAIN = 3;

interface Delay { failed: AttemptView; retry: AttemptView; ms: number }

/**
 * For every event, the runs of consecutive failures and the delay from each
 * failed attempt's end to the next attempt of the same event. An attempt that
 * came while the previous one was still open is no retry after a failure but a
 * copy sent alongside (at least once, spec 6.3): it ends the run, and is counted.
 */
function chains(view: RunView): { runs: Delay[][]; overlapping: number } {
  const runs: Delay[][] = [];
  let overlapping = 0;
  for (const c of view.checkouts) for (const e of c.events) {
    let run: Delay[] = [];
    const close = () => { if (run.length) runs.push(run); run = []; };
    for (let i = 0; i + 1 < e.attempts.length; i++) {
      const a = e.attempts[i], b = e.attempts[i + 1];
      if (a.delivered) { close(); continue; }
      if (b.arrived < a.end) { overlapping++; close(); continue; }
      run.push({ failed: a, retry: b, ms: b.arrived - a.end });
    }
    close();
  }
  return { runs, overlapping };
}

const label = (d: Delay) => `event ${d.retry.event} (${d.retry.status ?? 'unreadable'}) of checkout ${d.retry.d.checkoutId}`;
const overlapNote = (n: number): Evidence[] => n ? [{ kind: 'note', text: `${n} attempts came while the previous attempt of their event was still open: ` +
  `copies sent alongside, not retries after a failure, so not measured` }] : [];

interface MinDelays {
  delays: Delay[]; overlapping: number; findings: Finding[];
  /** Delays the sink's own lateness kept from being judged, and the worst timing among them. */
  unsure: number; worst?: Timing;
  /** The largest position (1: first retry of a run of failures) with delays not judged and none judged; 0 when none. */
  uncovered: number;
  /** Each event position: a delay judged long enough, one too short, or only blurred ones. */
  places: PlaceLedger;
}

/**
 * Every retry delay against the 10 s minimum. A delay is measured at its place
 * in its run of failures (first retry, second, ...): a delay the sink's
 * lateness blurred stands in for nothing, but another delay at the same place,
 * judged, measures the same rule of the sender's backoff, so only places where
 * no delay could be judged leave the check unjudged.
 */
function judgeMinDelays(view: RunView): MinDelays {
  const { runs, overlapping } = chains(view);
  const findings: Finding[] = [];
  let unsure = 0, worst: Timing | undefined;
  const judgedAt = new Set<number>(), unsureAt = new Set<number>();
  const places = new PlaceLedger('event-position', EVENT_POSITIONS);
  for (const run of runs) run.forEach((d, i) => {
    const t = view.timing(MIN_RETRY_DELAY_MS, [d.failed, d.retry]);
    const j = judgeAtLeast(d.ms, MIN_RETRY_DELAY_MS, t);
    const place = positionOf(view.byId.get(d.failed.d.checkoutId)!, d.failed) ?? d.failed.d.probe;
    if (j === 'short') {
      places.fail(place);
      findings.push({ message: `retry ${d.retry.attempt - 1} of ${label(d)} came ${sec(d.ms)} after the failed attempt ended`, attempts: [d.failed, d.retry] });
    }
    if (j === 'unsure') {
      unsure++; unsureAt.add(i + 1); if (!worst || t.lag > worst.lag) worst = t;
      places.skip(place, tooLate(1, 1, t, 'retry delays', false));
    } else { judgedAt.add(i + 1); if (j === 'ok') places.pass(place); }
  });
  const uncovered = Math.max(0, ...[...unsureAt].filter(p => !judgedAt.has(p)));
  return { delays: runs.flat(), overlapping, findings, unsure, ...(worst ? { worst } : {}), uncovered, places };
}

/**
 * The failures a new checkout must get so that min-delay and growth can be
 * judged where the sink's lateness blurred every measurement of a kind: 0 when
 * nothing is missing, else the length of the run of failures to provoke (the
 * drive sends one, drive.ts). A run of three failures serves growth and every
 * place of min-delay at once.
 */
export function backoffUnjudged(view: RunView): number {
  const m = judgeMinDelays(view);
  const g = judgeGrowth(view);
  return Math.max(m.findings.length ? 0 : m.uncovered, !g.findings.length && g.unsure && !g.judged ? MIN_CHAIN : 0);
}

export function checkMinDelay(view: RunView): Judged {
  const m = judgeMinDelays(view);
  return placed(judgeMinDelay(view, m), m.places);
}

function judgeMinDelay(view: RunView, { delays, overlapping, findings, unsure, worst, uncovered }: MinDelays): Judged {
  if (!delays.length) return skipped(MIN_DELAY, 'no failed attempt was retried, so there was no delay to measure');
  const shortest = minOf(delays.map(d => d.ms));
  const measured: Evidence = { kind: 'measurement', name: 'shortest retry delay',
    expected: `≥ ${sec(MIN_RETRY_DELAY_MS)} (tolerance ${sec(view.tol(MIN_RETRY_DELAY_MS))})`, seen: sec(shortest) };
  if (!findings.length && uncovered) return skipped(MIN_DELAY, tooLate(unsure, delays.length, worst!, 'retry delays'));
  const leftOut: Evidence[] = !findings.length && unsure ? [{ kind: 'note',
    text: `${tooLate(unsure, delays.length, worst!, 'retry delays', false)}, so they were left out; ` +
      `each was at the place in its run of failures (first retry, second, ...) of a delay judged in time` }] : [];
  return verdict(MIN_DELAY, `every retry ≥ ${sec(MIN_RETRY_DELAY_MS)} after the failed attempt ended`, findings,
    `${delays.length} retries, the shortest ${sec(shortest)} after its failed attempt` +
      `${leftOut.length ? ` (${unsure} blurred by the sink's own lateness left out)` : ''}`,
    [measured, ...leftOut, ...overlapNote(overlapping)]);
}

/** Delays of a chain for a message: the first ten, and how many more. */
const shown = (ch: readonly Delay[]) => listed(ch.map(d => sec(d.ms)));

interface Growths {
  long: Delay[][]; findings: Finding[];
  /** Steps and chains the sink's lateness kept from being judged, and the worst timing among them. */
  unsure: number; worst?: Timing;
  /** Chains judged in every step and overall. */
  judged: number;
}

function judgeGrowth(view: RunView): Growths {
  const long = chains(view).runs.filter(ch => ch.length >= MIN_CHAIN);
  const findings: Finding[] = [];
  let unsure = 0, worst: Timing | undefined, judged = 0;
  for (const ch of long) {
    const before = unsure;
    const ms = ch.map(d => d.ms);
    const attempts = ch.flatMap(d => [d.failed, d.retry]);
    // One finding per chain at most: the first step that shrank beyond what jitter explains.
    for (let i = 1; i < ch.length; i++) {
      const t = view.timing(ms[i - 1], [ch[i - 1].failed, ch[i - 1].retry, ch[i].failed, ch[i].retry]);
      const j = judgeAtLeast(ms[i], ms[i - 1] / MAX_JITTER, t);
      if (j === 'short') {
        findings.push({ message: `the retry delays of ${label(ch[i])} shrank from ${sec(ms[i - 1])} to ${sec(ms[i])} (delays ${shown(ch)})`, attempts });
        break;
      }
      if (j === 'unsure') { unsure++; if (!worst || t.lag > worst.lag) worst = t; }
    }
    const growth = ms[ms.length - 1] / ms[0];
    if (growth < MIN_OVERALL_GROWTH) {
      // The sink's lateness around the first and last delays' stamps may have lengthened the
      // first or shortened the last: no growth even with that granted is a finding; growth that
      // only more lateness than the cap could explain is not judged.
      const a = view.timing(ms[0], [ch[0].failed, ch[0].retry]), z = view.timing(ms[ms.length - 1], [ch[ch.length - 1].failed, ch[ch.length - 1].retry]);
      const best = (ms[ms.length - 1] + z.lag) / Math.max(1, ms[0] - a.lag);
      if (best < MIN_OVERALL_GROWTH)
        findings.push({ message: `the retry delays of ${label(ch[0])} did not grow: ${shown(ch)}, last/first = ${growth.toFixed(2)}`, attempts });
      else if (!a.judgeable || !z.judgeable) { unsure++; const t = a.lag > z.lag ? a : z; if (!worst || t.lag > worst.lag) worst = t; }
    }
    if (unsure === before) judged++;
  }
  return { long, findings, unsure, ...(worst ? { worst } : {}), judged };
}

/**
 * Growth over each chain of at least three consecutive failures. A chain the
 * sink's lateness blurred is left out when another chain was judged in full;
 * when none was, the check is not run, with the figures.
 */
export function checkGrowth(view: RunView): Judged {
  const { long, findings, unsure, worst, judged } = judgeGrowth(view);
  if (!long.length) return skipped(GROWTH, `no event failed ${MIN_CHAIN} times in a row with retries, so growth cannot be told from jitter`);
  if (!findings.length && unsure && !judged) return skipped(GROWTH, tooLate(unsure, long.length, worst!, 'steps between retry delays'));
  const leftOut: Evidence[] = !findings.length && unsure ? [{ kind: 'note',
    text: `${tooLate(unsure, long.length, worst!, 'steps between retry delays', false)}, so their chains were left out; ` +
      `judged on the ${judged} chains measured in time` }] : [];
  const evidence: Evidence[] = long.slice(0, 10).map(ch => ({ kind: 'measurement', name: `retry delays of ${label(ch[0])}`,
    expected: `growing: last/first ≥ ${MIN_OVERALL_GROWTH}, no step shrinking below 1/${MAX_JITTER}`, seen: shown(ch) }));
  return verdict(GROWTH, `delays growing by last/first ≥ ${MIN_OVERALL_GROWTH} over ${MIN_CHAIN}+ consecutive failures`, findings,
    `${long.length} chains of consecutive failures, delays ${listed(long.map(ch => ch.map(d => sec(d.ms)).slice(0, 10).join(' → ')), 5)}`,
    findings.length ? evidence : [...evidence, ...leftOut, deliveries(long.flat().flatMap(d => [d.failed, d.retry]))]);
}
