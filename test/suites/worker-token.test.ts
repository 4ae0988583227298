// What a call under test builds on is made with the worker's own token: inside
// withToken (a token check's chosen token, or none), withWorkerToken sends the
// worker's shared one again, so a chosen token reaches only the call it judges.
// Before: a token check's payment probe renewed a run-out consent with the
// expired token under test; the consent request was refused (401) and the
// place was left not run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheckContext, settle } from '../../suites/support/check.ts';
import { callUrl, withToken, withWorkerToken } from '../../suites/support/api.ts';
import { resolveTarget } from '../../harness/config/config.ts';
import { splitTarget } from '../../harness/config/env.ts';
import { testContextEnv } from '../helpers/context.ts';

/** A token endpoint (any POST) and an API that answers every GET 200 and records the authorization header it was sent. */
const seen: (string | undefined)[] = [];
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: 'the-workers-own-token-0123456789', token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
});
await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
const ORIGIN = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const split = splitTarget(resolveTarget({ authUrl: ORIGIN, realm: 'r', clientId: 'c', baseUrl: `${ORIGIN}/api`, clientSecret: 's' }));
Object.assign(process.env, testContextEnv(split.open), split.env);

const def = { id: 'token.use.worker-token-test', title: 't', spec: '4.4', quote: 'q', requirements: [] };

test('inside withToken, a call sends the chosen token (or none); inside withWorkerToken as well, the worker\'s own', async t => {
  t.after(() => new Promise(r => server.close(r)));
  const get = (c: CheckContext) => callUrl(c, 'GET', `${ORIGIN}/api/banks`);
  const c = new CheckContext(def);
  const out = await settle(c, async x => {
    await withToken('an-expired-token-under-test', async () => {
      await get(x);
      // An awaited step before the switch: the chosen token is still in force there, and the worker's after it.
      await new Promise(r => setTimeout(r, 1));
      await withWorkerToken(async () => { await new Promise(r => setTimeout(r, 1)); await get(x); });
      await get(x);
    });
    await withToken(null, async () => { await get(x); await withWorkerToken(() => get(x)); });
  }, 10_000);
  assert.equal(out.status, 'passed', out.message);
  assert.deepEqual(seen, [
    'Bearer an-expired-token-under-test', 'Bearer the-workers-own-token-0123456789', 'Bearer an-expired-token-under-test',
    undefined, 'Bearer the-workers-own-token-0123456789',
  ]);
});
