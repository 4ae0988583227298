#!/usr/bin/env node
// The project's test command (`npm test`): type-check everything, then run every
// test/**/*.test.ts with Node's test runner through tsx. Extra arguments are
// file filters: `npm test -- reference` runs the tests whose path contains "reference".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const filters = process.argv.slice(2);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? (e.name === 'fixtures' ? [] : walk(join(dir, e.name))) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []);
}

const files = walk(join(root, 'test')).map(f => relative(root, f)).sort()
  .filter(f => !filters.length || filters.some(x => f.includes(x)));
if (!files.length) {
  console.error(`no test file matches ${filters.join(', ')}`);
  process.exit(1);
}

if (!process.env.PIS_SKIP_TYPECHECK) {
  console.log('type-checking (tsc --noEmit)...');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { stdio: 'inherit', cwd: root });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

// Tests mostly wait on servers and compressed clocks, not on the CPU, so more
// files run at once than there are cores; timing assertions carry tolerances.
const concurrency = process.env.PIS_TEST_CONCURRENCY ?? '4';
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files], { stdio: 'inherit', cwd: root, env: { ...process.env, PIS_TEST: '1' } });
process.exit(r.status ?? 1);
