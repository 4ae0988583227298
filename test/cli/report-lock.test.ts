// One report folder, one run at a time: a second run with the same --report
// stops with one sentence (exit 2) while the first holds it, and the lock of a
// process that is gone is taken over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockReportFolder } from '../../harness/report/folder.ts';
import { runCli } from '../helpers/cli.ts';

/** The pid of a process that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

test('a folder locked by a live process stops a second run with one sentence, exit 2, and leaves the lock alone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-lock-'));
  try {
    // This test's own process stands for the first run.
    writeFileSync(join(dir, '.pis-lock'), String(process.pid));
    const cli = await runCli(['run', '--suites', 'token', '--report', dir], { timeoutMs: 120_000 });
    assert.equal(cli.code, 2, cli.stdout + cli.stderr);
    assert.match(cli.stderr, new RegExp(
      `\\[PIS_BAD_FLAG\\] Another run \\(pid ${process.pid}\\) is writing the report folder .*: wait for it to end, or give another ` +
      '--report\\.\\n$'));
    assert.equal(cli.stderr.trim().split('\n').length, 1, cli.stderr);
    assert.equal(readFileSync(join(dir, '.pis-lock'), 'utf8'), String(process.pid));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('the lock of a process that is gone is taken over, and released; a folder the lock made and nothing filled is removed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-lock-'));
  try {
    const pid = deadPid();
    assert.ok(pid > 0);
    writeFileSync(join(dir, '.pis-lock'), String(pid));
    const release = lockReportFolder(dir);
    assert.equal(readFileSync(join(dir, '.pis-lock'), 'utf8'), String(process.pid));
    release();
    assert.ok(!existsSync(join(dir, '.pis-lock')));
    const fresh = join(dir, 'new', 'folder');
    const again = lockReportFolder(fresh);
    assert.ok(existsSync(join(fresh, '.pis-lock')));
    again();
    assert.ok(!existsSync(fresh), 'an empty folder the lock made is removed');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
