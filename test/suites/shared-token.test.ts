// A call made with the worker's shared access token (suites/support/api.ts)
// that the target refuses (401, no consent link): never an answer a check
// judges. Refused at or after the end of the token's expires_in (a slow call
// on a compressed clock), the call is made again with a new token, up to three
// times; refused after that, or refused before a token's end, the check is not
// run and says why. Before:
// an expired-session check read the second refusal as a consent-link error
// with no link, and failed a correct target on a machine at load 12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheckContext, settle } from '../../suites/support/check.ts';
import { callUrl } from '../../suites/support/api.ts';
import { sharedToken } from '../../suites/support/tokens.ts';
import { resolveTarget } from '../../harness/config/config.ts';
import { splitTarget } from '../../harness/config/env.ts';
import { testContextEnv } from '../helpers/context.ts';

const refusal = JSON.stringify({ errorCode: '1401', message: 'Unauthorized: the access token has expired', type: 'AUTH', actions: [] });

/** A token endpoint (any POST) stating the case's expires_in, and an API that refuses the case's first calls with 401. */
const now = { expiresIn: 1, refusals: 0, calls: 0, tokens: 0 };
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST') {
      now.tokens++;
      res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: `token-number-${now.tokens}-0123456789`, token_type: 'Bearer', expires_in: now.expiresIn }));
    } else if (now.calls++ < now.refusals) res.writeHead(401, { 'content-type': 'application/json' }).end(refusal);
    else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
});
await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
const ORIGIN = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const split = splitTarget(resolveTarget({ authUrl: ORIGIN, realm: 'r', clientId: 'c', baseUrl: `${ORIGIN}/api`, clientSecret: 's' }));
Object.assign(process.env, testContextEnv(split.open), split.env);

const def = { id: 'data.banks.shared-token-test', title: 't', spec: '4.4', quote: 'q', requirements: [] };

/** One call with the shared token, first renewed so that each case starts with a token of its own endpoint. */
async function callOnce(url: string) {
  const c = new CheckContext(def);
  let status: number | undefined;
  const out = await settle(c, async x => { await sharedToken(true); status = (await callUrl(x, 'GET', `${url}/api/banks`)).status; }, 10_000);
  return { out, status, notes: c.evidence.flatMap(e => e.kind === 'note' ? [e.text] : []) };
}

test('a refused shared token: renewed up to three times while each had expired; refused after that, or refused while live, the check is not run', async t => {
  t.after(() => new Promise(r => server.close(r)));
  // A token of 1 spec s is past its stated end, less the spec second of rounding, as soon as it is issued.
  const cases = [
    { name: 'expired, then served', expiresIn: 1, refusals: 1, status: 'passed', answer: 200, calls: 2, message: undefined },
    { name: 'expired three times, then served', expiresIn: 1, refusals: 3, status: 'passed', answer: 200, calls: 4, message: undefined },
    { name: 'expired, then refused three times again', expiresIn: 1, refusals: 4, status: 'skipped', answer: undefined, calls: 4,
      message: /refused the renewed access token too \(401\), 3 times.*at or after the end of its expires_in of 1 s.*outlasted the token's lifetime/ },
    { name: 'refused while live', expiresIn: 3600, refusals: 1, status: 'skipped', answer: undefined, calls: 1,
      message: /refused a live access token \(401\).*before the end of its expires_in of 3600 s/ },
  ];
  for (const k of cases) {
    Object.assign(now, { expiresIn: k.expiresIn, refusals: k.refusals, calls: 0 });
    const got = await callOnce(ORIGIN);
    assert.equal(got.out.status, k.status, `${k.name}: ${got.out.message}`);
    assert.equal(got.status, k.answer, k.name);
    assert.equal(now.calls, k.calls, `${k.name}: calls made`);
    if (k.message) assert.match(got.out.message ?? '', k.message, k.name);
    if (k.status === 'passed') assert.ok(got.notes.some(n => /a new token was asked for and the call repeated/.test(n)), got.notes.join('\n'));
  }
});
