// The pre-flight gives a target 3 s per call; the bundled reference, which
// answers in the run's own process, is given ten times as long: its late
// answer is the run's own stall, never a reason to end without a verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { preflight } from '../../harness/config/preflight.ts';
import { resolveTarget } from '../../harness/config/config.ts';
import { Redactor } from '../../harness/report/redact.ts';
import { HarnessError } from '../../harness/errors.ts';

test('a token answer after 3.5 s: a target is unreachable, the bundled reference is not', async () => {
  const server = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ access_token: 'late-token-1234', token_type: 'bearer', expires_in: 60 })), 3_500);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cfg = resolveTarget({ authUrl, realm: 'pis', clientId: 'c', clientSecret: 's' });
  try {
    const [target, bundled] = await Promise.allSettled([
      preflight(cfg, new Redactor()),
      preflight({ ...cfg, bundledReference: true }, new Redactor()),
    ]);
    assert.equal(target.status, 'rejected');
    const e = (target as PromiseRejectedResult).reason as HarnessError;
    assert.equal(e.code, 'PIS_UNREACHABLE');
    assert.match(e.message, /The token endpoint at .* gave no complete answer within 3000 ms/);
    assert.equal(bundled.status, 'fulfilled', String((bundled as PromiseRejectedResult).reason));
    assert.equal((bundled as PromiseFulfilledResult<{ accessToken?: string }>).value.accessToken, 'late-token-1234');
  } finally {
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  }
});
