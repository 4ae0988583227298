// `run --suites token` against a Keycloak-style auth server with no API (no
// --base-url), as outsiders run it: every answer RFC 6749 and the spec allow
// passes (Bearer, id_token, not-before-policy, several scopes, no session_state,
// refresh_expires_in 0, errors with or without error_description/error_uri, 401
// with WWW-Authenticate, Cache-Control with more directives, charset in the
// content type, refresh tokens reusable or not), and the real faults still fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunResults } from '../../../harness/results/model.ts';
import type { KeycloakOptions } from './keycloak-server.ts';
import { byId, failedIds, runAgainst as run } from './run-token.ts';

/** Arbitrary: resets-lifetimes waits 6 spec s = 0.3 s real, far above timer noise. */
const TIME_SCALE = 0.05;
const runAgainst = (opts: Omit<KeycloakOptions, 'timeScale'>) => run({ timeScale: TIME_SCALE, ...opts });

function assertApiChecksSkipped(r: RunResults, out: string) {
  const api = r.checks.filter(c => /^token\.(use\.|expiry\.old-token-refused)/.test(c.id));
  assert.ok(api.length >= 6, out);
  assert.equal(r.summary.verdict, 'incomplete', out);
  for (const c of api) {
    assert.equal(c.status, 'skipped', `${c.id}: ${out}`);
    assert.equal(c.skipKind, 'not-run', c.id);
    assert.match(c.message ?? '', /--base-url/, c.id);
  }
}

describe('token suite against a Keycloak-style auth server without --base-url', () => {
  it('passes Keycloak\'s answers: offline refresh_expires_in 0, reusable refresh tokens, full error bodies', async () => {
    const o = await runAgainst({ refreshExpiresIn: 0, reusableRefresh: true });
    assert.equal(o.cli.code, 0, o.out);
    assert.deepEqual(failedIds(o.results), [], o.out);
    assert.match(byId(o.results, 'token.issue.refresh-token').message ?? '', /no fixed expiry/);
    // The stated numbers are reset; no token of the chain can be watched to its end (refresh_expires_in 0, no API): not run.
    assert.equal(byId(o.results, 'token.refresh.resets-lifetimes').skipKind, 'not-run', o.out);
    assert.match(byId(o.results, 'token.refresh.reuse-after-exchange').message ?? '', /allows a refresh token to be used again/);
    for (const id of ['token.issue.no-store', 'token.issue.optional-fields', 'token.issue.token-type', 'token.errors.wrong-secret-answer'])
      assert.equal(byId(o.results, id).status, 'passed', `${id}: ${o.out}`);
    assertApiChecksSkipped(o.results, o.out);
    // 0 reads as no fixed expiry: nothing to refuse after an end, and a life without end cannot be seen within a run.
    assert.equal(byId(o.results, 'token.expiry.old-refresh-token-refused').skipKind, 'not-applicable');
    assert.equal(byId(o.results, 'token.refresh.until-refresh-expires-in').skipKind, 'not-run');
    for (const id of ['token.expiry.old-refresh-token-refused', 'token.refresh.until-refresh-expires-in'])
      assert.match(byId(o.results, id).message ?? '', /refresh_expires_in is 0, read as no fixed expiry/, id);
    // id_token is no field of 2.1 and the suites never register it: it is hidden by its name alone.
    for (const t of o.issued) assert.ok(!o.reportText.includes(t), 'an issued token reached the report');
  });

  it('passes single-use refresh tokens that expire, bare error bodies and a Cache-Control in other letter case', async () => {
    // 120 spec s at 0.05: the refresh token's end is seen 6 s after the suite starts, beside its other checks.
    const o = await runAgainst({ reusableRefresh: false, errorDetails: false, cacheControl: 'private, No-Store, max-age=0', refreshExpiresIn: 120 });
    assert.equal(o.cli.code, 0, o.out);
    assert.deepEqual(failedIds(o.results), [], o.out);
    assert.match(byId(o.results, 'token.refresh.reuse-after-exchange').message ?? '', /refuses a refresh token used a second time/);
    for (const id of ['token.expiry.old-refresh-token-refused', 'token.refresh.until-refresh-expires-in'])
      assert.equal(byId(o.results, id).status, 'passed', `${id}: ${o.out}`);
    assertApiChecksSkipped(o.results, o.out);
  });

  it('does not wait past --max-wait for a refresh token\'s end, and names the --max-wait that would do', async () => {
    const o = await run({ timeScale: TIME_SCALE }, { args: ['--grep', 'token\\.(expiry|refresh)\\.'] });
    // 1800 spec s at 0.05 is 90 s of waiting, more than the default 60.
    for (const id of ['token.expiry.old-refresh-token-refused', 'token.refresh.until-refresh-expires-in']) {
      assert.equal(byId(o.results, id).skipKind, 'not-run', id);
      assert.match(byId(o.results, id).remedy ?? '', /^raise --max-wait to 100\b/, `${id}: ${o.out}`);
    }
  });

  it('still fails no no-store, a negative refresh_expires_in and a lifetime that counts down across a refresh', async () => {
    const o = await runAgainst({ cacheControl: 'no-cache, max-age=0', refreshExpiresIn: -1, faultCountdown: true });
    assert.equal(o.cli.code, 1, o.out);
    // The negative refresh_expires_in of the refresh answers too (token.refresh.answers-tokens judges every exchange's).
    const fails = ['token.issue.no-store', 'token.issue.refresh-token', 'token.refresh.answers-tokens', 'token.refresh.resets-lifetimes'];
    assert.deepEqual(failedIds(o.results), fails, o.out);
    assert.match(byId(o.results, 'token.issue.no-store').seen ?? '', /Cache-Control: no-cache, max-age=0; Pragma: no-cache/);
    assert.match(byId(o.results, 'token.refresh.resets-lifetimes').message ?? '', /expires_in was not reset/);
  });
});
