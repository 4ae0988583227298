// token.expiry against a resource server that validates tokens with a
// clock-skew leeway (RFC 7519 4.1.4; Spring 60 s, .NET 300 s by default): a
// token refused within 300 spec s of expires_in passes and says so; a token
// that never expires still fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byId, failedIds, runAgainst } from './run-token.ts';

/**
 * 1 spec s = 10 ms real: a 10 s token expires after 0.1 s and the 300 s leeway
 * is 3 s of waiting (arbitrary: short, and far above timer noise).
 */
const base = { timeScale: 0.01, accessLifetimeS: 10 };
// The access token's checks only: the refresh token's (1800 s here) have tests of their own.
const args = ['--grep', 'token\\.(expiry\\.old-token-refused|use\\.)'];

describe('token.expiry with an API that allows clock-skew leeway', () => {
  it('passes a token refused 60 spec s after expires_in, and reports the leeway', async () => {
    const o = await runAgainst({ ...base, apiLeewayS: 60 }, { withApi: true, args });
    assert.equal(o.cli.code, 0, o.out);
    assert.deepEqual(failedIds(o.results), [], o.out);
    const c = byId(o.results, 'token.expiry.old-token-refused');
    assert.equal(c.status, 'passed', o.out);
    assert.match(c.message ?? '', /refused it within the 300 s clock-skew leeway/);
    assert.equal(byId(o.results, 'token.use.accepted').status, 'passed', o.out);
  });

  it('fails a token the API still takes after expires_in plus the leeway', async () => {
    const o = await runAgainst({ ...base, apiLeewayS: Infinity }, { withApi: true, args });
    assert.equal(o.cli.code, 1, o.out);
    assert.deepEqual(failedIds(o.results), ['token.expiry.old-token-refused'], o.out);
    assert.match(byId(o.results, 'token.expiry.old-token-refused').message ?? '', /still accepts the access token 300 s after expires_in/);
  });
});
