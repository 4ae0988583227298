// `npm test`'s plan (`node scripts/test.mjs --plan`): every test file runs
// once, either in the process its folder's files share or in its own, and a
// file keeps its own for each reason scripts/test.mjs gives, a helper of test/
// it imports counting as the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/cli.ts';

interface Plan { shared: Record<string, string[]>; own: Record<string, string> }

async function plan(env: Record<string, string> = {}): Promise<Plan> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/test.mjs'), '--plan'],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  return JSON.parse(stdout) as Plan;
}

const testFiles = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap(e =>
  e.isDirectory() ? (e.name === 'fixtures' ? [] : testFiles(join(dir, e.name))) : e.name.endsWith('.test.ts') ? [relative(ROOT, join(dir, e.name))] : []);

test('every test file runs once: shared by its folder, or alone with the reason', async () => {
  const p = await plan();
  const placed = [...Object.values(p.shared).flat(), ...Object.keys(p.own)].sort();
  assert.deepEqual(placed, testFiles(join(ROOT, 'test')).sort());
  for (const [label, members] of Object.entries(p.shared)) {
    const folder = label.split(' ')[0]!;
    assert.ok(members.length >= 2, `${label}: a process is shared by two files at least`);
    assert.ok(members.every(f => f.startsWith(`${folder}/`)), `${label}: ${members.join(', ')}`);
    assert.match(label, new RegExp(`^${folder} \\(${members.length} files in one process\\)$`));
  }
  // A file that only computes shares its folder's process.
  assert.ok(Object.values(p.shared).some(m => m.includes('test/http/url.test.ts')), 'test/http/url.test.ts shares a process');
  // Each reason, the first two through a helper of test/ the file imports.
  assert.equal(p.own['test/helpers/again-on-stall.test.ts'], 'it starts processes', 'through test/helpers/cli.ts');
  assert.equal(p.own['test/sink/reference-faults-a.test.ts'], 'it judges milliseconds', 'through test/sink/reference-cases.ts');
  assert.equal(p.own['test/report/hostile-report.test.ts'], 'a hook at its top level');
  assert.equal(p.own['test/sink/server.test.ts'], 'it reads the wall clock');
  assert.equal(p.own['test/suites/target.test.ts'], 'named in OWN_PROCESS');
  assert.equal(p.own['test/run/catalog.test.ts'], 'among the longest');
  assert.equal(p.own['test/run/default.test.ts'], 'run alone');
});

test('PIS_TEST_SEPARATE=1: every file its own process', async () => {
  const p = await plan({ PIS_TEST_SEPARATE: '1' });
  assert.deepEqual(p.shared, {});
  assert.equal(p.own['test/http/url.test.ts'], 'PIS_TEST_SEPARATE');
  assert.equal(Object.keys(p.own).length, testFiles(join(ROOT, 'test')).length);
});
