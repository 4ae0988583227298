// Nothing a target or a sender sends reaches the terminal raw: every line type
// a command prints (check lines, the recap, GitHub annotations, JSON lines, the
// verdict lines, the sink's live lines, a check's printed link, an error line,
// the pre-flight sentence) is fed text with ESC, CSI, OSC, BEL, NUL, CR, LF,
// the C1 CSI U+009B and bidi overrides, and must carry none of them; a token
// endpoint that echoes the client secret gets it shown neither raw nor in base64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CheckResult, DeliveryAttempt, HttpEvidence } from '../../harness/results/model.ts';
import { Terminal } from '../../harness/report/terminal.ts';
import { formatSummary } from '../../harness/report/progress.ts';
import { summarize } from '../../harness/report/verdict.ts';
import { formatAttemptLine } from '../../harness/sink/live.ts';
import { errorLine } from '../../harness/errors.ts';
import { printable } from '../../harness/printable.ts';
import { runCli } from '../helpers/cli.ts';

/** Everything a terminal acts on: C0 (NUL, BEL, CR, LF, ESC), DEL, C1 (U+009B), bidi embeddings, overrides and isolates. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const unsafeIn = (s: string) => s.split('\n').filter(l => UNSAFE.test(l));

const EVIL = 'x\u001b]0;pwned\u0007\u001b[2K\rConformant: 99 passed\u0000\u009b31m\u202eLIAF\u2066\u0085';

function sink() {
  const chunks: string[] = [];
  return { isTTY: false, columns: 80, write: (s: string) => { chunks.push(s); return true; }, text: () => chunks.join('') };
}

const exchange: HttpEvidence = { kind: 'http', primary: true, request: { method: `GET${EVIL}`, url: `http://t/banks/${EVIL}`, headers: {} },
  error: EVIL, startedAt: '2026-11-22T10:00:00Z', durationMs: 3, curl: `curl -sS 'http://t/banks/${EVIL}'` };
const base = { suite: 'data' as const, spec: '2.6', title: 'A title', durationMs: 10 };
const failed: CheckResult = { ...base, id: 'data.banks.by-id', level: 'must', status: 'failed', message: `bank ${EVIL} refused: expected 200, seen ${EVIL}`,
  expected: '200', seen: EVIL, evidence: [exchange] };
const warned: CheckResult = { ...base, id: 'data.banks.profile-fields', level: 'profile', status: 'failed', message: EVIL, evidence: [] };
const notRun: CheckResult = { ...base, id: 'payments.create.valid', level: 'must', status: 'skipped', skipKind: 'not-run', message: `refused: ${EVIL}`,
  evidence: [] };
const checks = [failed, warned, notRun];

test('printable shows every control, C1 and bidi character as a visible escape and leaves other text alone', () => {
  assert.equal(printable('a\u001b[31mb\u009bc\u202ed\u0000e\rf\u0007g\nh'), 'a\\x1B[31mb\\x9Bc\\u202Ed\\x00e\\x0Df\\x07g\\x0Ah');
  assert.equal(printable('Zürich — 北京 ✓'), 'Zürich — 北京 ✓');
});

for (const mode of ['line', 'github', 'json'] as const) {
  test(`--reporter ${mode}: check lines, the recap and annotations carry no control character from the target`, () => {
    const out = sink(), err = sink();
    const t = new Terminal(mode, out, err, { FORCE_COLOR: '0' });
    t.output(`link:\n    http://t/consent/${EVIL}\n`);
    for (const c of checks) t.check(c);
    t.end(checks, 'reports/x/index.html');
    assert.deepEqual(unsafeIn(out.text()), []);
    assert.deepEqual(unsafeIn(err.text()), []);
    assert.match(out.text() + err.text(), /\\x1B\]0;pwned\\x07/, 'the escape is shown, not dropped');
    if (mode === 'json') for (const l of out.text().trim().split('\n')) JSON.parse(l);
  });
}

test('the verdict lines, the sink\'s live line and an error line carry no control character', () => {
  const summary = formatSummary({ summary: summarize(checks), checks }, `reports/${EVIL}/index.html`);
  assert.deepEqual(unsafeIn(summary), []);
  const attempt: DeliveryAttempt = { seq: 1, checkoutId: EVIL, arrivedMs: 0, headers: {}, body: JSON.stringify({ checkoutId: EVIL, status: EVIL }),
    probe: 'ok', answer: 200, method: EVIL };
  assert.deepEqual(unsafeIn(formatAttemptLine(attempt, Date.now())), []);
  assert.deepEqual(unsafeIn(errorLine('run', 'PIS_BAD_FLAG', `--target ${EVIL} is not a URL.`)), []);
});

test('the pre-flight sentence shows a token endpoint\'s error field escaped, and a secret it echoes neither raw nor in base64', async () => {
  const secret = 'hostile-secret-Zq81xQ7';
  const b64 = Buffer.from(secret).toString('base64');
  const basic = Buffer.from(`client:${secret}`).toString('base64');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `invalid_client${EVIL} ${secret} ${b64} ${basic}` }));
    });
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cli = await runCli(['run', '--suites', 'token', '--auth-url', url, '--client-id', 'client', '--report', '/nonexistent/never'],
      { env: { PIS_CLIENT_SECRET: secret, PIS_BASE_URL: '' }, timeoutMs: 60_000 });
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, /PIS_AUTH_REJECTED/);
    assert.deepEqual(unsafeIn(cli.stderr + cli.stdout), []);
    for (const s of [secret, b64.replace(/=+$/, ''), basic.slice(8, -4)]) assert.ok(!(cli.stderr + cli.stdout).includes(s), `${s} is not shown`);
  } finally {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  }
});
