// What a run prints: the status line while checks wait (on a terminal and in a
// log), the recap of failures at the end, and the json and github forms of
// --reporter. Fake streams and a fake clock; one real run shows a token's
// lifetime wait and the json form end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult, HttpEvidence } from '../../harness/results/model.ts';
import { LiveStatus, encodeWait, splitWaits } from '../../harness/report/wait.ts';
import { Terminal } from '../../harness/report/terminal.ts';
import { formatRecap } from '../../harness/report/progress.ts';
import { runCli } from '../helpers/cli.ts';

function sink(tty = false) {
  const chunks: string[] = [];
  return { isTTY: tty, columns: 80, write: (s: string) => { chunks.push(s); return true; }, text: () => chunks.join(''), chunks };
}

function exchange(url: string, status: number, primary = false): HttpEvidence {
  return { kind: 'http', request: { method: 'GET', url, headers: {} }, response: { status, headers: {} }, startedAt: '2026-11-22T10:00:00Z',
    durationMs: 3, curl: `curl -sS '${url}'`, ...(primary ? { primary } : {}) };
}

const base = { suite: 'data' as const, spec: '2.6', title: 'A title', evidence: [], durationMs: 10 };
const bic: CheckResult = { ...base, id: 'data.transactions.bic-length', level: 'must', status: 'failed', expected: '8 or 11 characters',
  seen: '"DNBANOKKX" (9)', message: 'counterpartyAgent of t-1 is not 8 or 11 characters: expected 8 or 11 characters, seen "DNBANOKKX" (9)',
  evidence: [exchange('http://t/banks', 200), exchange('http://t/accounts/a-1/transactions', 200, true), exchange('http://t/accounts/a-2/transactions', 200)] };
const warn: CheckResult = { ...base, id: 'data.banks.profile-fields', level: 'profile', status: 'failed', message: 'bankingGroupName missing' };
const notRun: CheckResult = { ...base, id: 'token.expiry.old-token-refused', suite: 'token', level: 'must', status: 'skipped',
  message: 'expires_in 3600 s is more than the wait budget (raise --max-wait)' };
const ok: CheckResult = { ...base, id: 'data.banks.list', level: 'must', status: 'passed' };

test('wait notes travel in a worker\'s output and are taken out of what is printed', () => {
  const chunk = `before\n${encodeWait({ key: 'k', what: 'the token to expire', untilMs: 5 })}after\n`;
  assert.deepEqual(splitWaits(chunk), { notes: [{ key: 'k', what: 'the token to expire', untilMs: 5 }], text: 'before\nafter\n' });
  assert.deepEqual(splitWaits('plain\n'), { notes: [], text: 'plain\n' });
});

test('in a log: a wait is said at once with its time left, then a status line every 10 s of silence, never between other lines', () => {
  let now = 1_000_000;
  const out = sink(false);
  const s = new LiveStatus(out, 10_000, () => now);
  s.begin('token.expiry.old-token-refused');
  s.note({ key: 'token.expiry.old-token-refused', what: 'token.expiry.old-token-refused: the access token to expire', untilMs: now + 60_000 });
  s.note({ key: 'token.expiry.old-refresh-token-refused', what: 'the refresh token to expire', untilMs: now + 90_000 });
  assert.equal(out.text(), '', 'waits that begin together are said together, at the next tick');
  s.tick();
  assert.equal(out.text(),
    '… waiting: token.expiry.old-token-refused: the access token to expire; 60 s left · waiting: the refresh token to expire; 90 s left\n');
  s.note({ key: 'token.expiry.old-refresh-token-refused', what: '', end: true });
  now += 5_000; s.tick();
  assert.equal(out.chunks.length, 1, 'nothing before 10 s of silence');
  now += 5_000; s.tick();
  assert.equal(out.chunks.at(-1), '… waiting: token.expiry.old-token-refused: the access token to expire; 50 s left\n');
  s.finish('token.expiry.old-token-refused');
  s.begin('webhook.body.valid');
  now += 12_000; s.tick();
  assert.equal(out.chunks.at(-1), '… running: webhook.body.valid (12 s)\n');
  s.note({ key: 'webhook', what: 'webhook: 3 of 12 checkouts delivered', untilMs: now + 900_000, bound: true });
  s.tick();
  assert.equal(out.chunks.at(-1), '… waiting: webhook: 3 of 12 checkouts delivered; at most 900 s left\n');
  // A wait begun and ended between two ticks (notes read late, in one chunk, as when Playwright's runner starts after
  // the webhook drive ended) is over before it could be said: it is not said afterwards either.
  s.finish('webhook.body.valid'); s.note({ key: 'webhook', what: '', end: true });
  s.note({ key: 'drive', what: 'drive: 0 of 45 checkouts delivered' }); s.note({ key: 'drive', what: '', end: true });
  now += 12_000; s.tick();
  assert.ok(!out.text().includes('drive:'), out.text());
});

test('in a log while the run starts: what it is doing at the next tick, then every 3 s until a check begins, then every 10 s', () => {
  let now = 1_000_000;
  const out = sink(false);
  const s = new LiveStatus(out, 10_000, () => now);
  s.idle('collecting the checks');
  now += 1_000; s.tick();
  assert.deepEqual(out.chunks, ['… collecting the checks\n']);
  s.write('Running 130 checks in 5 suites\n');
  s.idle("starting the suites' workers (5)");
  now += 1_000; s.tick();
  assert.equal(out.chunks.at(-1), "… starting the suites' workers (5)\n", 'a new step is said at once');
  now += 2_000; s.tick();
  assert.equal(out.chunks.length, 3, 'then nothing before 3 s of silence');
  now += 1_000; s.tick();
  assert.equal(out.chunks.at(-1), "… starting the suites' workers (5)\n");
  s.begin('token.issue.access-token');
  s.finish('token.issue.access-token');
  const lines = out.chunks.length;
  now += 9_000; s.tick();
  assert.equal(out.chunks.length, lines, 'once a check has begun, silence is 10 s again');
});

test('on a terminal: one line rewritten in place, cleared before any other output', () => {
  let now = 0;
  const out = sink(true);
  const s = new LiveStatus(out, 10_000, () => now);
  s.note({ key: 'k', what: 'the token to expire', untilMs: 30_000 });
  assert.equal(out.text(), '\r\u001b[K… waiting: the token to expire; 30 s left');
  now = 1_000; s.tick();
  assert.equal(out.chunks.at(-1), '\r\u001b[K… waiting: the token to expire; 29 s left');
  s.write('ok   token.issue.access-token\n');
  assert.deepEqual(out.chunks.slice(-2), ['\r\u001b[K', 'ok   token.issue.access-token\n']);
  s.note({ key: 'k', what: '', end: true });
  s.stop();
  assert.ok(!out.text().endsWith('left'), 'the line is gone at the end');
});

test('the recap repeats each failure with expected, seen and the exchange it points at; then warnings; then must checks not run', () => {
  const text = formatRecap([ok, bic, warn, notRun]);
  const lines = text.split('\n');
  assert.deepEqual(lines.slice(0, 7), [
    'Failed (1, must):',
    '  FAIL data.transactions.bic-length [must, spec 2.6] A title',
    '       counterpartyAgent of t-1 is not 8 or 11 characters',
    '       expected: 8 or 11 characters',
    '       seen:     "DNBANOKKX" (9)',
    '       exchange: GET http://t/accounts/a-1/transactions -> 200',
    "       reproduce: curl -sS 'http://t/accounts/a-1/transactions'",
  ]);
  assert.match(text, /Warnings \(1, should and profile[^\n]*\n {2}warn data\.banks\.profile-fields/);
  assert.match(text, /Not run \(1, must\):\n {2}skip token\.expiry\.old-token-refused: expires_in 3600 s/);
  assert.equal(formatRecap([ok]), '');
});

test('--reporter json: a JSON line per check and a summary line on stdout, the rest on stderr', () => {
  const out = sink(), err = sink();
  const t = new Terminal('json', out, err, {});
  t.say('Running 4 checks');
  for (const c of [ok, bic, warn, notRun]) t.check(c);
  t.end([ok, bic, warn, notRun], 'reports/x/index.html');
  const lines = out.text().trim().split('\n').map(l => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(lines.map(l => [l.type, l.id ?? l.verdict]),
    [['check', ok.id], ['check', bic.id], ['check', warn.id], ['check', notRun.id], ['summary', 'not-conformant']]);
  assert.equal(lines[1].reproduce, "curl -sS 'http://t/accounts/a-1/transactions'");
  assert.equal(lines[1].evidence, undefined, 'evidence stays in results.json');
  assert.equal(lines[3].skipKind, 'not-run');
  assert.deepEqual(lines[4].mustNotRun, [notRun.id]);
  assert.equal(lines[4].report, 'reports/x/index.html');
  assert.match(err.text(), /Running 4 checks/);
});

test('--reporter github: line output, ::error and ::warning annotations escaped, and a job summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-terminal-'));
  try {
    const out = sink(), err = sink();
    const summary = join(dir, 'summary.md');
    const t = new Terminal('github', out, err, { GITHUB_STEP_SUMMARY: summary });
    for (const c of [ok, bic, warn, notRun]) t.check(c);
    t.end([ok, bic, warn, notRun], 'reports/x/index.html');
    const text = out.text();
    assert.match(text, /^FAIL data\.transactions\.bic-length/m);
    assert.match(text,
      /^::error title=FAIL data\.transactions\.bic-length \[must%2C spec 2\.6\]::counterpartyAgent of t-1 is not 8 or 11 characters: expected 8 or 11/m);
    assert.match(text, /%0Aexpected: 8 or 11 characters%0Aseen: "DNBANOKKX" \(9\)%0Acurl -sS/);
    assert.match(text, /^::warning title=warn data\.banks\.profile-fields/m);
    assert.match(text, /^::warning title=not run token\.expiry\.old-token-refused/m);
    assert.match(text, /^::error title=pis-conformance%3A Not conformant::Not conformant: 1 passed, 1 failed, 1 warning, 1 skipped/m);
    const md = readFileSync(summary, 'utf8');
    assert.match(md, /^### pis-conformance: Not conformant/);
    assert.match(md, /\| failed \| `data\.transactions\.bic-length` \| must \| 2\.6 \|/);
    assert.match(md, /\| not run \| `token\.expiry\.old-token-refused` \|/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--reporter github: an Incomplete run ends with an ::error line for the verdict and its remedy (before: ::warning lines only)', () => {
  const out = sink(), err = sink();
  const t = new Terminal('github', out, err, {});
  for (const c of [ok, notRun]) t.check(c);
  t.end([ok, notRun]);
  const text = out.text();
  assert.match(text, /^::warning title=not run token\.expiry\.old-token-refused/m);
  assert.match(text, /^::error title=pis-conformance%3A Incomplete::Incomplete: 1 passed, 0 failed, 1 skipped \(1 not run\)\.%0ANot run: /m);
  // With --allow-incomplete the job passes: the verdict is then a warning.
  const allowed = sink();
  const a = new Terminal('github', allowed, err, {});
  a.allowIncomplete = true;
  a.end([ok, notRun]);
  assert.match(allowed.text(), /^::warning title=pis-conformance%3A Incomplete::/m);
  assert.doesNotMatch(allowed.text(), /^::error/m);
  const conformant = sink();
  const c = new Terminal('github', conformant, err, {});
  c.check(ok);
  c.end([ok]);
  assert.doesNotMatch(conformant.text(), /^::error/m);
});

test('a run whose check waits for a token to expire says so with the time left; --reporter json keeps stdout to JSON lines', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-terminal-run-'));
  try {
    // The bundled reference's token lifetime at 0.002 is a few real seconds: the check waits it out.
    const r = await runCli(['run', '--suites', 'token', '--grep', 'token.expiry.old-token-refused', '--time-scale', '0.002', '--max-wait', '30',
      '--workers', '1', '--report', dir, '--reporter', 'json'], { timeoutMs: 300_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trim().split('\n')
      .map(l => JSON.parse(l) as { type: string; id?: string; status?: string; verdict?: string; notSelected?: number });
    assert.deepEqual(lines.map(l => [l.type, l.id ?? l.verdict, l.status]),
      [['check', 'token.expiry.old-token-refused', 'passed'], ['summary', 'conformant', undefined]]);
    // The summary line counts the checks left out as results.json and the verdict line do (before: 0 against 129).
    const notSelected = (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { summary: { notSelected: number } }).summary.notSelected;
    assert.ok(notSelected > 100, `${notSelected}`);
    assert.equal(lines[1]!.notSelected, notSelected);
    assert.match(r.stderr, new RegExp(`Conformant: 1 passed, 0 failed, 0 skipped, ${notSelected} not selected\\.`));
    // What the check waits for, in its own words, with the time left.
    assert.match(r.stderr, /^… waiting: [^\n]*to expire[^\n]*; \d+ s left/m);
    assert.match(r.stderr, /Started the bundled reference/);
    assert.match(r.stderr, /Conformant/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sink --reporter json: stdout holds only JSON lines, a check each and the summary; the rest goes to stderr', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-terminal-sink-'));
  try {
    const r = await runCli(['sink', '--port', '0', '--api-key', 'sink-key-12345', '--duration', '0.3', '--report', dir, '--reporter', 'json'],
      { timeoutMs: 120_000 });
    const lines = r.stdout.trim().split('\n').map(l => JSON.parse(l) as { type: string; verdict?: string });
    const written = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).checks as Array<{ id: string }>;
    assert.ok(written.length >= 20, `${written.length} checks in results.json`);
    assert.deepEqual(lines.filter(l => l.type === 'check').map(l => (l as { id?: string }).id), written.map(c => c.id), r.stdout);
    assert.equal(lines.at(-1)!.type, 'summary');
    assert.match(r.stderr, /sink listening at/);
    assert.equal(r.code, lines.at(-1)!.verdict === 'conformant' ? 0 : 1, r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
