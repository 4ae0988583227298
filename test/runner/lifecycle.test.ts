// The Playwright runner and its workers live no longer than `run`
// (harness/runner/guard.mjs), and a reader that hangs up early does not cost
// the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendants, startBin, waitGone } from '../helpers/process.ts';

test('run lifecycle', { concurrency: true }, async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-lifecycle-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const running: Promise<void>[] = [];

  running.push(t.test('SIGKILL to the binary (a CI timeout) leaves no process of the run behind', async () => {
    const report = join(dir, 'killed');
    // The webhook suite's checks keep their worker waiting for run's drive a while.
    const run = startBin(['run', '--suites', 'token,webhook', '--report', report]);
    await run.waitFor(/^Running \d+ checks/m);
    // The runner, then its workers as they start.
    let tree = descendants(run.pid);
    for (let i = 0; i < 200 && tree.length < 3; i++) { await new Promise(r => setTimeout(r, 50)); tree = descendants(run.pid); }
    assert.ok(tree.length >= 3, `the runner and its workers: ${JSON.stringify(tree)}`);
    process.kill(run.pid, 'SIGKILL');
    const { signal } = await run.closed;
    assert.equal(signal, 'SIGKILL');
    const survivors = await waitGone(tree, 5000);
    assert.deepEqual(survivors, [], 'every process of the run ends within 5 s');
    assert.ok(!existsSync(join(report, 'results.json')), 'nothing finished the run and wrote its report');
  }));

  running.push(t.test('a reader that hangs up after two lines (| head -2): no error, exit by the verdict, report written', async () => {
    const report = join(dir, 'head');
    const run = startBin(['run', '--suites', 'token', '--grep', 'token\\.issue\\.', '--report', report]);
    let lines = 0;
    run.child.stdout!.on('data', (d: Buffer) => {
      lines += d.toString().split('\n').length - 1;
      if (lines >= 2) run.child.stdout!.destroy();
    });
    const { code, signal } = await run.closed;
    assert.equal(signal, null);
    assert.equal(code, 0, run.err());
    assert.doesNotMatch(run.err(), /EPIPE|bug of the harness|internal error/);
    const results = JSON.parse(readFileSync(join(report, 'results.json'), 'utf8')) as { checks: unknown[] };
    assert.ok(results.checks.length >= 3, `${results.checks.length} checks`);
  }));
  await Promise.all(running);
});
