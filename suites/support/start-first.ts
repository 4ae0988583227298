// Starts the watches of support/waits.ts as a suite's worker starts, so that
// their waits run beside the suite's other checks.
import { test } from './test.ts';
import type { Check } from './check.ts';
import { runContext } from './context.ts';
import { inPart, testsStarted } from './part.ts';

/** A file's watches, each with the checks that read it. */
export type Watches = { readers: Check[]; start: () => unknown }[];

/** The watches the spec file being loaded named, until its registration takes them (a batch only). */
let named: Watches = [];

/**
 * Starts watches as the worker starts (before the suite's first check), each
 * only when a check that reads it is selected, so that `--grep` on another
 * check (or an API version without the check) does not create tokens or ask
 * for consent for nothing. The selection is the one `run` computed and gave
 * Playwright (harness/cli/selection.ts), read from the run context. In a
 * batch (part.ts) each part's watches start as its own first check comes,
 * as they would in a run of that part alone: the spec file's registration
 * takes them (takeWatches) for each part's describe block.
 */
export function startFirst(watches: Watches): void {
  if (runContext().runs.length > 1) { named = watches; return; }
  test.beforeAll(() => {
    testsStarted();
    startWatches(runContext().runs[0]!.name, watches);
  });
}

/** The watches the spec file being loaded named (none when it named none); each file's registration takes them once. */
export function takeWatches(): Watches {
  const out = named;
  named = [];
  return out;
}

/** Starts, as part `part`, the watches that a check of its selection reads. */
export function startWatches(part: string, watches: Watches): void {
  const selected = new Set(runContext().runs.find(r => r.name === part)?.selected ?? []);
  inPart(part, () => { for (const w of watches) if (w.readers.some(k => selected.has(k.id))) w.start(); });
}
