// What `run` tells Playwright's runner, reporter and workers travels in one
// typed run context (suites/support/context.ts): no file of the suites or the
// reporter's folder reads a PIS_ variable of its own. The secrets a user sets
// (PIS_CLIENT_SECRET, ...) reach them by the names the context lists, read
// where the target is joined (harness/config/env.ts) or hidden (the reporter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/cli.ts';

/** The one module that reads the context's variable. */
const CONTEXT_MODULE = 'suites/support/context.ts';

/** Reads of a PIS_ variable: `process.env.PIS_X`, `env.PIS_X`, `env['PIS_X']`, `process.env[`PIS_${...}`]`. */
export function strayReads(text: string): string[] {
  return [...text.matchAll(/\benv\s*(?:\.\s*PIS_[A-Z0-9_]*|\[\s*['"`]PIS_[^\]]*\])/g)].map(m => m[0]);
}

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap(e => {
    const p = `${dir}/${e.name}`;
    return e.isDirectory() ? walk(p) : /\.(ts|mts|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

test('the reads this test looks for are found (a stray read fails it)', () => {
  assert.deepEqual(strayReads("const d = process.env.PIS_REPORT_DIR; const g = env['PIS_GREP']; const w = process.env[`PIS_${x}`];"),
    ['env.PIS_REPORT_DIR', "env['PIS_GREP']", 'env[`PIS_${x}`]']);
  assert.deepEqual(strayReads('process.env[name]; env.FORCE_COLOR; const RUN = "PIS_RUN_CONTEXT";'), []);
});

test('no PIS_ variable is read in suites/ or harness/report/ except through the run context module', () => {
  const files = [...walk('suites'), ...walk('harness/report')].filter(f => f !== CONTEXT_MODULE);
  assert.ok(files.length > 50, `${files.length} files scanned`);
  const found = files.flatMap(f => strayReads(readFileSync(join(ROOT, f), 'utf8')).map(r => `${relative(ROOT, join(ROOT, f))}: ${r}`));
  assert.deepEqual(found, [], `read the run context (${CONTEXT_MODULE}) instead`);
  assert.equal(strayReads(readFileSync(join(ROOT, CONTEXT_MODULE), 'utf8')).length, 0, 'the context module reads its variable by its constant');
});
