// certify-receiver as a user runs it: a child process, its plan line, exit
// statuses, the report folder without the api-key, pre-flight failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttp } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli } from '../helpers/cli.ts';
import { closedPort } from '../helpers/closed-port.ts';
import { startBin } from '../helpers/process.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { startReceiver } from '../fixtures/receivers/receiver.ts';
import { API_KEY, cliJudged } from './certify-helper.ts';

// A correct receiver must pass the timing checks even on a starved machine:
// scale 0.5 (5 s = 2.5 s) leaves room for stalls of over a second seen in bursts.
const FAST = ['--time-scale', '0.5', '--concurrency', '10'];

function tmp(): string { return mkdtempSync(join(tmpdir(), 'pis-certify-')); }


test('the correct receiver without --state-url: plan line first, incomplete (exit 0 with --allow-incomplete), ' +
  'a report folder with the picture and no api-key', async () => {
  const r = await startReceiver({ apiKey: API_KEY, timeScale: 0.5 });
  const root = tmp();
  let runs = 0;
  try {
    // A report folder per run: a run the machine's stalls blurred is made again (cliJudged).
    const out = await cliJudged(() => ['certify-receiver', '--url', r.url, '--api-key', API_KEY, ...FAST, '--report', join(root, String(++runs)),
      '--allow-incomplete'], 0.5, x => assert.equal(x.code, 0, x.stdout + x.stderr));
    const dir = join(root, String(runs));
    const first = out.stdout.split('\n')[0];
    assert.match(first, new RegExp(`^\\d+ requests will go to ${r.url.replace(/[.]/g, '\\.')} `));
    assert.match(out.stdout, /\[\s*\d+\/\d+\] concurrency/, 'progress lines');
    // A pause the service makes is said as it starts, with its length and why (before: seconds without a line).
    assert.match(out.stdout, /^… waiting \d+\.\d s: the minimum retry delay of spec 6\.5, before /m);
    assert.match(out.stdout, /SKIP receiver\.idempotency\.state-after-duplicates .*--state-url/);
    // The three state checks need --state-url: without it the certification is incomplete, and says what to give.
    // Served over plain HTTP: said once, second, and not a failed check (spec 4.3: the service calls over HTTPS).
    assert.match(out.stdout.split('\n')[1], /^note: HTTPS was not used: .*certify the https:\/\/ address it will call\.$/);
    assert.match(out.stdout, /SKIP receiver\.accepts\.over-https /);
    // (The p99 advice may warn on a loaded machine: every failure is a warning.)
    assert.match(out.stdout, /^Incomplete: \d+ passed, 0 failed(?:, \d+ warnings?)?, 4 skipped \(3 not run, 1 not applicable\)\.\nNot run: give --state-url to run 3 receiver checks\.$/m);
    assert.deepEqual(readdirSync(dir).sort(), ['index.html', 'junit.xml', 'plan.json', 'results.json', 'results.jsonl']);
    for (const f of readdirSync(dir)) assert.equal(readFileSync(join(dir, f), 'utf8').includes(API_KEY), false, f);
    assert.equal(out.stdout.includes(API_KEY), false);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    assert.match(html, /<svg[^>]*class="latency-chart"/);
    assert.match(html, /data-verdict="incomplete"/);
  } finally { await r.close(); rmSync(root, { recursive: true, force: true }); }
});

test('a receiver without a key check: exit 1, the failure shows the request with the key redacted and a curl line', async () => {
  const r = await startReceiver({ apiKey: API_KEY, fault: 'no-key-check', timeScale: 0.5 });
  const dir = tmp();
  try {
    // A 200 to a forged delivery is judged by what the state shows of it.
    const out = await runCli(['certify-receiver', '--url', r.url, ...FAST, '--state-url', r.stateUrl, '--report', dir],
      { env: { PIS_WEBHOOK_API_KEY: API_KEY } });
    assert.equal(out.code, 1, out.stdout + out.stderr);
    assert.match(out.stdout, /FAIL receiver\.auth\.wrong-key/);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    const wrong = results.checks.find((c: { id: string }) => c.id === 'receiver.auth.wrong-key');
    const ev = wrong.evidence[0];
    assert.equal(ev.request.headers['api-key'], '[redacted]');
    assert.equal(ev.response.status, 200);
    assert.match(ev.curl, /^curl .*-H 'api-key: wrong-/);
    const missing = results.checks.find((c: { id: string }) => c.id === 'receiver.auth.missing-key');
    assert.equal('api-key' in missing.evidence[0].request.headers, false);
    // A valid delivery's curl line names the variable, never the key.
    const accepts = JSON.stringify(results.checks);
    assert.equal(accepts.includes(API_KEY), false);
  } finally { await r.close(); rmSync(dir, { recursive: true, force: true }); }
});

test('refuses a plan larger than --max-requests before sending anything (exit 2, one sentence)', async () => {
  const r = await startReceiver({ apiKey: API_KEY });
  const parent = tmp();
  const dir = join(parent, 'report');
  try {
    const out = await runCli(['certify-receiver', '--url', r.url, '--api-key', API_KEY, '--max-requests', '20', '--report', dir]);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /^pis-conformance certify-receiver: \[PIS_BAD_FLAG\] .*--max-requests/);
    assert.equal(out.stderr.trim().split('\n').length, 1);
    assert.equal(r.received, 0);
    assert.equal(existsSync(dir), false);
  } finally { await r.close(); rmSync(parent, { recursive: true, force: true }); }
});

test('an unreachable URL is a pre-flight failure: exit 2, one sentence, no report', async () => {
  const port = await closedPort();
  const parent = tmp();
  const dir = join(parent, 'report');
  try {
    const out = await runCli(['certify-receiver', '--url', `http://127.0.0.1:${port}/hooks`, '--api-key', API_KEY, '--report', dir]);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /Cannot reach the webhook receiver at http:\/\/127\.0\.0\.1:\d+\/hooks \(nothing is listening there\): check the URL/);
    assert.equal(out.stderr.trim().split('\n').length, 1);
    assert.equal(existsSync(dir), false);
  } finally { rmSync(parent, { recursive: true, force: true }); }
});

test('missing flags and bad values are exit 2 with a sentence naming the fix', async () => {
  const noKey = await runCli(['certify-receiver', '--url', 'http://127.0.0.1:9/hooks'], { env: { PIS_WEBHOOK_API_KEY: '' } });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /pass --api-key or set PIS_WEBHOOK_API_KEY/);
  // Spec 5.4, "The key may have any format": a short key is sent, with a warning; one no header can carry is refused.
  const shortKey = await runCli(['certify-receiver', '--url', `http://127.0.0.1:${await closedPort()}/hooks`, '--api-key', 'abc']);
  assert.equal(shortKey.code, 2);
  assert.match(shortKey.stderr, /warning: the webhook api-key is shorter than 8 characters/);
  assert.match(shortKey.stderr, /Cannot reach the webhook receiver/);
  const badKey = await runCli(['certify-receiver', '--url', 'http://127.0.0.1:9/hooks', '--api-key', 'line\nbreak']);
  assert.equal(badKey.code, 2);
  assert.match(badKey.stderr, /characters an HTTP header cannot carry/);
  const badState = await runCli(['certify-receiver', '--url', 'http://127.0.0.1:9/hooks', '--api-key', API_KEY, '--state-url', 'http://x/checkouts']);
  assert.equal(badState.code, 2);
  assert.match(badState.stderr, /--state-url must contain \{id\}/);
  // A bad time scale is named where it was given: the flag, or the variable.
  const base = ['certify-receiver', '--url', 'http://127.0.0.1:9/hooks', '--api-key', API_KEY];
  const zeroFlag = await runCli([...base, '--time-scale', '0']);
  assert.equal(zeroFlag.code, 2);
  assert.match(zeroFlag.stderr, /\[PIS_BAD_FLAG\] --time-scale must be a positive number, not '0'/);
  const badVar = await runCli(base, { env: { PIS_TIME_SCALE: '-1' } });
  assert.equal(badVar.code, 2);
  assert.match(badVar.stderr, /\[PIS_BAD_CONFIG\] PIS_TIME_SCALE must be a positive number, not '-1'/);
});

test('HTTPS: a self-signed certificate is a TLS pre-flight failure naming --insecure, and is accepted with it', async () => {
  const r = await startReceiver({ apiKey: API_KEY, timeScale: 0.5, tls: true });
  const dir = tmp();
  try {
    const refused = await runCli(['certify-receiver', '--url', r.url, '--api-key', API_KEY, ...FAST, '--report', join(dir, 'no')]);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /TLS .*--insecure/);
    let runs = 0;
    const ok = await cliJudged(() => ['certify-receiver', '--url', r.url, '--api-key', API_KEY, ...FAST, '--insecure', '--state-url', r.stateUrl,
      '--report', join(dir, `yes-${++runs}`)], 0.5, x => assert.equal(x.code, 0, x.stdout + x.stderr));
    assert.match(ok.stdout, /PASS receiver\.idempotency\.state-after-burst/);
  } finally { await r.close(); rmSync(dir, { recursive: true, force: true }); }
});

test('a wrong --api-key: every accepts check fails and says to check the key', async () => {
  const r = await startReceiver({ apiKey: API_KEY, timeScale: 0.2 });
  const dir = tmp();
  try {
    const out = await runCli(['certify-receiver', '--url', r.url, '--api-key', 'not-the-registered-key', '--time-scale', '0.2', '--concurrency', '4',
      '--report', dir]);
    assert.equal(out.code, 1);
    assert.match(out.stdout, /FAIL receiver\.accepts\.normal-statuses .*refused with 401: check that --api-key is the key registered/);
  } finally { await r.close(); rmSync(dir, { recursive: true, force: true }); }
});

test('Ctrl-C during a certification: exit 2, a report with what was found, the verdict Interrupted', async () => {
  // A receiver that accepts connections and never answers: at time scale 1 the first deliveries wait 5 s.
  const silent = createHttp(() => { /* never answers */ });
  await new Promise<void>(r => silent.listen(0, '127.0.0.1', r));
  const dir = tmp();
  try {
    const run = startBin(['certify-receiver', '--url', `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`, '--api-key', API_KEY,
      '--report', dir]);
    await run.waitFor(/\] accepts: /);
    process.kill(-run.pid, 'SIGINT');
    const { code, signal } = await run.closed;
    assert.deepEqual({ code, signal }, { code: 2, signal: null }, run.out() + run.err());
    assert.match(run.out(), /\nInterrupted: /);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.summary.verdict, 'interrupted');
    // What finished before the signal is kept; the deliveries cut off by it fail nothing.
    assert.equal(results.checks.find(c => c.id === 'receiver.accepts.over-https')?.skipKind, 'not-applicable');
    assert.deepEqual(results.checks.filter(c => c.status === 'failed' && c.level === 'must').map(c => c.id), []);
    assert.ok(results.checks.filter(c => c.id.startsWith('receiver.accepts.normal')).every(c => c.skipKind === 'not-run'));
    for (const f of ['results.jsonl', 'junit.xml', 'index.html']) assert.ok(existsSync(join(dir, f)), f);
  } finally { silent.closeAllConnections(); silent.close(); rmSync(dir, { recursive: true, force: true }); }
});
