// Timing checks judge milliseconds; a test process whose event loop stalls for
// longer than the tolerance (two cores shared with the whole test suite) cannot
// tell a fault from its own lateness, and the sink says so itself when its own
// lateness blurred a measurement (a check not run, "could not be judged").
// A case that could not judge runs again, up to three times; then it asserts
// on its last run, and the failure says the machine was too busy to judge.
// It never turns a missed fault into a skip.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { judgesMilliseconds } from '../helpers/priority.ts';

export interface StallWatch { stop(): number }

/** Starts watching this process's event loop; stop() returns the longest stall in ms. */
export function watchStalls(): StallWatch {
  judgesMilliseconds();
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return { stop: () => { h.disable(); return h.max / 1e6; } };
}

const TRIES = 3;

/** A check's own words for a machine too busy to judge it: the sink's lateness, or a remedy that asks for a quieter machine. */
const BUSY = /could not be judged|the sink's own lateness|quieter machine|less busy machine/;

interface Judged { status: string; message?: string; remedy?: string; skipKind?: string }

/** A check left not run because the run's machine was too busy to judge it, by its own message or remedy. */
const notRunForLoad = (c: Judged) => c.status === 'skipped' && BUSY.test(`${c.message ?? ''} ${c.remedy ?? ''}`);

/**
 * Runs `once` until `ok` holds, or its run was judged on a calm machine, or three
 * runs were made. `blurred` is '' when the last run was judgeable, else a sentence
 * to add to the assertion's message.
 */
export async function judgeable<R extends { checks: Judged[] }>(
  once: () => Promise<R>, toleranceMs: number, ok: (r: R) => boolean): Promise<{ result: R; blurred: string }> {
  const stalls: number[] = [];
  for (let i = 1; ; i++) {
    const watch = watchStalls();
    const result = await once();
    const stall = watch.stop();
    stalls.push(stall);
    // A whole check the sink's lateness blurred says it could not be judged; a place of one names that lateness (a jitter
    // sender's hang-up at one event position, in a clean-clone CI run whose sink ran 0.58 s late); an API check whose
    // waits the machine stretched asks for a quieter one.
    const sinkBlurred = result.checks.some(notRunForLoad);
    const calm = stall <= toleranceMs && !sinkBlurred;
    if (ok(result) || calm || i === TRIES)
      return { result, blurred: calm ? '' : `\n(the machine was too busy to judge timing on each of ${i} tries: ` +
        `this process stalled ${stalls.map(s => `${s.toFixed(0)} ms`).join(', ')} against a tolerance of ${toleranceMs} ms` +
        `${sinkBlurred ? ', and the sink reported its own lateness' : ''})` };
  }
}

type Named = Judged & { id: string; level?: string };

/**
 * The must checks a run left short of passing (but those `expected` not to pass, and those not applicable or not
 * selected, which keep no run from its verdict), when every one of them was left not run for the machine's load and
 * nothing failed: what alone kept the run from its verdict; else undefined.
 */
export function shortForLoad(checks: Named[], expected: (c: Named) => boolean = () => false): Named[] | undefined {
  if (checks.some(c => c.status === 'failed')) return undefined;
  const short = checks.filter(c => c.status !== 'passed' && c.level === 'must' && c.skipKind !== 'not-applicable' && c.skipKind !== 'not-selected' &&
    !expected(c));
  return short.length && short.every(notRunForLoad) ? short : undefined;
}

/** The checks of shortForLoad, for a message: each with what it said. */
const notRunList = (short: Named[]) => short.map(c => `${c.id} not run: ${c.message ?? ''}`).join('; ');

/**
 * After judgeable's tries: why a whole run could not be judged, when every try was blurred and shortForLoad holds;
 * else undefined. The test then skips its verdict with this reason, as a check that cannot judge is not run: it
 * neither fails on the machine's load nor passes what was not judged.
 */
export function tooBusyToJudge(checks: Named[], blurred: string, expected?: (c: Named) => boolean): string | undefined {
  const short = blurred ? shortForLoad(checks, expected) : undefined;
  return short && `the machine was too busy to judge the run: ${notRunList(short)}${blurred}`;
}

/**
 * A run short of its verdict only by checks it left not run for the machine's load (`shortOf` says which) is made
 * again by `again`, up to twice, each shortfall told to `note`, each run made again dropped by `drop`. The last run,
 * and when it is still short so, the reason the test skips its verdict with (the run is dropped then too).
 */
export async function againWhileShort<R>(first: R, again: () => Promise<R>, shortOf: (r: R) => Named[] | undefined,
  note: (s: string) => void, drop: (r: R) => void = () => {}): Promise<{ run: R; busy?: string }> {
  let run = first;
  for (let n = 1; shortOf(run) && n <= 2; n++) {
    note(`run again (${n}): ${notRunList(shortOf(run)!)}`);
    drop(run);
    run = await again();
  }
  const busy = shortOf(run);
  if (!busy) return { run };
  drop(run);
  return { run, busy: `the machine was too busy to judge the run in three tries: ${notRunList(busy)}` };
}
