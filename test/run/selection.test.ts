// What --grep selects: a run that selects no check could not be made (exit 2 with one sentence, no
// report folder, reports/latest unchanged); requirement ids select their checks as ids and titles do.
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

test('--grep matches the requirement ids --list shows, in --list and in a run (Playwright tags), as it matches ids and titles', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-grep-req-'));
  try {
    const list = await runCli(['run', '--list', '--grep', 'R4\\.1-obtain-token']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^token\.issue\.access-token +must +spec 4\.1 +R2\.1-access-token,R4\.1-obtain-token /m);
    assert.match(list.stdout, /^1 check in 1 suite \(token\)/m);
    // Before: 'No check matches --grep', exit 2.
    const r = await runCli(['run', '--suites', 'token', '--grep', 'R4\\.1-obtain-token', '--workers', '1', '--report', dir], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^ok {3}token\.issue\.access-token /m);
    assert.match(r.stdout, /Conformant: 1 passed, /);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
