// What run takes from the target itself: the clock its control API reports
// in /health when no --time-scale is given; and credentials written into a
// target URL, which reach no report file and no terminal line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { runServedHere } from '../helpers/cli.ts';

test('a target on a compressed clock, with credentials in its URLs', async () => {
  // Like `serve-reference --time-scale 0.1`, then run with the URLs it printed and no --time-scale.
  const ref = await startReference({ timeScale: 0.1 });
  const dir = mkdtempSync(join(tmpdir(), 'pis-target-clock-'));
  const PASS = 'url-pass-7Q';
  const creds = (u: string) => u.replace('http://', `http://merchant:${PASS}@`);
  try {
    // token.expiry.old-token-refused waits out the token's 3600 spec s, more than --max-wait 1: it does not run, and says why.
    const r = await runServedHere(['run', '--suites', 'token,data',
      '--grep', 'token\\.issue\\.access-token|data\\.banks\\.list|token\\.expiry\\.old-token-refused',
      '--auth-url', ref.authUrl, '--realm', ref.realm, '--client-id', ref.clientId, '--max-wait', '1', '--allow-incomplete',
      '--base-url', creds(ref.baseUrl), '--control-url', creds(ref.controlUrl), '--report', dir],
    { env: { PIS_CLIENT_SECRET: ref.clientSecret, PIS_TIME_SCALE: '' }, timeoutMs: 120_000 });
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /The target's clock runs at time scale 0\.1 \(from http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/control\/health\); the run uses it\./);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.timeScale, 0.1);
    // The target's clock is its own: the remedy names --max-wait alone (before: "or run the target on a compressed clock with --time-scale").
    assert.match(r.stdout, /^Not run: raise --max-wait to \d+ to run token\.expiry\.old-token-refused\.$/m);
    assert.doesNotMatch(r.stdout, /--time-scale\)/);
    assert.match(results.target.timeScaleSource ?? '', /\/control\/health \(no --time-scale given\)$/);
    assert.match(results.target.baseUrl ?? '', /^http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/api$/);
    const api = results.checks.find(c => c.id === 'data.banks.list')?.evidence.find(e => e.kind === 'http');
    assert.ok(api && api.kind === 'http' && api.request.url.startsWith('http://[redacted]@') && api.curl?.includes("'http://[redacted]@"), JSON.stringify(api));
    for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), 'utf8').includes(PASS), `${f} holds the URL's password`);
    assert.ok(!(r.stdout + r.stderr).includes(PASS), 'the terminal shows the URL\'s password');
  } finally {
    await ref.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
