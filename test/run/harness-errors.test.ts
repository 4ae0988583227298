// A run that cannot be made ends with exit 2 and one sentence that names the
// fix, within 10 s, before Playwright starts (docs/cli.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import { runCli } from '../helpers/cli.ts';
import { closedPort } from '../helpers/closed-port.ts';


/**
 * What starting the CLI costs on this machine now (`run --help`): the 10 s
 * promise is about the harness's own waiting, not about tsx compiling on a
 * machine shared with the whole test suite.
 */
let baseline: Promise<number> | undefined;
function startupSeconds(): Promise<number> {
  baseline ??= (async () => { const t = performance.now(); await runCli(['run', '--help']); return (performance.now() - t) / 1000; })();
  return baseline;
}

/** `args` run through the CLI, and how long that took in seconds. */
async function timed(args: string[], env: Record<string, string> = {}) {
  const started = performance.now();
  const r = await runCli(args, { env, timeoutMs: 30_000 });
  return { r, seconds: (performance.now() - started) / 1000 };
}

async function expectHarnessError(args: string[], pattern: RegExp, env: Record<string, string> = {}) {
  let startup = await startupSeconds();
  let { r, seconds } = await timed(['run', ...args], env);
  // The file's baseline was measured under another load: a slow run is made again beside a fresh baseline, under the same load.
  if (seconds >= 10 + startup) {
    const [again, base] = await Promise.all([timed(['run', ...args], env), timed(['run', '--help'])]);
    ({ r, seconds } = again);
    startup = base.seconds;
  }
  assert.equal(r.code, 2, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
  const lines = r.stderr.trim().split('\n').filter(l => !/npm warn/i.test(l));
  assert.equal(lines.length, 1, `more than one line on stderr:\n${r.stderr}`);
  assert.match(lines[0]!, pattern);
  assert.ok(seconds < 10 + startup, `took ${seconds.toFixed(1)} s (start-up alone ${startup.toFixed(1)} s)`);
  assert.doesNotMatch(r.stdout, /Running \d+ checks/, 'Playwright must not start');
  return lines[0]!;
}

test('an unreachable target is exit 2 naming the URL to check', async () => {
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  await expectHarnessError(['--auth-url', url, '--base-url', `${url}/api`, '--client-id', 'x'], /Cannot reach the token endpoint .*check the URL/,
    { PIS_CLIENT_SECRET: 'some-secret' });
});

test('a wrong client secret on the first call is exit 2 naming --client-secret, and the secret is not printed', async () => {
  const ref = await startReference({ clientSecret: 'the-right-secret' });
  try {
    const line = await expectHarnessError(['--auth-url', ref.authUrl, '--base-url', ref.baseUrl, '--client-id', ref.clientId],
      /refused the client credentials \(40[01] .*--client-secret/, { PIS_CLIENT_SECRET: 'a-wrong-secret' });
    assert.doesNotMatch(line, /a-wrong-secret|the-right-secret/);
  } finally { await ref.close(); }
});

test('a missing client secret is exit 2 naming the flag and the variable', async () => {
  await expectHarnessError(['--auth-url', 'http://127.0.0.1:9', '--base-url', 'http://127.0.0.1:9/api', '--client-id', 'x'],
    /client-secret is missing: give --client-secret, set PIS_CLIENT_SECRET/, { PIS_CLIENT_SECRET: '' });
});

test('a bad flag, a bad flag value and an unknown suite are exit 2', async () => {
  await expectHarnessError(['--no-such-flag'], /Unknown option '--no-such-flag'.*--help/);
  await expectHarnessError(['--max-wait', 'soon'], /--max-wait must be a number/);
  await expectHarnessError(['--suites', 'token,bogus'], /'bogus', which is not a suite/);
  await expectHarnessError(['--suites', 'tokens'], /'tokens', which is not a suite: did you mean token\? use token, session/);
  await expectHarnessError(['--consent-driver', 'telepathy'], /--consent-driver must be one of follow, browser, manual/);
  await expectHarnessError(['--base-url', 'not a url', '--auth-url', 'http://x', '--client-id', 'x', '--client-secret', 'y'],
    /--base-url 'not a url' is not a URL/);
});

test('a bad config file is exit 2 naming the file and the key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-config-'));
  try {
    const typo = join(dir, 'typo.yaml');
    writeFileSync(typo, 'base-ulr: http://127.0.0.1:1/api\n');
    await expectHarnessError(['--config', typo], /typo\.yaml: unknown key 'base-ulr'/);
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'paths: [1, 2\n');
    await expectHarnessError(['--config', broken], /not valid YAML/);
    await expectHarnessError(['--config', join(dir, 'missing.yaml')], /Cannot read the config file .*ENOENT/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--grep that matches no check is exit 2 with an example id', async () => {
  const r = await runCli(['run', '--suites', 'token', '--grep', 'no-such-check-anywhere'], { timeoutMs: 60_000 });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /No check matches --grep 'no-such-check-anywhere': give a check id such as token\.issue\.access-token/);
});

/** A token endpoint under the test's control, at /auth/realms/pis/...; returns its auth URL. */
async function tokenEndpoint(t: { after(fn: () => unknown): void }, answer: (res: import('node:http').ServerResponse) => void): Promise<string> {
  const { createServer: http } = await import('node:http');
  const srv = http((_req, res) => answer(res));
  await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
  t.after(() => { srv.closeAllConnections(); srv.close(); });
  return `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
}

const target = (auth: string) => ['--suites', 'token', '--auth-url', auth, '--client-id', 'x'];
const SECRET = { PIS_CLIENT_SECRET: 'some-secret' };

// One after another: each is judged against the time the harness may take.
test('hostile token endpoints end the pre-flight within seconds, exit 2', async t => {
  for (const run of [
    () => t.test('one that streams forever (before: 823 MB after 60 s and growing)', async tc => {
      const chunk = Buffer.alloc(64 * 1024, 'z');
      const auth = await tokenEndpoint(tc, res => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const more = () => { while (!res.destroyed && res.write(chunk)) { /* as fast as the socket takes it */ } };
        res.on('drain', more);
        more();
      });
      await expectHarnessError(target(auth), /token endpoint .* answered 200 with application\/json, 16777216 bytes before it was cut at the 16777216-byte read limit that is not JSON, so it is not a token endpoint: check --auth-url/, SECRET);
    }),
    () => t.test('one that sends a byte every 2 s: the deadline counts the whole answer, not idle time', async tc => {
      const auth = await tokenEndpoint(tc, res => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const timer = setInterval(() => res.write(' '), 2000);
        res.on('close', () => clearInterval(timer));
      });
      await expectHarnessError(target(auth),
        /The token endpoint at .* gave no complete answer within 3000 ms \(status 200 came, then \d+ bytes of the body\): /, SECRET);
    }),
    () => t.test('one that answers 200 with HTML is not a token endpoint (before: the run went on and exited 1)', async tc => {
      const auth = await tokenEndpoint(tc, res => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Sign in</title>');
      });
      await expectHarnessError(target(auth),
        /answered 200 with text\/html, 37 bytes that is not JSON, so it is not a token endpoint: check --auth-url and --realm/, SECRET);
    }),
  ]) await run();
});

test('a --time-scale that differs from the one the control API reports is exit 2 naming both', async () => {
  const ref = await startReference({ timeScale: 0.1 });
  try {
    await expectHarnessError(['--suites', 'token', '--auth-url', ref.authUrl, '--client-id', ref.clientId, '--control-url', ref.controlUrl,
      '--time-scale', '1'],
      /--time-scale says 1, but the control API's http:\/\/127\.0\.0\.1:\d+\/control\/health says the target runs at time scale 0\.1: give --time-scale 0\.1, or leave it out/,
      { PIS_CLIENT_SECRET: ref.clientSecret });
  } finally { await ref.close(); }
});

test('a base URL one folder off is exit 2 naming --base-url and quoting where the target says the API is (before: 8 s, 331 lines, exit 1)', async () => {
  const ref = await startReference();
  try {
    const line = await expectHarnessError(['--auth-url', ref.authUrl, '--client-id', ref.clientId, '--base-url', ref.authUrl],
      /The API at http:\/\/127\.0\.0\.1:\d+ answered 404 to GET \/banks, so the banking API is not there \(the answer says: "Nothing at \/banks: .*the API is under \/api.*"\): check --base-url/,
      { PIS_CLIENT_SECRET: ref.clientSecret });
    assert.doesNotMatch(line, new RegExp(ref.clientSecret));
  } finally { await ref.close(); }
});

test('a control URL whose /health names no time scale is exit 2 naming --control-url (before: a must failure of the webhook suite)', async () => {
  const ref = await startReference();
  try {
    await expectHarnessError(['--suites', 'token', '--auth-url', ref.authUrl, '--client-id', ref.clientId, '--control-url', ref.authUrl],
      /The control API at http:\/\/127\.0\.0\.1:\d+ answered GET \/health with 404 \(application\/json, \d+ bytes\), not 200 \{"timeScale": N\}: check --control-url/,
      { PIS_CLIENT_SECRET: ref.clientSecret });
  } finally { await ref.close(); }
});

test('an API 404 with hostile words is quoted on one printable line, cut short', async t => {
  const ref = await startReference();
  t.after(() => ref.close());
  const api = await tokenEndpoint(t, res => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`go to /v2\u001b[2J\u001b]8;;http://evil\u0007here\r\nspoof: ${'x'.repeat(500)}`);
  });
  const line = await expectHarnessError(['--auth-url', ref.authUrl, '--client-id', ref.clientId, '--base-url', api],
    /answered 404 to GET \/banks, so the banking API is not there \(the answer says: "go to \/v2 \[2J \]8;;http:\/\/evil here spoof: x+…"\): check --base-url/,
    { PIS_CLIENT_SECRET: ref.clientSecret });
  assert.doesNotMatch(line, /[\u0000-\u001f\u007f]/);
  assert.ok(line.length < 600, `${line.length} characters`);
});

test('an API answering 200 with HTML is exit 2 naming --base-url; any JSON answer is left to the checks', async t => {
  const ref = await startReference();
  t.after(() => ref.close());
  const html = await tokenEndpoint(t, res => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>Portal</title>'); });
  await expectHarnessError(['--auth-url', ref.authUrl, '--client-id', ref.clientId, '--base-url', html],
    /answered GET \/banks with 200 \(text\/html, 36 bytes\) that is not JSON, so it is not the banking API: check --base-url/,
    { PIS_CLIENT_SECRET: ref.clientSecret });
});

test('TLS and scheme mistakes are named for what they are, and NODE_EXTRA_CA_CERTS lets a self-signed test target in', async t => {
  const { createServer: http } = await import('node:http');
  const { createServer: https } = await import('node:https');
  const { selfSignedCertificate } = await import('../../harness/sink/tls.ts');
  const pem = await selfSignedCertificate('127.0.0.1');
  const notFound = (_q: unknown, res: import('node:http').ServerResponse) => { res.writeHead(404, { 'content-type': 'text/plain' }).end('no'); };
  const plain = http(notFound);
  const secure = https({ cert: pem.cert, key: pem.key }, notFound);
  for (const s of [plain, secure]) { await new Promise<void>(r => s.listen(0, '127.0.0.1', r)); t.after(() => { s.closeAllConnections(); s.close(); }); }
  const port = (s: typeof plain) => (s.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'pis-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ca = join(dir, 'ca.pem');
  writeFileSync(ca, pem.cert);
  const at = (url: string) => ['--suites', 'token', '--auth-url', url, '--client-id', 'x'];
  // Before: "its TLS certificate was refused (ERR_SSL_WRONG_VERSION_NUMBER)".
  await expectHarnessError(at(`https://127.0.0.1:${port(plain)}`),
    /\[PIS_TLS\] The token endpoint at https:\S+ does not speak TLS \(ERR_SSL_WRONG_VERSION_NUMBER\): .*use http:\/\/ in the URL/, SECRET);
  // Before: "Cannot reach the token endpoint ... (UND_ERR_SOCKET)".
  await expectHarnessError(at(`http://127.0.0.1:${port(secure)}`),
    /\[PIS_UNREACHABLE\] The token endpoint at http:\S+ closed the connection without an answer \(\w+\): if the server speaks HTTPS there, use https:\/\//, SECRET);
  await expectHarnessError(at(`https://127.0.0.1:${port(secure)}`),
    /\[PIS_TLS\] The token endpoint at https:\S+ presented a TLS certificate this machine does not trust \(\w+\): .*set NODE_EXTRA_CA_CERTS/, SECRET);
  // Trusted through NODE_EXTRA_CA_CERTS: the TLS step passes, and the 404 of this stand-in is the next thing said.
  await expectHarnessError(at(`https://127.0.0.1:${port(secure)}`), /\[PIS_BAD_CONFIG\] The token endpoint https:\S+ answered 404/,
    { ...SECRET, NODE_EXTRA_CA_CERTS: ca });
});

test('a mistyped bank id stops the run at once, naming the nearest listed id (before: the run went on to Incomplete)', async () => {
  const ref = await startReference();
  try {
    await expectHarnessError(['--suites', 'data', '--auth-url', ref.authUrl, '--client-id', ref.clientId, '--base-url', ref.baseUrl, '--bank-id', 'dnb-nO'],
      /\[PIS_BAD_FLAG\] --banks names 'dnb-nO', which GET \/banks does not list and GET \/banks\/\{bankId\} answers \d+: did you mean dnb-no\? /,
      { PIS_CLIENT_SECRET: ref.clientSecret });
  } finally { await ref.close(); }
});
