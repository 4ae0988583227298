// The token endpoint on a clean reference: both grants (spec 4.1, 4.2), the
// answer's fields (2.1), Cache-Control: no-store, and every error of
// docs/profile.md's table (RFC 6749 5.2).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validateContract } from '../../../harness/contracts/index.ts';
import type { Reference } from '../../../harness/reference/index.ts';
import { RefClient, withReference, type Reply } from '../api/client.ts';

function assertTokenError(r: Reply, status: number, error: string): void {
  assert.equal(r.status, status, r.text);
  assert.equal(r.json.error, error, r.text);
  assert.equal(r.json.access_token, undefined, 'no access_token in an error');
  assert.equal(r.headers.get('cache-control'), 'no-store');
  assert.deepEqual(validateContract('token-error', r.json), []);
}

describe('token endpoint (clean reference)', () => {
  let ref: Reference;
  let c: RefClient;
  before(async () => { ({ ref, client: c } = await withReference()); });
  after(() => ref.close());
  const creds = () => ({ client_id: ref.clientId, client_secret: ref.clientSecret });

  it('issues a bearer token pair with 3600/7200 s lifetimes, scope and no-store (spec 2.1, 4.1)', async () => {
    const r = await c.tokenRequest({ grant_type: 'client_credentials', ...creds() });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.equal(r.json.token_type, 'bearer');
    assert.equal(r.json.expires_in, 3600);
    assert.equal(r.json.refresh_expires_in, 7200);
    assert.equal(typeof r.json.session_state, 'string');
    assert.equal(typeof r.json.scope, 'string');
    assert.notEqual(r.json.access_token, r.json.refresh_token);
    assert.deepEqual(validateContract('token-response', r.json), []);
    assert.deepEqual(Object.keys(r.json).sort(), ['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'scope', 'session_state', 'token_type']);
  });

  it('accepts client credentials in an HTTP Basic header too (RFC 6749 2.3.1)', async () => {
    const basic = Buffer.from(`${ref.clientId}:${ref.clientSecret}`).toString('base64');
    const r = await c.tokenRequest({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    assert.equal(r.status, 200, r.text);
  });

  it('renews both tokens on refresh and answers scope (spec 4.2)', async () => {
    const first = await c.tokenRequest({ grant_type: 'client_credentials', ...creds() });
    const r = await c.tokenRequest({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...creds() });
    assert.equal(r.status, 200, r.text);
    assert.notEqual(r.json.access_token, first.json.access_token);
    assert.notEqual(r.json.refresh_token, first.json.refresh_token);
    assert.equal(r.json.expires_in, 3600);
    assert.equal(r.json.refresh_expires_in, 7200);
    assert.equal(r.json.scope, first.json.scope);
    assert.equal(r.headers.get('cache-control'), 'no-store');
  });

  it('refuses a wrong secret, a missing secret and an unknown client with invalid_client', async () => {
    assertTokenError(await c.tokenRequest({ grant_type: 'client_credentials', client_id: ref.clientId, client_secret: 'wrong' }), 400, 'invalid_client');
    assertTokenError(await c.tokenRequest({ grant_type: 'client_credentials', client_id: ref.clientId }), 400, 'invalid_client');
    assertTokenError(await c.tokenRequest({ grant_type: 'client_credentials', client_id: 'someone', client_secret: ref.clientSecret }), 400, 'invalid_client');
    const basic = Buffer.from(`${ref.clientId}:wrong`).toString('base64');
    const r = await c.tokenRequest({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    assertTokenError(r, 401, 'invalid_client');
    assert.match(r.headers.get('www-authenticate') ?? '', /^Basic/);
  });

  it('refuses a missing grant_type (invalid_request) and an unsupported one (unsupported_grant_type)', async () => {
    assertTokenError(await c.tokenRequest(creds()), 400, 'invalid_request');
    assertTokenError(await c.tokenRequest({ grant_type: 'password', ...creds() }), 400, 'unsupported_grant_type');
  });

  it('refuses an unknown, missing or reused refresh token (invalid_grant / invalid_request)', async () => {
    assertTokenError(await c.tokenRequest({ grant_type: 'refresh_token', refresh_token: 'nope', ...creds() }), 400, 'invalid_grant');
    assertTokenError(await c.tokenRequest({ grant_type: 'refresh_token', ...creds() }), 400, 'invalid_request');
    const first = await c.tokenRequest({ grant_type: 'client_credentials', ...creds() });
    const refresh = { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, ...creds() };
    assert.equal((await c.tokenRequest(refresh)).status, 200);
    assertTokenError(await c.tokenRequest(refresh), 400, 'invalid_grant');
  });

  it('refuses a body that is not a form, and methods other than POST', async () => {
    const r = await fetch(ref.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...creds() }) });
    assert.equal(r.status, 400);
    assert.equal((await r.json() as { error: string }).error, 'invalid_request');
    const g = await fetch(ref.tokenUrl);
    assert.equal(g.status, 405);
    assert.equal(g.headers.get('allow'), 'POST');
  });

  it('serves the token endpoint only under its realm', async () => {
    const r = await fetch(ref.tokenUrl.replace('/realms/pis/', '/realms/other/'), { method: 'POST' });
    assert.equal(r.status, 404);
  });
});
