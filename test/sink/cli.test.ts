// `pis-conformance sink` as a user runs it: a child process that prints its URL
// and a live line, records a sender it cannot drive, writes the report, exits 0/1/2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { ROOT, runCli } from '../helpers/cli.ts';
import { startSender, type SenderFlags } from './sender.ts';
import { judgeable } from './stall.ts';
import { PASSIVE_CYCLE } from '../../harness/sink/plan.ts';

/** Stalls of this process stand for the machine's load: the sink and the sender here are as late as it is. */
const STALL_LIMIT_MS = 150;

// The sink judges timing in spec seconds; on a compressed clock the machine's
// scheduling noise (real ms) weighs 1/scale times more. The timing-judging case
// runs at 0.1 with a tolerance floor of 150 real ms; the cases that judge only
// retries and keys run at 0.05 to stay short.
const TIMING_SCALE = 0.1;
/**
 * The correct sender's session ends when the sender has had every event of every checkout acknowledged, plus
 * SETTLE_MARGIN_MS: the sink then gets SIGTERM and judges, as a user stops it. It once listened a fixed 14, then 18,
 * then 30 real s, each raised for a clean-clone run that ended Incomplete with places not reached; the cause was the
 * passive cycle taken in arrival order, which gave a batch checkout a normal place when checkouts arrived out of
 * creation order (now `passiveChooser`, harness/sink/plan.ts). The sender's chains take about 10 real s on a quiet
 * machine; CORRECT_SENDER_CAP_S only bounds a sender that never settles.
 */
const CORRECT_SENDER_CAP_S = 120;
const SETTLE_MARGIN_MS = 500;
const FAST_SCALE = 0.05;
const KEY = 'cli-sink-key-789';

/** Runs the sink for `seconds`, or, with `untilSettled`, until the sender is done (then SIGTERM, as a user's stop). */
async function runSink(flags: SenderFlags, seconds: number, scale: number, untilSettled = false) {
  const dir = mkdtempSync(join(tmpdir(), 'pis-sink-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'harness/cli.ts', 'sink', '--port', '0', '--api-key', KEY,
    '--duration', String(seconds), '--time-scale', String(scale), '--report', dir,
    // Wider than the default 25 ms: the sender here shares two cores with child processes starting up.
    '--timing-tolerance', '150'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  // Listened for at once: the sink may end (its --duration) before the sender is done.
  const exited = new Promise<number | null>(resolve => child.on('close', resolve));
  let stdout = '', stderr = '';
  child.stderr.on('data', d => { stderr += d; });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', d => { stdout += d; const m = /listening at (\S+)/.exec(stdout); if (m) resolve(m[1]); });
    void exited.then(() => reject(new Error(`sink exited early:\n${stdout}\n${stderr}`)));
  });
  const sender = await startSender(scale, flags);
  // One checkout per entry of the passive cycle, so every must check has something to judge: the entries that fail
  // at an event position get a checkout of the kind they name. Every checkout has a middle event: the sink hands the
  // entries out as the checkouts arrive, which need not be the order they were created in, so any normal checkout may
  // get the normal middle place. (One cancelled after STARTED once did: the place was handed back and no normal
  // checkout came after it. test/sink/passive.test.ts shows the hand-back.)
  for (let i = 0; i < PASSIVE_CYCLE.length; i++) {
    const kind = PASSIVE_CYCLE[i].name.startsWith('batch') ? 'batch' : 'normal';
    await request(`${sender.controlUrl}/checkouts`, { method: 'POST', body: JSON.stringify({ kind,
      statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'], webhook: { url: `${url}/webhook`, apiKey: KEY } }) })
      .then(r => r.body.text());
  }
  const startedMs = Date.now();
  if (untilSettled) {
    void Promise.race([exited, sender.settled().then(() => new Promise(r => setTimeout(r, SETTLE_MARGIN_MS)))])
      .then(() => { if (child.exitCode === null) child.kill('SIGTERM'); });
  }
  const code = await exited;
  const listenedMs = Date.now() - startedMs;
  await sender.close();
  return { code, stdout, stderr, dir, listenedMs };
}

test('sink command', { concurrency: true }, async t => {
  await Promise.all([
    t.test('a correct sender: a line per attempt, the counts, report written, exit 0, no api-key in any file', async () => {
      const once = async () => {
        const r = await runSink({}, CORRECT_SENDER_CAP_S, TIMING_SCALE, true);
        let checks: Array<{ id: string; status: string; message?: string }> = [];
        try { checks = JSON.parse(readFileSync(join(r.dir, 'results.json'), 'utf8')).checks; } catch { /* asserted below */ }
        return { ...r, checks };
      };
      const dirs: string[] = [];
      const { result: { code, stdout, stderr, dir, checks, listenedMs }, blurred } = await judgeable(async () => {
        const r = await once();
        dirs.push(r.dir);
        return r;
      }, STALL_LIMIT_MS, r => r.code === 0);
      try {
        // What was not passed comes first: the attempt lines run to hundreds and a CI log keeps the head only.
        const notPassed = checks.filter(c => c.status !== 'passed')
          .map(c => `${c.status} ${c.id}: ${c.message ?? ''}`).join('\n');
        assert.equal(code, 0, `not passed:\n${notPassed}\n${stderr}${blurred}\n${stdout.split('\n').slice(-30).join('\n')}\n--- whole output ---\n${stdout}`);
        assert.match(stdout, /\n\d\d:\d\d:\d\d\.\d{3}  #1  \S+ +STARTED +→ \d{3}.*  api-key ok\n/, 'a line per attempt');
        assert.match(stdout, new RegExp(`checkouts ${PASSIVE_CYCLE.length} · attempts`));
        assert.match(stdout, /· attempts \d+ · failures provoked \d+ · retries seen \d+/);
        assert.match(stdout, /Conformant/);
        const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
        assert.equal(results.command, 'sink');
        assert.ok(results.deliveries.length >= 20, `deliveries: ${results.deliveries.length}`);
        assert.ok(results.checks.some((c: { id: string; status: string }) => c.id === 'webhook.backoff.growth' && c.status === 'passed'), 'growth judged');
        // The report spans the session, not the moment of writing it.
        const spanMs = Date.parse(results.finishedAt) - Date.parse(results.startedAt);
        assert.ok(spanMs >= listenedMs - 1000, `${results.startedAt} to ${results.finishedAt}, listened ${listenedMs} ms`);
        assert.match(stdout, /sink stopped \(SIGTERM received\)/, 'stopped when the sender was done, not by the cap');
        for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), 'utf8').includes(KEY), `${f} holds the api-key`);
      } finally { for (const d of dirs) rmSync(d, { recursive: true, force: true }); }
    }),
    t.test('a sender that never retries: exit 1, webhook.retry named', async () => {
      const { code, stdout, dir } = await runSink({ noRetry: true }, 7, FAST_SCALE);
      rmSync(dir, { recursive: true, force: true });
      assert.equal(code, 1, stdout);
      assert.match(stdout, /FAIL webhook\.retry\.after-500/);
    }),
    t.test('a sender that never sends the api-key: nothing of it can be told from a stranger\'s, and webhook.auth.api-key fails', async () => {
      const { code, stdout, dir } = await runSink({ noKey: true }, 4, FAST_SCALE);
      try {
        assert.equal(code, 1, stdout);
        assert.match(stdout, /FAIL webhook\.auth\.api-key .*\n.*none of \d+ attempts carried the registered api-key/);
        assert.match(stdout, /api-key MISSING/, 'each attempt line says the key is missing');
        const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
        assert.ok(results.deliveries.length > 0 && results.deliveries.every((d: { unattributed?: string }) => d.unattributed));
      } finally { rmSync(dir, { recursive: true, force: true }); }
    }),
    t.test('bad flags: one sentence, exit 2', async () => {
      const r = await runCli(['sink', '--port', '0'], { env: { PIS_WEBHOOK_API_KEY: '' } });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--api-key/);
      const p = await runCli(['sink', '--port', 'x', '--api-key', 'k']);
      assert.equal(p.code, 2);
      assert.match(p.stderr, /--port must be a whole number/);
      // The sender's clock from the environment, as certify-receiver and run read it (it was ignored before).
      const [scaleVar, scaleFlag] = await Promise.all([
        runCli(['sink', '--port', '0', '--api-key', 'k'], { env: { PIS_TIME_SCALE: '-1' } }),
        runCli(['sink', '--port', '0', '--api-key', 'k', '--time-scale', '0'], { env: { PIS_TIME_SCALE: '0.5' } }),
      ]);
      assert.equal(scaleVar.code, 2);
      assert.match(scaleVar.stderr, /\[PIS_BAD_CONFIG\] PIS_TIME_SCALE must be a positive number, not '-1'\.$/m);
      assert.equal(scaleFlag.code, 2);
      assert.match(scaleFlag.stderr, /\[PIS_BAD_FLAG\] --time-scale must be a positive number, not '0'\.$/m);
    }),
  ]);
});
