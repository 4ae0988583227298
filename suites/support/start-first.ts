// Starts the watches of support/waits.ts as a suite's worker starts, so that
// their waits run beside the suite's other checks.
import { test } from './test.ts';
import type { Check } from './check.ts';
import { thisRun } from './context.ts';

/**
 * Starts watches as the worker starts (before the suite's first check), each
 * only when a check that reads it is selected, so that `--grep` on another
 * check (or an API version without the check) does not create tokens or ask
 * for consent for nothing. The selection is the one `run` computed and gave
 * Playwright (harness/cli/selection.ts), read from the run context.
 */
export function startFirst(watches: { readers: Check[]; start: () => unknown }[]): void {
  test.beforeAll(() => {
    const selected = new Set(thisRun(() => test.info().project.name).selected);
    for (const w of watches) if (w.readers.some(k => selected.has(k.id))) w.start();
  });
}
