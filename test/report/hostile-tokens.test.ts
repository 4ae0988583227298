// Nothing a target sends changes how its results are judged: a token endpoint
// that issues the words of the results model as its tokens ("must", "failed",
// "conformant", ...) and a client secret "fail" give the same checks, levels,
// statuses and verdict as random tokens do. The server also breaks two must
// rules (token_type mac, a negative refresh_expires_in) and a should rule (no
// Cache-Control), so the verdict it must keep is Not conformant with a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { runCli } from '../helpers/cli.ts';

const CLIENT_ID = 'hostile-client';

/** Every word of the results model a token could clobber, and words of check ids and titles. */
const WORDS = [
  'must', 'should', 'profile', 'passed', 'failed', 'skipped', 'not-run', 'not-applicable', 'not-selected',
  'conformant', 'not-conformant', 'incomplete', 'interrupted', 'Conformant', 'verdict', 'summary', 'level', 'status',
  'message', 'expected', 'seen', 'evidence', 'http', 'note', 'measurement', 'delivery', 'token', 'issue', 'refresh',
  'errors', 'secret', 'refused', 'spec', 'bearer', 'answer', 'access', 'warning', 'skip',
];

/** A token endpoint on loopback issuing tokens from `next()`, with two must faults and one should fault. */
async function tokenServer(secret: string, next: () => string) {
  const refresh = new Set<string>();
  const send = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  async function handle(req: IncomingMessage, res: ServerResponse) {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.method !== 'POST' || !req.url?.endsWith('/token')) return send(res, 404, { error: 'not_found' });
    const form = new URLSearchParams(text);
    const grant = form.get('grant_type');
    if (!grant) return send(res, 400, { error: 'invalid_request' });
    if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== secret) return send(res, 401, { error: 'invalid_client' });
    if (grant === 'refresh_token') {
      if (!refresh.delete(form.get('refresh_token') ?? '')) return send(res, 400, { error: 'invalid_grant' });
    } else if (grant !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
    const tokens = { access: next(), refresh: next() };
    refresh.add(tokens.refresh);
    send(res, 200, { access_token: tokens.access, expires_in: 300, refresh_token: tokens.refresh, refresh_expires_in: -1, token_type: 'mac', scope: 'pis' });
  }
  const server = createServer((req, res) => { handle(req, res).catch(() => res.destroy()); });
  server.keepAliveTimeout = 65_000; // the client closes idle connections first, as with the reference (harness/reference/index.ts)
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>(r => { server.closeAllConnections(); server.close(() => r()); }) };
}

async function runAgainst(secret: string, next: () => string) {
  const server = await tokenServer(secret, next);
  const dir = mkdtempSync(join(tmpdir(), 'pis-hostile-'));
  try {
    const cli = await runCli(['run', '--suites', 'token', '--auth-url', server.url, '--client-id', CLIENT_ID, '--time-scale', '0.05',
        '--workers', '1', '--report', dir],
      { env: { PIS_CLIENT_SECRET: secret, PIS_BASE_URL: '' }, timeoutMs: 120_000 });
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const jsonl = readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l) as RunResults['checks'][number]);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    return { cli, results, jsonl, html };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What judging rests on: every check's id, title, level, status and skip kind. */
const judged = (checks: RunResults['checks']) => checks.map(c => [c.id, c.title, c.level, c.status, c.skipKind ?? ''].join(' | '));

test('tokens and a client secret spelled like the results model change nothing that is judged', async () => {
  let i = 0;
  const [plain, hostile] = await Promise.all([
    runAgainst(`plain-${randomBytes(12).toString('hex')}`, () => randomBytes(16).toString('base64url')),
    runAgainst('fail', () => WORDS[i++ % WORDS.length]!),
  ]);
  assert.ok(i >= 10, `only ${i} tokens were issued`);
  const out = `${hostile.cli.stdout}\n${hostile.cli.stderr}`;
  assert.equal(plain.results.summary.verdict, 'not-conformant', plain.cli.stdout);
  assert.ok(plain.results.summary.warnings >= 1, plain.cli.stdout);
  assert.deepEqual(judged(hostile.results.checks), judged(plain.results.checks), out);
  assert.deepEqual(judged(hostile.jsonl), judged(plain.jsonl));
  assert.deepEqual(hostile.results.summary, plain.results.summary, out);
  assert.equal(hostile.cli.code, 1, out);
  assert.equal(plain.cli.code, 1);
  assert.match(hostile.cli.stdout, /\nNot conformant: \d+ passed, \d+ failed, \d+ warnings?, /);
  assert.match(hostile.html, /<h1 id="verdict" data-verdict="not-conformant"/);
  // The must failures still read as such, not as warnings.
  for (const c of hostile.results.checks.filter(x => x.status === 'failed' && x.level === 'must'))
    assert.match(hostile.html, new RegExp(`id="${c.id.replace(/\./g, '\\.')}" data-status="failed" data-level="must"`));
  // A secret this short is hidden with a warning, never refused.
  assert.match(hostile.cli.stderr, /warning: the client secret is shorter than 8 characters/);
  assert.match(hostile.cli.stderr, /warning: an access token the target issued is shorter than 8 characters/);
});
