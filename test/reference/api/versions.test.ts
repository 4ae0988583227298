// The reference at each API version of spec 9: the operations of the version
// under its names and nothing newer, the renamed-* faults serving the other
// side's names, and `run --api-version detect` finding each version from outside.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSIONS, atLeast, type ApiVersion } from '../../../harness/contracts/api-versions.ts';
import { Redactor } from '../../../harness/report/redact.ts';
import { resolveTarget } from '../../../harness/config/config.ts';
import { detectApiVersion } from '../../../harness/config/detect.ts';
import type { Reference } from '../../../harness/reference/index.ts';
import { RefClient, withReference } from './client.ts';

const BANK = 'sparebank1-no';

/** The status each version answers: a consent started the version's way, then the renamed operations under both names. */
async function probe(c: RefClient, v: ApiVersion): Promise<Record<string, number>> {
  const sessions = atLeast(v, '3.0.0');
  const start = sessions
    ? await c.call('POST', '/session', { body: { bankId: BANK } })
    : await c.call('POST', '/consent', { body: { bankId: BANK, scope: 'accounts' } });
  const id: string = sessions ? start.json.sessionId : start.json.consentId;
  const h = { [sessions ? 'x-session-id' : 'x-consent-id']: id };
  return {
    start: start.status,
    'GET /session/{id}': (await c.call('GET', `/session/${id}`, { headers: h })).status,
    'GET /consent/{id}': (await c.call('GET', `/consent/${id}`, { headers: h })).status,
    'POST /confirm-funds': (await c.call('POST', '/confirm-funds', { headers: h, body: {} })).status,
    'POST /fundsconfirmations': (await c.call('POST', '/fundsconfirmations', { headers: h, body: {} })).status,
    'GET /banks/{id}': (await c.call('GET', `/banks/${BANK}`)).status,
  };
}

describe('the reference at an API version', () => {
  const refs: Reference[] = [];
  const at = async (apiVersion: ApiVersion, faults: string[] = []) => {
    const { ref, client } = await withReference({ apiVersion, faults });
    refs.push(ref);
    return client;
  };
  after(async () => { await Promise.all(refs.map(r => r.close())); });

  it('serves the names of 3.0.0 from 3.0.0 and the older names before it, and nothing newer', async () => {
    const seen = await probe(await at('3.2.0'), '3.2.0');
    assert.equal(seen.start, 201);
    assert.equal(seen['GET /session/{id}'], 200);
    assert.equal(seen['GET /consent/{id}'], 200);
    assert.notEqual(seen['POST /confirm-funds'], 404);
    assert.equal(seen['POST /fundsconfirmations'], 404);

    const old = await probe(await at('2.0.0'), '2.0.0');
    assert.equal(old.start, 201);
    assert.equal(old['GET /consent/{id}'], 200, 'GET /consent/{consentId} is the consent status before 3.0.0');
    assert.equal(old['GET /session/{id}'], 404);
    assert.equal(old['POST /confirm-funds'], 404);
    assert.notEqual(old['POST /fundsconfirmations'], 404);
    assert.equal(old['GET /banks/{id}'], 200);

    const first = await probe(await at('1.0.0'), '1.0.0');
    assert.equal(first.start, 201);
    assert.equal(first['GET /consent/{id}'], 404, 'no consent status at 1.0.0: POST /consent only');
    assert.equal(first['POST /fundsconfirmations'], 404);
    assert.equal(first['GET /banks/{id}'], 404);
  });

  it('each renamed-* fault serves its operation under the other side\'s name only', async () => {
    const now = await probe(await at('3.2.0', ['renamed-consent-status', 'renamed-confirm-funds']), '3.2.0');
    assert.equal(now['GET /session/{id}'], 405, 'GET /session/{id} is gone (DELETE is still there)');
    assert.equal(now['POST /confirm-funds'], 404);
    assert.notEqual(now['POST /fundsconfirmations'], 404);
    const then = await probe(await at('2.0.0', ['renamed-consent-status', 'renamed-confirm-funds']), '2.0.0');
    assert.equal(then['GET /session/{id}'], 200);
    assert.notEqual(then['POST /confirm-funds'], 404);
    assert.equal(then['POST /fundsconfirmations'], 404);
  });

  it('errors before 3.0.0 are plain: a status and a message, no error code', async () => {
    const c = await at('2.0.0');
    const r = await c.call('GET', '/accounts', { headers: { 'x-consent-id': 'no-such-consent' } });
    assert.ok(r.status >= 400 && r.status < 500, r.text);
    assert.equal(typeof r.json.message, 'string');
    assert.equal(r.json.errorCode, undefined);
  });
});

const credentialsOf = (ref: Reference) => ({ authUrl: ref.authUrl, realm: ref.realm, clientId: ref.clientId, clientSecret: ref.clientSecret });

describe('run --api-version detect', () => {
  const refs = new Map<ApiVersion, Reference>();
  before(async () => {
    for (const v of API_VERSIONS) refs.set(v, (await withReference({ apiVersion: v })).ref);
  });
  after(async () => { await Promise.all([...refs.values()].map(r => r.close())); });

  for (const v of API_VERSIONS) {
    it(`finds ${v}${v === '3.0.0' ? ' (read as 3.0.1: they differ only in x-psu-id)' : ''} and says why`, async () => {
      const ref = refs.get(v)!;
      const client = new RefClient(ref);
      await client.login();
      const cfg = resolveTarget({ ...credentialsOf(ref), baseUrl: ref.baseUrl, apiVersion: 'detect' });
      const found = await detectApiVersion(cfg, new Redactor(), client.token);
      assert.equal(found.version, v === '3.0.0' ? '3.0.1' : v, found.why);
      assert.match(found.why, new RegExp(`the highest version it answers to is ${found.version.replace(/\./g, '\\.')}\\.$`));
      assert.ok(found.findings.probes.length >= 2, found.why);
    });
  }

  it('a base URL that lists no bank is a harness error that names the fix', async () => {
    const ref = refs.get('3.2.0')!;
    const client = new RefClient(ref);
    await client.login();
    const cfg = resolveTarget({ ...credentialsOf(ref), baseUrl: `${ref.baseUrl}/elsewhere` });
    await assert.rejects(detectApiVersion(cfg, new Redactor(), client.token), /without a bank, so the API version could not be probed: give --api-version V/);
  });
});
