// Checks that no fault of the reference's catalog reaches, shown failing: a
// pass-through in front of the reference breaks one rule per check, and one
// run must fail each of those checks (issue 4: every check can fail).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import type { RunResults } from '../../harness/report/model.ts';
import { runCli } from '../helpers/cli.ts';

const NO_SUCH_BANK = '/api/banks/pis-conformance-no-such-bank';

test('each broken rule fails its check', async () => {
  const ref = await startReference({ timeScale: 0.05 });
  const proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    // data.banks.device-header: the device header is put in when the client left it out.
    if (req.url!.startsWith('/api/') && !headers['x-device-id']) headers['x-device-id'] = 'added-by-proxy';
    const up = await fetch(ref.authUrl + req.url, { method: req.method, headers, body: chunks.length ? body : undefined, redirect: 'manual' });
    let text = await up.text();
    let status = up.status;
    const out: Record<string, string> = {};
    up.headers.forEach((v, k) => { if (!['content-length', 'transfer-encoding', 'x-request-id', 'connection', 'keep-alive'].includes(k)) out[k] = v; });
    if (req.url!.includes('/openid-connect/token') && status === 200) {
      const j = JSON.parse(text);
      delete j.expires_in; // token.issue.expires-in
      if (body.includes('grant_type=refresh_token')) delete j.scope; // token.refresh.answers-tokens
      text = JSON.stringify(j);
    }
    if (req.url === NO_SUCH_BANK) { status = 200; text = '{}'; } // data.banks.unknown-id
    else if (/^\/api\/banks\/[\w-]+$/.test(req.url!) && status === 200) text = JSON.stringify({ ...JSON.parse(text), id: 'another-bank' }); // data.banks.by-id
    res.writeHead(status, out).end(text);
  });
  await new Promise<void>(r => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'pis-mutations-'));
  try {
    const r = await runCli(['run', '--auth-url', url, '--base-url', `${url}/api`, '--client-id', ref.clientId, '--suites', 'token,data',
      '--time-scale', '0.05', '--report', dir], { env: { PIS_CLIENT_SECRET: ref.clientSecret }, timeoutMs: 150_000 });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const failed = new Set(results.checks.filter(c => c.status === 'failed').map(c => c.id));
    for (const id of ['token.issue.expires-in', 'token.refresh.answers-tokens', 'data.banks.unknown-id', 'data.banks.by-id', 'data.banks.request-id', 'data.banks.device-header'])
      assert.ok(failed.has(id), `${id} did not fail; failed: ${[...failed].join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>(res => proxy.close(() => res()));
    await ref.close();
  }
});
