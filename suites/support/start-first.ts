// Starts the watches of support/waits.ts as a suite's worker starts, so that
// their waits run beside the suite's other checks.
import { test } from './test.ts';
import type { Check } from './check.ts';
import { runContext } from './context.ts';
import { inPart, testsStarted } from './part.ts';

/**
 * Starts watches as the worker starts (before the suite's first check), for
 * each part of the run (part.ts), each
 * only when a check that reads it is selected, so that `--grep` on another
 * check (or an API version without the check) does not create tokens or ask
 * for consent for nothing. The selection is the one `run` computed and gave
 * Playwright (harness/cli/selection.ts), read from the run context.
 */
export function startFirst(watches: { readers: Check[]; start: () => unknown }[]): void {
  test.beforeAll(() => {
    testsStarted();
    // Every part's watches (a batch's parts run in this worker one after another; their waits run side by side from here).
    for (const run of runContext().runs) {
      const selected = new Set(run.selected);
      inPart(run.name, () => { for (const w of watches) if (w.readers.some(k => selected.has(k.id))) w.start(); });
    }
  });
}
