// --grep picks checks by id and --no-profile leaves profile.md's checks out;
// the progress line of every check reaches the terminal as it finishes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/report/model.ts';
import { runCli } from '../helpers/cli.ts';

test('--grep and --no-profile narrow the run; the summary names the report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-options-'));
  try {
    const r = await runCli(['run', '--suites', 'token', '--grep', 'token\\.errors\\.', '--no-profile', '--report', dir], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.ok(results.checks.length >= 5, `${results.checks.length} checks`);
    assert.ok(results.checks.every(c => c.id.startsWith('token.errors.') && c.level === 'must'), results.checks.map(c => `${c.id} ${c.level}`).join(', '));
    for (const c of results.checks) assert.match(r.stdout, new RegExp(`ok   ${c.id.replace(/\./g, '\\.')} `));
    assert.match(r.stdout, new RegExp(`Conformant: ${results.checks.length} passed, 0 failed, 0 skipped\\.\\nReport: .*index\\.html`));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
