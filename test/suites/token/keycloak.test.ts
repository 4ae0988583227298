// `run --suites token` against a Keycloak-style auth server with no API (no
// --base-url), as outsiders run it: every answer RFC 6749 and the spec allow
// passes (Bearer, id_token, not-before-policy, several scopes, no session_state,
// refresh_expires_in 0, errors with or without error_description/error_uri, 401
// with WWW-Authenticate, Cache-Control with more directives, charset in the
// content type, refresh tokens reusable or not), and the real faults still fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../../harness/report/model.ts';
import { runCli, type CliResult } from '../../helpers/cli.ts';
import { CLIENT_ID, CLIENT_SECRET, REALM, startKeycloak, TOKEN_PATH, type KeycloakOptions } from './keycloak-server.ts';

/** Arbitrary: resets-lifetimes waits 6 spec s = 0.3 s real, far above timer noise. */
const TIME_SCALE = 0.05;

interface Outcome { cli: CliResult; results: RunResults; out: string; issued: string[]; reportText: string }

/** One run against a fresh server; only --config (auth-url, realm, client-id, paths.token) and the secret in env. */
async function runAgainst(opts: Omit<KeycloakOptions, 'timeScale'>): Promise<Outcome> {
  const kc = await startKeycloak({ timeScale: TIME_SCALE, ...opts });
  const dir = mkdtempSync(join(tmpdir(), 'pis-kc-'));
  try {
    const config = join(dir, 'target.yaml');
    writeFileSync(config, `auth-url: ${kc.authUrl}\nrealm: ${REALM}\nclient-id: ${CLIENT_ID}\npaths:\n  token: ${TOKEN_PATH}\n`);
    const report = join(dir, 'report');
    const cli = await runCli(['run', '--suites', 'token', '--config', config, '--time-scale', String(TIME_SCALE), '--workers', '1', '--report', report],
      { env: { PIS_CLIENT_SECRET: CLIENT_SECRET }, timeoutMs: 120_000 });
    const out = `${cli.stdout}\n${cli.stderr}`;
    let results: RunResults;
    try { results = JSON.parse(readFileSync(join(report, 'results.json'), 'utf8')) as RunResults; } catch { assert.fail(`no results.json:\n${out}`); }
    const reportText = readdirSync(report).map(f => readFileSync(join(report, f), 'utf8')).join('\n');
    return { cli, results, out, issued: kc.issued.slice(), reportText };
  } finally {
    await kc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const byId = (r: RunResults, id: string) => {
  const c = r.checks.find(x => x.id === id);
  assert.ok(c, `check ${id} did not run`);
  return c;
};
const failedIds = (r: RunResults) => r.checks.filter(c => c.status === 'failed').map(c => c.id).sort();

function assertApiChecksSkipped(r: RunResults, out: string) {
  const api = r.checks.filter(c => /^token\.(use|expiry)\./.test(c.id));
  assert.ok(api.length >= 6, out);
  for (const c of api) {
    assert.equal(c.status, 'skipped', `${c.id}: ${out}`);
    assert.match(c.message ?? '', /--base-url/, c.id);
  }
}

describe('token suite against a Keycloak-style auth server without --base-url', () => {
  it('passes Keycloak\'s answers: offline refresh_expires_in 0, reusable refresh tokens, full error bodies', async () => {
    const o = await runAgainst({ refreshExpiresIn: 0, reusableRefresh: true });
    assert.equal(o.cli.code, 0, o.out);
    assert.deepEqual(failedIds(o.results), [], o.out);
    assert.match(byId(o.results, 'token.issue.refresh-token').message ?? '', /no fixed expiry/);
    assert.equal(byId(o.results, 'token.refresh.resets-lifetimes').status, 'passed', o.out);
    assert.match(byId(o.results, 'token.refresh.reuse-after-exchange').message ?? '', /allows a refresh token to be used again/);
    for (const id of ['token.issue.no-store', 'token.issue.optional-fields', 'token.issue.token-type', 'token.errors.wrong-secret-answer'])
      assert.equal(byId(o.results, id).status, 'passed', `${id}: ${o.out}`);
    assertApiChecksSkipped(o.results, o.out);
    // id_token is no field of 2.1 and the suites never register it: it is hidden by its name alone.
    for (const t of o.issued) assert.ok(!o.reportText.includes(t), 'an issued token reached the report');
  });

  it('passes single-use refresh tokens, bare error bodies and a Cache-Control in other letter case', async () => {
    const o = await runAgainst({ reusableRefresh: false, errorDetails: false, cacheControl: 'private, No-Store, max-age=0' });
    assert.equal(o.cli.code, 0, o.out);
    assert.deepEqual(failedIds(o.results), [], o.out);
    assert.match(byId(o.results, 'token.refresh.reuse-after-exchange').message ?? '', /refuses a refresh token used a second time/);
    assertApiChecksSkipped(o.results, o.out);
  });

  it('still fails no no-store, a negative refresh_expires_in and a lifetime that counts down across a refresh', async () => {
    const o = await runAgainst({ cacheControl: 'no-cache, max-age=0', refreshExpiresIn: -1, faultCountdown: true });
    assert.equal(o.cli.code, 1, o.out);
    assert.deepEqual(failedIds(o.results), ['token.issue.no-store', 'token.issue.refresh-token', 'token.refresh.resets-lifetimes'], o.out);
    assert.match(byId(o.results, 'token.issue.no-store').seen ?? '', /Cache-Control: no-cache, max-age=0; Pragma: no-cache/);
    assert.match(byId(o.results, 'token.refresh.resets-lifetimes').message ?? '', /expires_in was not reset/);
  });
});
