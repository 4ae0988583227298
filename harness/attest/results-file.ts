// results.json of a report folder, read the way every command that judges one
// reads it: refused unless it has the shape of contracts/results.yaml, and its
// verdict computed again from the checks, never taken from the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { validateContract } from '../contracts/index.ts';
import type { RunResults } from '../results/model.ts';
import { summarize } from '../report/verdict.ts';

/** The results with their summary computed again; `where` names the file in the sentence. */
export function checkedResults(where: string, r: RunResults): RunResults {
  if (!r || typeof r !== 'object' || !Array.isArray(r.checks) || (r.notSelected !== undefined && !Array.isArray(r.notSelected)))
    throw new HarnessError('PIS_BAD_INPUT', `${where} is not the results of a run (no list of checks): give the folder a run of this tool wrote.`);
  const results = { ...r, summary: summarize([...r.checks, ...(r.notSelected ?? [])], { interrupted: r.interrupted === true }) };
  const wrong = validateContract('results', results).filter(v => v.level === 'must');
  if (wrong.length)
    throw new HarnessError('PIS_BAD_INPUT', `${where} is not the results of a run of this tool (${wrong.length} problem${wrong.length === 1 ? '' : 's'}, ` +
      `the first: ${wrong[0].pointer || '/'} should be ${wrong[0].expected}, found ${wrong[0].found}): give the folder a run wrote, unchanged.`);
  return results;
}

/** results.json of `dir`, checked. */
export function readResults(dir: string): RunResults {
  return readResultsFile(join(dir, 'results.json'));
}

/** A results.json by its path (a baseline may be kept under any name), checked. */
export function readResultsFile(file: string): RunResults {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    throw new HarnessError('PIS_BAD_INPUT', `${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ` +
      'give the results.json of a run that finished.');
  }
  let r: RunResults;
  try { r = JSON.parse(text) as RunResults; } catch (e) {
    throw new HarnessError('PIS_BAD_INPUT', `${file} is not valid JSON (${(e as Error).message}): give the folder a run wrote, unchanged.`);
  }
  return checkedResults(file, r);
}
