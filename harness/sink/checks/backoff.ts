// webhook.backoff: the delay before each retry, and its growth over
// consecutive failures of one event.
import type { Evidence } from '../../results/model.ts';
import { deliveries, listed, verdict, type Finding } from './result.ts';
import { notRun, placed, type Outcome } from '../../check/outcome.ts';
import { PlaceLedger } from '../../results/places.ts';
import { EVENT_POSITIONS, type EventPosition } from '../../places/event-positions.ts';
import type { CheckDef } from '../../check/def.ts';
import { MAX_JITTER, STEADY_CHANCE, jitterChance } from './jitter.ts';
import { MIN_RETRY_DELAY_MS, judgeAtLeast, minOf, positionOf, sec, tooLate, type AttemptView, type RunView, type Timing } from './view.ts';

// Spec 6.5: "Retries use exponential backoff with a minimum delay of 10 seconds."
// Spec 8: "Minimum retry delay: 10 seconds, growing exponentially."
export const MIN_DELAY: CheckDef = {
  id: 'webhook.backoff.min-delay', requirements: ['R6.5-min-delay'],
  title: 'Every retry comes at least 10 s after the failed attempt ended (or began, for an attempt the sender gave up on), at every event position',
  spec: '6.5',
  quote: 'Retries use exponential backoff with a minimum delay of 10 seconds.',
  bindsAt: { family: 'event-position' },
};
export const GROWTH: CheckDef = {
  id: 'webhook.backoff.growth', requirements: ['R6.5-exponential'],
  title: 'Over consecutive failures of one event the retry delays grow exponentially, at every event position', spec: '6.5',
  quote: 'Retries use exponential backoff with a minimum delay of 10 seconds.',
  // Each chain is judged at the position of its event: the suite's `held` and `*-fails` plans fail one event 3 times at each.
  bindsAt: { family: 'event-position' },
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
 *   last. A constant delay with that jitter grows by at most 1.25; spec 6.5
 *   sets no factor, so any growth beyond what jitter explains passes, and the
 *   factor per step is named (x1.2 per step gives 1.44 over two steps, x2 gives 4).
 * - A chain whose last delay is no longer than its first, beyond the timing
 *   tolerance, did not grow: a finding.
 * - Between the two (longer, but by no more than jitter could make a constant
 *   delay) the chain cannot be judged: a gentle factor and a jittered constant
 *   read alike. Such a chain is left out, and when no chain was judged the
 *   check is not run with the figures.
 * - No step may shrink by more than the jitter allows (1 / 1.25), and a chain
 *   that did not grow is a finding, for a sender without jitter (steadySpread)
 *   only: with decorrelated jitter a delay may be shorter than the one before.
 * Two delays only cannot tell jittered growth from jittered constancy, so a
 * chain shorter than three delays is not judged (the suite's `held` checkout
 * fails three times for this reason).
 */
const MIN_CHAIN = 3;

/**
 * A retry delay. `ms` counts from the failed attempt's end (its hang-up, our
 * answer or the end of the 5 s window), `fromStart` from when it was sent:
 * spec 6.5 does not say where the 10 s start, so a sender that counts them from
 * the start of the failed attempt reads the rule too, whether it gave up on the
 * attempt or got an answer (`fromStart` is never shorter than `ms`; they differ
 * by how long the attempt was open: up to 5 s when the sender gave up, and for
 * an answered attempt the time the answer took, which a busy sink stretches:
 * the `webhook-backoff-from-start` quirk once retried 8.43 s after the end of
 * an answered attempt, and failed while only gave-up attempts were read so).
 */
interface Delay { failed: AttemptView; retry: AttemptView; ms: number; fromStart: number }

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
      run.push({ failed: a, retry: b, ms: b.arrived - a.end, fromStart: b.arrived - a.arrived });
    }
    close();
  }
  return { runs, overlapping };
}

/** The event position of a delay's event (its probe when the checkout's kind is unknown). */
const placeOf = (view: RunView, d: Delay) => positionOf(view.byId.get(d.failed.d.checkoutId)!, d.failed) ?? d.failed.d.probe;
const label = (d: Delay) => `event ${d.retry.event} (${d.retry.status ?? 'unreadable'}) of checkout ${d.retry.d.checkoutId}`;
const overlapNote = (n: number): Evidence[] => n ? [{ kind: 'note', text: `${n} attempts came while the previous attempt of their event was still open: ` +
  `copies sent alongside, not retries after a failure, so not measured` }] : [];

/**
 * A delay against the 10 s minimum, where the sink's own lateness is never
 * credited to the sender: the stamps at both ends may be up to `lag` late, so
 * the true delay lies within `lag` of the measured one. 'short' when it is below
 * the minimum (less the contract's tolerance) wherever it lies in that span,
 * 'ok' when it is not below wherever it lies, 'unsure' when the span straddles
 * the minimum (then the check is not run on it, with the figure).
 */
function judgeMinimum(ms: number, t: Timing): 'ok' | 'short' | 'unsure' {
  const min = MIN_RETRY_DELAY_MS - t.base;
  if (ms + t.lag < min) return 'short';
  return ms - t.lag >= min ? 'ok' : 'unsure';
}

/**
 * Why delays were not judged: the sink's lateness around them, and the span the
 * worst one may lie in. Never widened into a pass (a delay near the minimum
 * measured by a busy sink says nothing either way).
 */
function blurredText(n: number, of: number, d: Delay, t: Timing, advice = true): string {
  return `${n} of ${of} retry delays could not be judged: the sink itself ran up to ${sec(t.lag)} late around them (measured lag), ` +
    `so a delay measured at ${sec(d.ms)} lies between ${sec(d.ms - t.lag)} and ${sec(d.ms + t.lag)}, either side of ${sec(MIN_RETRY_DELAY_MS)}` +
    `${advice ? '; run on a quieter machine or with a larger --time-scale' : ''}`;
}
const blurred = (d: Delay, t: Timing) => blurredText(1, 1, d, t, false);

/** A delay under both readings of where the 10 s start: 'end' or 'start' when it is long enough read so. */
function judgeDelay(d: Delay, t: Timing): { j: 'ok' | 'short' | 'unsure'; from?: 'end' | 'start' } {
  const fromEnd = judgeMinimum(d.ms, t);
  if (fromEnd === 'ok') return { j: 'ok', from: 'end' };
  const fromStart = judgeMinimum(d.fromStart, t);
  if (fromStart === 'ok') return { j: 'ok', from: 'start' };
  return { j: fromEnd === 'short' && fromStart === 'short' ? 'short' : 'unsure' };
}

interface MinDelays {
  delays: Delay[]; overlapping: number; findings: Finding[];
  /** Delays long enough only when counted from the failed attempt's start (an attempt the sender gave up on). */
  fromStart: number;
  /** Delays the sink's own lateness kept from being judged, and the worst timing among them. */
  unsure: number; worst?: { t: Timing; d: Delay };
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
  let unsure = 0, fromStart = 0, worst: { t: Timing; d: Delay } | undefined;
  const judgedAt = new Set<number>(), unsureAt = new Set<number>();
  const places = new PlaceLedger('event-position', EVENT_POSITIONS);
  for (const run of runs) run.forEach((d, i) => {
    const t = view.timing(MIN_RETRY_DELAY_MS, [d.failed, d.retry]);
    const { j, from } = judgeDelay(d, t);
    if (from === 'start') fromStart++;
    const place = placeOf(view, d);
    if (j === 'short') {
      places.fail(place);
      findings.push({ message: `retry ${d.retry.attempt - 1} of ${label(d)} came ${sec(d.ms)} after the failed attempt ended` +
        `${d.fromStart !== d.ms ? ` (${sec(d.fromStart)} after it was sent)` : ''}`, attempts: [d.failed, d.retry] });
    }
    if (j === 'unsure') {
      unsure++; unsureAt.add(i + 1); if (!worst || t.lag > worst.t.lag) worst = { t, d };
      places.skip(place, blurred(d, t));
    } else {
      // A delay long enough only from the attempt's start says nothing of delays after answered attempts.
      if (from !== 'start') judgedAt.add(i + 1);
      if (j === 'ok') places.pass(place);
    }
  });
  const uncovered = Math.max(0, ...[...unsureAt].filter(p => !judgedAt.has(p)));
  return { delays: runs.flat(), overlapping, findings, fromStart, unsure, ...(worst ? { worst } : {}), uncovered, places };
}

/**
 * The failures a new checkout must get so that min-delay and growth can be
 * judged where the sink's lateness blurred every measurement of a kind: 0 when
 * nothing is missing, else the length of the run of failures to provoke (the
 * drive sends one at each event position `at`, drive.ts). A run of three failures
 * serves growth and every place of min-delay at once.
 */
export function backoffUnjudged(view: RunView): { failures: number; at: EventPosition[] } {
  const m = judgeMinDelays(view);
  const g = judgeGrowth(view);
  // Growth is judged per event position: a chain is sent again at each position whose chains were all blurred.
  const growthAt = g.findings.length ? [] : g.blurredAt;
  const delays = m.findings.length ? 0 : m.uncovered;
  return { failures: Math.max(delays, growthAt.length ? MIN_CHAIN : 0), at: growthAt.length ? growthAt : delays ? ['normal first'] : [] };
}

export function checkMinDelay(view: RunView): Outcome {
  const m = judgeMinDelays(view);
  return placed(judgeMinDelay(view, m), m.places);
}

function judgeMinDelay(view: RunView, { delays, overlapping, findings, fromStart, unsure, worst, uncovered }: MinDelays): Outcome {
  if (!delays.length) return notRun('no failed attempt was retried, so there was no delay to measure');
  const shortest = minOf(delays.map(d => d.ms));
  const measured: Evidence = { kind: 'measurement', name: 'shortest retry delay',
    expected: `≥ ${sec(MIN_RETRY_DELAY_MS)} (tolerance ${sec(view.tol(MIN_RETRY_DELAY_MS))})`, seen: sec(shortest) };
  if (!findings.length && uncovered) return notRun(blurredText(unsure, delays.length, worst!.d, worst!.t));
  const leftOut: Evidence[] = !findings.length && unsure ? [{ kind: 'note',
    text: `${blurredText(unsure, delays.length, worst!.d, worst!.t, false)}, so they were left out; ` +
      `each was at the place in its run of failures (first retry, second, ...) of a delay judged in time` }] : [];
  return verdict(`every retry ≥ ${sec(MIN_RETRY_DELAY_MS)} after the failed attempt ended`, findings,
    `${delays.length} retries, the shortest ${sec(shortest)} after its failed attempt` +
      `${leftOut.length ? ` (${unsure} blurred by the sink's own lateness left out)` : ''}` +
      `${fromStart ? `; ${fromStart} came ≥ ${sec(MIN_RETRY_DELAY_MS)} after the failed attempt was sent, ` +
        'not after it ended: the sender counts its delay from the start of the attempt, which spec 6.5 allows'
        : '; every delay counted from the end of the failed attempt'}`,
    [measured, ...leftOut, ...overlapNote(overlapping)]);
}

/** Delays of a chain for a message: the first ten, and how many more. */
const shown = (ch: readonly Delay[]) => listed(ch.map(d => sec(d.ms)));

interface Growths {
  long: Delay[][]; findings: Finding[];
  /** Chains that grew by no more than jitter alone explains: last/first of each. */
  ambiguous: number[];
  /** The growth factor per step of each chain that grew beyond jitter (first to last). */
  grown: number[];
  /** Steps and chains the sink's lateness kept from being judged, and the worst timing among them. */
  unsure: number; worst?: Timing;
  /** Chains judged in every step and overall. */
  judged: number;
  /** The spread of the sender's first retry delays when it shows no jitter (the shape of its chains is then judged). */
  steady?: number;
  /** Each event position: a chain judged there, one that broke the rule, or only blurred or ambiguous ones. */
  places: PlaceLedger;
  /** The event positions whose every chain the sink's lateness blurred. */
  blurredAt: EventPosition[];
}

/**
 * Whether the sender's delays carry no jitter: its retry delays after an
 * answered failure, at each place in a run of failures (first retry, second,
 * ...) and each event position, seen at least MIN_SAMPLES times there, lie
 * within STEADY_SPREAD timing tolerances of one another (a sender may back off
 * apart per position: that is no jitter), and so close that a sender with the
 * jitter MAX_JITTER allows would seldom have drawn them (jitterChance). Only
 * then is the shape of a chain judged (shapeFinding): with jitter, a doubling
 * chain may come out as 10, 25, 40 s, and x1.5 as 10.72, 18.45, 25.27 s (a
 * correct sender, judged linear in a clean-clone run whose tolerance of 1 s
 * held its 25 % jitter on 10 s for steady).
 * Undefined when the sender jitters or there are too few samples; else the spread.
 */
const MIN_SAMPLES = 3;
/** Arbitrary: 1.5 timing tolerances. A sender's own timer lateness stays well inside it. */
const STEADY_SPREAD = 1.5;
function steadySpread(runs: readonly Delay[][], view: RunView): number | undefined {
  let worst: number | undefined;
  const spreads: Array<{ n: number; spread: number; least: number }> = [];
  for (let k = 0; ; k++) {
    const byPlace = new Map<string, Delay[]>();
    for (const r of runs) {
      if (r.length <= k || r[k].failed.d.answer === 'none') continue;
      const place = placeOf(view, r[k]);
      byPlace.set(place, [...byPlace.get(place) ?? [], r[k]]);
    }
    const groups = [...byPlace.values()].filter(g => g.length >= MIN_SAMPLES);
    if (!groups.length) return worst !== undefined && jitterChance(spreads) <= STEADY_CHANCE ? worst : undefined;
    for (const at of groups) {
      const ms = at.map(d => d.ms);
      const spread = Math.max(...ms) - minOf(ms);
      const t = view.timing(Math.max(...ms), at.flatMap(d => [d.failed, d.retry]));
      if (spread > STEADY_SPREAD * t.tol) return undefined;
      worst = Math.max(worst ?? 0, spread);
      spreads.push({ n: ms.length, spread, least: minOf(ms) });
    }
  }
}

/**
 * Exponential growth told from linear and capped growth, on three delays of a
 * sender without jitter: after d1, d2 an exponential third is d2²/d1 (10, 20 ->
 * 40 s), a linear one 2·d2 - d1 (30 s), a capped one d2 (20 s). A chain is
 * linear or capped when its third delay is within the margin (the timing
 * tolerance plus the sender's own spread) of that reading and more than twice
 * the margin from the exponential one; a gentle factor (10, 12, 14.4 s: 14 s
 * linear) is not told apart and passes.
 */
function shapeFinding(d: readonly number[], margin: number): string | undefined {
  for (let i = 2; i < d.length; i++) {
    const [a, b, c] = [d[i - 2], d[i - 1], d[i]];
    const exp = (b * b) / a;
    if (Math.abs(c - b) <= margin && b - a > 2 * margin && Math.abs(c - exp) > 2 * margin)
      return `stopped growing: ${sec(c)} after ${sec(b)} (capped; exponential growth gives about ${sec(exp)})`;
    if (Math.abs(c - (2 * b - a)) <= margin && Math.abs(c - exp) > 2 * margin)
      return `grew by the same step each time: ${sec(a)}, ${sec(b)}, ${sec(c)} (linear; exponential growth gives about ${sec(exp)})`;
  }
  return undefined;
}

function judgeGrowth(view: RunView): Growths {
  const runs = chains(view).runs;
  const long = runs.filter(ch => ch.length >= MIN_CHAIN);
  const findings: Finding[] = [];
  const ambiguous: number[] = [], grown: number[] = [];
  let unsure = 0, worst: Timing | undefined, judged = 0;
  const spread = steadySpread(runs, view);
  const places = new PlaceLedger('event-position', EVENT_POSITIONS);
  const blurred = new Set<string>();
  for (const ch of long) {
    const before = unsure, found = findings.length, place = placeOf(view, ch[0]);
    const ms = ch.map(d => d.ms);
    const attempts = ch.flatMap(d => [d.failed, d.retry]);
    // The shape (linear, capped) is the sender's backoff function: judged once, at the first event of a normal
    // checkout (held's chain). Each more chain judged for it would be one more chance to read jitter the sink's
    // lateness hid from steadySpread as a linear step; elsewhere growth beyond jitter is judged.
    if (spread !== undefined && place === 'normal first') {
      const t = view.timing(ms[ms.length - 1], attempts);
      const shape = t.judgeable ? shapeFinding(ms, t.tol + spread) : undefined;
      if (shape) { places.fail(place); findings.push({ message: `the retry delays of ${label(ch[0])} ${shape}`, attempts }); continue; }
    }
    // One finding per chain at most: the first step that shrank beyond what jitter explains. Only for a
    // sender without jitter: decorrelated jitter draws each delay anew (10 s up to 3 times the last), so
    // its delays may shrink, and its growth is judged first to last alone.
    for (let i = 1; spread !== undefined && i < ch.length; i++) {
      const t = view.timing(ms[i - 1], [ch[i - 1].failed, ch[i - 1].retry, ch[i].failed, ch[i].retry]);
      const j = judgeAtLeast(ms[i], ms[i - 1] / MAX_JITTER, t);
      if (j === 'short') {
        findings.push({ message: `the retry delays of ${label(ch[i])} shrank from ${sec(ms[i - 1])} to ${sec(ms[i])} (delays ${shown(ch)})`, attempts });
        break;
      }
      if (j === 'unsure') { unsure++; if (!worst || t.lag > worst.lag) worst = t; }
    }
    const growth = ms[ms.length - 1] / ms[0];
    // The sink's lateness around the first and last delays' stamps may have lengthened the
    // first or shortened the last (or the other way round): growth is judged with it granted
    // both ways, never widened into a pass.
    const a = view.timing(ms[0], [ch[0].failed, ch[0].retry]), z = view.timing(ms[ms.length - 1], [ch[ch.length - 1].failed, ch[ch.length - 1].retry]);
    const last = ms[ms.length - 1], first = ms[0];
    if (last + z.lag - (first - a.lag) <= a.base + z.base && spread !== undefined) {
      findings.push({ message: `the retry delays of ${label(ch[0])} did not grow: ${shown(ch)}, last/first = ${growth.toFixed(2)}`, attempts });
    } else if ((last - z.lag) / (first + a.lag) > MAX_JITTER) {
      if (unsure === before) grown.push(growth ** (1 / (ms.length - 1)));
    } else if (!a.judgeable || !z.judgeable) {
      unsure++; const t = a.lag > z.lag ? a : z; if (!worst || t.lag > worst.lag) worst = t;
    } else {
      ambiguous.push(growth);
      places.skip(place, `the delays of ${label(ch[0])} went x${growth.toFixed(2)} from first to last: ${UNCLEAR}`);
      continue;
    }
    if (findings.length > found) places.fail(place);
    else if (unsure === before) { judged++; places.pass(place); } else {
      places.skip(place, tooLate(1, 1, worst!, 'chains of retry delays', false));
      blurred.add(place);
    }
  }
  const exercised = places.tally().exercised;
  return { long, findings, ambiguous, grown, unsure, ...(worst ? { worst } : {}), judged,
    ...(spread !== undefined ? { steady: spread } : {}), places, blurredAt: EVENT_POSITIONS.filter(p => blurred.has(p) && !exercised.includes(p)) };
}

/**
 * Growth over each chain of at least three consecutive failures. A chain the
 * sink's lateness blurred is left out when another chain was judged in full;
 * when none was, the check is not run, with the figures.
 */
export function checkGrowth(view: RunView): Outcome {
  const g = judgeGrowth(view);
  return placed(judgeGrowthOutcome(g), g.places);
}

/** Why a chain that grew by no more than jitter explains is not judged. */
const UNCLEAR = `a gentle factor per step, a constant delay with up to ${Math.round((MAX_JITTER - 1) * 100)} % jitter or delays drawn anew ` +
  '(decorrelated jitter), which one chain cannot tell apart';

function judgeGrowthOutcome({ long, findings, ambiguous, grown, unsure, worst, judged, steady }: Growths): Outcome {
  if (!long.length) return notRun(`no event failed ${MIN_CHAIN} times in a row with retries, so growth cannot be told from jitter`);
  const unclear = ambiguous.length ? `${ambiguous.length} chains went by ${listed(ambiguous.map(g => `x${g.toFixed(2)}`))} from first to last delay: ` +
    UNCLEAR : '';
  if (!findings.length && !judged) {
    if (unsure) return notRun(`${tooLate(unsure, long.length, worst!, 'steps between retry delays')}${unclear ? `; ${unclear}` : ''}`);
    return notRun(`${unclear}; a longer run of failures would`);
  }
  const leftOut: Evidence[] = findings.length ? [] : [
    ...(unsure ? [{ kind: 'note' as const,
      text: `${tooLate(unsure, long.length, worst!, 'steps between retry delays', false)}, so their chains were left out; ` +
        `judged on the ${judged} chains measured in time` }] : []),
    ...(unclear ? [{ kind: 'note' as const, text: `${unclear}, so they were left out` }] : []),
  ];
  const evidence: Evidence[] = long.slice(0, 10).map(ch => ({ kind: 'measurement', name: `retry delays of ${label(ch[0])}`,
    expected: `growing: last/first beyond x${MAX_JITTER} (what jitter alone gives), no step shrinking below 1/${MAX_JITTER}`, seen: shown(ch) }));
  const [lo, hi] = [minOf(grown, 1).toFixed(2), Math.max(1, ...grown).toFixed(2)];
  return verdict(`delays growing beyond x${MAX_JITTER} from first to last over ${MIN_CHAIN}+ consecutive failures`, findings,
    `${long.length} chains of consecutive failures, delays ${listed(long.map(ch => ch.map(d => sec(d.ms)).slice(0, 10).join(' → ')), 5)}: ` +
      `exponential, about x${lo}${hi !== lo ? ` to x${hi}` : ''} per step` +
      `${steady !== undefined ? ` (first retry delays within ${sec(steady)} of one another: no jitter, so linear and capped growth were looked for)`
        : ' (the sender\'s delays vary, or too few were seen: growth judged, not its shape)'}`,
    findings.length ? evidence : [...evidence, ...leftOut, deliveries(long.flat().flatMap(d => [d.failed, d.retry]))]);
}
