// Stop signals as a terminal and a CI runner send them to the installed binary:
// Ctrl-C reaches the whole foreground process group once; the command handles
// it once and lives to write its report (harness/stop.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBin } from '../helpers/process.ts';
import type { RunResults } from '../../harness/results/model.ts';

const ctrlC = (pid: number) => process.kill(-pid, 'SIGINT');

test('stop signals', { concurrency: true }, async t => {
  const running: Promise<void>[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pis-signals-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));

  // Three at once: before the fix the wrapper forwarded a second SIGINT after
  // the sink had removed its handler, and every one of them died without a report.
  for (const n of [1, 2, 3]) {
    running.push(t.test(`sink on Ctrl-C to its group writes its report (${n} of 3)`, async () => {
      const report = join(dir, `sink-${n}`);
      const sink = startBin(['sink', '--port', '0', '--api-key', 'signal-test-key', '--report', report]);
      await sink.waitFor(/sink listening at/);
      ctrlC(sink.pid);
      const { code, signal } = await sink.closed;
      assert.equal(signal, null, `killed by ${signal}:\n${sink.out()}\n${sink.err()}`);
      assert.ok(code === 0 || code === 1, `exit ${code}:\n${sink.out()}\n${sink.err()}`);
      assert.match(sink.out(), /sink stopped \(interrupted\)/);
      for (const f of ['results.json', 'junit.xml', 'index.html']) assert.ok(existsSync(join(report, f)), `${f} missing`);
    }));
  }

  running.push(t.test('serve-reference on Ctrl-C to its group stops cleanly, exit 0 as its help says', async () => {
    const ref = startBin(['serve-reference']);
    await ref.waitFor(/Press Ctrl-C to stop/);
    ctrlC(ref.pid);
    const { code, signal } = await ref.closed;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, ref.err());
    assert.match(ref.out(), /reference implementation stopped\./);
  }));

  running.push(t.test('run on Ctrl-C: the reporter writes what it has, exit 2, verdict Interrupted', async () => {
    const report = join(dir, 'run');
    const run = startBin(['run', '--suites', 'token', '--report', report]);
    // The first finished check: the run is well under way, and far from its end.
    await run.waitFor(/^(ok  |FAIL|skip|warn) token\./m);
    ctrlC(run.pid);
    const { code, signal } = await run.closed;
    assert.equal(signal, null);
    assert.equal(code, 2, `${run.out()}\n${run.err()}`);
    assert.match(run.out(), /\nInterrupted: \d+ passed, \d+ failed, \d+ skipped \(\d+ not run\)[^\n]*\.\nThe run was stopped before it finished; \d+ checks have no result: run it again to get a verdict\.\nReport: /);
    const results = JSON.parse(readFileSync(join(report, 'results.json'), 'utf8')) as RunResults;
    assert.ok(results.checks.some(c => c.status !== 'skipped'), 'results.json holds the checks that finished');
    // Interrupted, never failed: the checks cut off or never started did not run.
    assert.equal(results.summary.verdict, 'interrupted');
    assert.ok(results.checks.some(c => c.skipKind === 'not-run'), 'the checks without a result are listed as not run');
    assert.deepEqual(results.checks.filter(c => c.status === 'failed').map(c => c.id), []);
    assert.doesNotMatch(run.err(), /bug of the harness|internal error/);
  }));

  // At time scale 1 the webhook drive (in `run`'s own process) lasts 70 s and more, at time scale 2
  // 140 s and more: a run that ends well before that was stopped by the signal or the global
  // timeout, its sink closed with it.
  const stopDrive = (o: { env?: Record<string, string>; scale: number; args: string[]; under: RegExp[]; stop: (pid: number) => void;
    interrupted: RegExp; maxAfterS: number }) => async () => {
    const temp = mkdtempSync(join(dir, 'tmp-'));
    const report = join(temp, 'report');
    const run = startBin(['run', '--time-scale', String(o.scale), '--report', report, ...o.args], { env: { ...o.env, TMPDIR: temp } });
    // Playwright's start alone took 41 s at load 11: a line may take 50 s per unit of time scale, and the drive lasts longer.
    for (const line of o.under) await run.waitFor(line, Math.max(60_000, 50_000 * o.scale));
    const stopped = performance.now();
    o.stop(run.pid);
    const { code, signal } = await run.closed;
    const after = (performance.now() - stopped) / 1000;
    assert.deepEqual({ code, signal }, { code: 2, signal: null }, `${run.out()}\n${run.err()}`);
    assert.ok(after < o.maxAfterS, `the run went on for ${after.toFixed(1)} s after the stop (at most ${o.maxAfterS} s)`);
    assert.deepEqual(readdirSync(temp).filter(n => n.startsWith('pis-')), [], 'the run removed its temp folder');
    assert.match(run.out(), o.interrupted);
    if (existsSync(join(report, 'results.json')))
      assert.equal((JSON.parse(readFileSync(join(report, 'results.json'), 'utf8')) as RunResults).summary.verdict, 'interrupted');
  };
  const drive = 'during the webhook drive: the drive ends, exit 2, Interrupted, no temp folder left';
  // One worker, token first: the signal comes once it runs, as the webhook check begins. Time scale 2,
  // so that a loaded machine's slow Playwright start still leaves the drive running when the token check is done.
  running.push(t.test(`run on Ctrl-C ${drive}`, stopDrive({
    scale: 2, args: ['--suites', 'token,webhook', '--workers', '1', '--grep', 'token\\.issue\\.access-token|webhook\\.body\\.valid'],
    under: [/^ok {3}token\.issue\.access-token/m, /^… waiting: webhook: \d+ of \d+ checkouts delivered/m], stop: ctrlC,
    interrupted: /\nInterrupted: 1 passed, 0 failed, 1 skipped \(1 not run\)/, maxAfterS: 30,
  })));
  // The drive starts before Playwright, whose global timeout then ends the run (on a loaded machine, maybe before it
  // collected the check). Playwright counts it from its own start, which took 41 s at load 11: at time scale 2 the drive
  // lasts 140 s and more, so an end within 120 s of the drive's start is the timeout's.
  running.push(t.test(`run at PIS_GLOBAL_TIMEOUT_S ${drive}`, stopDrive({
    env: { PIS_GLOBAL_TIMEOUT_S: '5' }, scale: 2, maxAfterS: 120, args: ['--suites', 'webhook', '--grep', 'webhook\\.body\\.valid'],
    under: [/^Driving the webhook checkouts/m], stop: () => {},
    interrupted: /\nInterrupted: (0 passed, 0 failed, 1 skipped \(1 not run\)|no check finished before the stop\.\n)/,
  })));

  running.push(t.test('Ctrl-C while nothing can be saved yet (a pre-flight waiting on a silent target) ends at once, exit 2', async () => {
    const silent = createServer(() => { /* accepts, never answers */ });
    await new Promise<void>(r => silent.listen(0, '127.0.0.1', r));
    const connected = new Promise<void>(r => silent.once('connection', () => r()));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const run = startBin(['run', '--auth-url', url, '--base-url', url, '--client-id', 'x', '--report', join(dir, 'silent')],
        { env: { PIS_CLIENT_SECRET: 'some-secret' } });
      await connected;
      ctrlC(run.pid);
      const { code, signal } = await run.closed;
      assert.deepEqual({ code, signal }, { code: 2, signal: null });
      assert.match(run.err(), /^pis-conformance run: stopped by SIGINT before it finished\.\n$/);
      assert.ok(!existsSync(join(dir, 'silent')), 'no report folder');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }));
  await Promise.all(running);
});
