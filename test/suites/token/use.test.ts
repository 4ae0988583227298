// token.use against an API that fails instead of serving or refusing: a valid
// token must open the API (2xx), and a 5xx to a made-up token or to no token
// is the server failing, not a refusal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byId, failedIds, runAgainst } from './run-token.ts';

/**
 * 1 spec s = 10 ms real: a 100 s token lives 1 s, and is used 0.5 s before its
 * end (arbitrary: short, and far above a loaded machine's request time).
 */
const base = { timeScale: 0.01, accessLifetimeS: 100 };
const args = ['--grep', 'token\\.use\\.'];

describe('token.use with an API that fails', () => {
  it('fails a 500 to every call: valid, refreshed, made-up and missing tokens', async () => {
    const o = await runAgainst({ ...base, apiLeewayS: 0, apiStatus: 500 }, { withApi: true, args });
    assert.equal(o.cli.code, 1, o.out);
    assert.deepEqual(failedIds(o.results), ['token.use.accepted', 'token.use.no-token-refused', 'token.use.refreshed-token-accepted',
      'token.use.tampered-token-refused', 'token.use.until-expires-in', 'token.use.wrong-token-401', 'token.use.wrong-token-refused'], o.out);
    assert.match(byId(o.results, 'token.use.wrong-token-refused').message ?? '', /failed on a made-up access token instead of refusing it/);
    assert.match(byId(o.results, 'token.use.accepted').seen ?? '', /^500/);
  });

  it('a call held past the end of its fresh token\'s expires_in is not judged: made again once, then not run with the figures', async () => {
    // The API judges each token 1.1 s (110 spec s) after the call came: a token of 100 spec s has expired by then, each time.
    const o = await runAgainst({ ...base, apiLeewayS: 0, apiHoldS: 110 },
      { withApi: true, args: ['--grep', 'token\\.use\\.(accepted|refreshed-token-accepted) '] });
    assert.deepEqual(failedIds(o.results), [], o.out);
    for (const id of ['token.use.accepted', 'token.use.refreshed-token-accepted']) {
      const c = byId(o.results, id);
      assert.equal(c.status, 'skipped', `${id}\n${o.out}`);
      assert.match(c.message ?? '', /was refused at GET \/banks [\d.]+ s \(real\) after it was asked for, at or after the end of its expires_in of 100 s.*, twice/,
        `${id}\n${o.out}`);
    }
  });

  it('a 404 to GET /banks with a valid token is a wrong --base-url (exit 2, one sentence, no report), never a verdict', async () => {
    await assert.rejects(runAgainst({ ...base, apiLeewayS: 0, apiStatus: 404 }, { withApi: true, args: ['--grep', 'token\\.use\\.accepted'] }),
      (e: Error) => /no results\.json[\s\S]*\[PIS_BAD_CONFIG\] The API at \S+ answered 404 to GET \/banks[^\n]*check --base-url/.test(e.message));
  });
});
