// Starts the watches of support/waits.ts as a suite's worker starts, so that
// their waits run beside the suite's other checks.
import { test } from './test.ts';
import type { Check } from './check.ts';
import { grepTitle } from '../../harness/report/check.ts';
import { checkExistsAt } from '../../harness/requirements/versions.ts';
import { target } from './target.ts';

/**
 * Starts watches as the worker starts (before the suite's first check), each
 * only when a check that reads it is selected, so that `--grep` on another
 * check (or an API version without the check) does not create tokens or ask
 * for consent for nothing. Selection is
 * read from --grep the way Playwright matches it (file, id and title); a check
 * selected in a way this misses starts its watch itself when it runs.
 */
export function startFirst(file: string, watches: { readers: Check[]; start: () => unknown }[]): void {
  test.beforeAll(() => {
    for (const w of watches) if (w.readers.some(k => selected(file, k))) w.start();
  });
}

function selected(file: string, k: Check): boolean {
  if (!checkExistsAt(k, target().apiVersion)) return false;
  const grep = process.env.PIS_GREP;
  if (!grep) return true;
  try { return new RegExp(grep).test(`${file} ${grepTitle(k)}`); } catch { return true; }
}
