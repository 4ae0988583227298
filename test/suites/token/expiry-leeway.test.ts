// token.expiry against a resource server that validates tokens with a
// clock-skew leeway (RFC 7519 4.1.4; Spring 60 s, .NET 300 s by default): a
// token refused within a tenth of its lifetime (at most 300 spec s) after
// expires_in keeps the rule; a longer leeway, or a token that never expires,
// fails. This server has the bank list only, so GET /banks is the one
// operation exercised and the others are named as not reached.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byId, failedIds, runAgainst } from './run-token.ts';

/**
 * 1 spec s = 1 ms real: a 1000 s token expires after 1 s and its leeway (a
 * tenth, 100 s) is 0.1 s of waiting (arbitrary: short, and far above timer noise).
 */
const base = { timeScale: 0.001, accessLifetimeS: 1000 };
// The access token's checks only: the refresh token's (1800 s here) have tests of their own.
const args = ['--grep', 'token\\.(expiry\\.old-token-refused|use\\.)'];

describe('token.expiry with an API that allows clock-skew leeway', () => {
  it('keeps the rule at GET /banks with a token refused 60 spec s after expires_in (within a tenth of 1000 s)', async () => {
    const o = await runAgainst({ ...base, apiLeewayS: 60 }, { withApi: true, args });
    assert.deepEqual(failedIds(o.results), [], o.out);
    const c = byId(o.results, 'token.expiry.old-token-refused');
    assert.deepEqual([c.places?.exercised, c.places?.failed], [['GET /banks'], []], o.out);
    assert.match(c.message ?? '', /exercised 1 of 21 operations/);
    // The live token is taken at the one operation this server has (token.use.accepted asks every operation).
    const taken = byId(o.results, 'token.use.accepted');
    assert.deepEqual([taken.places?.exercised, taken.places?.failed], [['GET /banks'], []], o.out);
  });

  // Taken 900 spec s after expires_in, at time scale 0.01 (9 s real): the check's late call, 100 spec s after it, has 8 s of
  // slack. At 0.001 it had 0.8 s, and a clean-clone CI run at high load spent more on the 21 calls just after expires_in
  // (the same token at every operation, one after another), so every late call was refused and nothing failed.
  it('fails a token still taken 900 spec s after expires_in, more than a tenth of its 1000 s', async () => {
    const o = await runAgainst({ ...base, timeScale: 0.01, apiLeewayS: 900 }, { withApi: true, args });
    assert.equal(o.cli.code, 1, o.out);
    assert.deepEqual(failedIds(o.results), ['token.expiry.old-token-refused'], o.out);
    assert.match(byId(o.results, 'token.expiry.old-token-refused').message ?? '', /GET \/banks: still accepts the access token 100 s after expires_in/);
  });

  it('fails a token the API takes for ever', async () => {
    const o = await runAgainst({ ...base, apiLeewayS: Infinity }, { withApi: true, args });
    assert.equal(o.cli.code, 1, o.out);
    assert.deepEqual(failedIds(o.results), ['token.expiry.old-token-refused'], o.out);
  });
});
