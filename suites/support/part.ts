// The part of the run the code running now serves. `run` makes one part; a
// batch of the tests' proof runs makes several, one target each, registered
// as a describe block per part in one Playwright project, so that one worker
// runs the checks of every part (a worker costs about 0.7 CPU s to start).
// Everything the suites keep between checks (a token, the chosen banks, a
// consented session, a watch) is kept per part: perPart() below. The part is
// carried by the async context its registration, its tests and its watches
// run in; asked for outside one in a batch, it throws rather than let one
// part read another's state.
import { AsyncLocalStorage } from 'node:async_hooks';
import { HarnessError } from '../../harness/errors.ts';
import { runContext } from './context.ts';

const current = new AsyncLocalStorage<string>();
let executing = false;

/** Said by the registration as the first test or hook of this process starts: collection is over. */
export function testsStarted(): void { executing = true; }

/** Whether this process is still collecting tests (the runner listing them, a worker loading the suites). */
export const collecting = (): boolean => !executing;

/** Runs `fn` as part `name`: what it starts, awaits and registers belongs to that part. */
export function inPart<T>(name: string, fn: () => T): T {
  return current.run(name, fn);
}

/** The part running now: the one part of `run`, or in a batch the part of the async context (undefined outside one). */
export function partNow(): string | undefined {
  const { runs } = runContext();
  return runs.length === 1 ? runs[0]!.name : current.getStore();
}

/** The part running now; in a batch, outside any part, a harness error. */
export function thisPart(): string {
  const name = partNow();
  if (name === undefined) {
    throw new HarnessError('PIS_INTERNAL', 'A suite read state kept per part outside any part of the batch: this is a bug of the harness, please report it.');
  }
  return name;
}

/** A value made once per part, when that part first asks for it. */
export function perPart<T>(make: () => T): () => T {
  const made = new Map<string, T>();
  return () => {
    const name = thisPart();
    if (!made.has(name)) made.set(name, make());
    return made.get(name)!;
  };
}
