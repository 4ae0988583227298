// A run that selects no check could not be made: exit 2 with one sentence, no
// report folder, and reports/latest still points at the previous report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';

test('--grep that matches no check: exit 2, no report written, reports/latest unchanged', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pis-selection-'));
  try {
    const reports = join(root, 'reports');
    mkdirSync(join(reports, 'previous'), { recursive: true });
    symlinkSync('previous', join(reports, 'latest'));
    const r = await runCli(['run', '--suites', 'token', '--grep', 'nothing-matches-this', '--report', join(reports, 'new')], { timeoutMs: 120_000 });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /^pis-conformance run: \[PIS_BAD_FLAG\] .*--grep 'nothing-matches-this'/m);
    assert.equal(existsSync(join(reports, 'new')), false, 'no report folder');
    assert.equal(readlinkSync(join(reports, 'latest')), 'previous');
  } finally { rmSync(root, { recursive: true, force: true }); }
});
