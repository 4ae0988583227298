// Every API error path of docs/profile.md on a clean reference: statuses (510 for
// client errors, 401, 501), codes, the error body, the consent-link error for
// new, deleted, expired and unknown sessions, and the api-errors-4xx and
// api-errors-401-403 quirks.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Reference } from '../../../harness/reference/index.ts';
import { assertConsentLink, assertError } from './assert-error.ts';
import { paymentBody, RefClient, withReference } from './client.ts';

describe('API errors (clean reference)', () => {
  let ref: Reference;
  let c: RefClient;
  before(async () => { ({ ref, client: c } = await withReference()); });
  after(() => ref.close());

  it('answers 401 with an AUTH error for a missing, malformed or wrong access token', async () => {
    for (const authorization of [undefined, 'Basic abc', 'Bearer not-a-token']) {
      const r = await c.call('GET', '/banks', { headers: { authorization } });
      const b = assertError(r, 401, '1401');
      assert.equal(b.type, 'AUTH');
      assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer /);
    }
  });

  it('answers 1001 for a missing x-device-id', async () => {
    assertError(await c.call('GET', '/banks', { headers: { 'x-device-id': undefined } }), 510, '1001');
  });

  it('answers 1003 for an unknown bank, 1002 for a session without bankId or a body that is not JSON', async () => {
    assertError(await c.call('GET', '/banks/no-such-bank'), 510, '1003');
    assertError(await c.call('POST', '/session', { body: { bankId: 'no-such-bank' } }), 510, '1003');
    assertError(await c.call('POST', '/session', { body: {} }), 510, '1002');
    const raw = await fetch(`${ref.baseUrl}/session`, { method: 'POST', body: '{nope',
      headers: { authorization: `Bearer ${c.token}`, 'x-device-id': 'd', 'content-type': 'application/json' } });
    assert.equal(raw.status, 510);
    assert.equal((await raw.json() as { errorCode: string }).errorCode, '1002');
  });

  it('answers 1001 when a session-bound call has no x-session-id', async () => {
    c.sessionId = '';
    for (const [m, p] of [['GET', '/accounts'], ['POST', '/confirm-funds'], ['POST', '/payments/domestic-transfer']] as const)
      assertError(await c.call(m, p, { body: m === 'POST' ? {} : undefined }), 510, '1001');
  });

  it('answers the consent-link error (1426, absolute href) for a new session on every session-bound call', async () => {
    const id = await c.newSession('sparebank1-no');
    for (const [m, p] of [['GET', '/accounts'], ['GET', '/accounts/sparebank1-no-acc-1/transactions'], ['POST', '/confirm-funds'],
      ['POST', '/payments/domestic-transfer'], ['GET', '/payments/domestic-transfer/x']] as const)
      assertConsentLink(await c.call(m, p, { body: m === 'POST' ? paymentBody('domestic-transfer') : undefined }), 510, id, ref.baseUrl);
  });

  it('answers the consent-link error for a deleted session, also on GET /session, and for an unknown one', async () => {
    await c.ready('sparebank1-no');
    assert.equal((await c.call('GET', '/accounts')).status, 200);
    assert.equal((await c.call('DELETE', `/session/${c.sessionId}`)).status, 204);
    assertConsentLink(await c.call('GET', '/accounts'), 510, c.sessionId, ref.baseUrl);
    assertConsentLink(await c.call('GET', `/session/${c.sessionId}`), 510, c.sessionId, ref.baseUrl);
    // A deleted session cannot be consented to again: its consent request is an invalid id.
    assertError(await c.call('GET', `/consent/${c.sessionId}`), 510, '1003');
    c.sessionId = 'never-created';
    assertConsentLink(await c.call('GET', '/accounts'), 510, 'never-created', ref.baseUrl);
  });

  it('checks x-psu-ip-address (1001 where the bank requires it, 1004 when malformed) and x-redirect-url (1005)', async () => {
    await c.newSession('swedbank-se');
    assertError(await c.call('GET', `/consent/${c.sessionId}?scope=accounts`), 510, '1001');
    assertError(await c.call('GET', `/consent/${c.sessionId}`, { headers: { 'x-psu-ip-address': 'not-an-ip' } }), 510, '1004');
    assertError(await c.call('GET', `/consent/${c.sessionId}`, { headers: { 'x-psu-ip-address': '192.0.2.1', 'x-redirect-url': 'relative/path' } }),
      510, '1005');
    assertError(await c.call('GET', `/consent/${c.sessionId}?scope=everything`, { headers: { 'x-psu-ip-address': '192.0.2.1' } }), 510, '1002');
    await c.consent();
    assertError(await c.call('GET', '/accounts', { headers: { 'x-psu-ip-address': '999.1.1.1' } }), 510, '1004');
  });

  it('refuses a body over 1 MiB with 413 and its error body, answered while the body is still coming', async () => {
    // A raw socket: the answer is read whole, by its content-length, while the body is still being sent.
    const url = new URL(`${ref.baseUrl}/session`);
    const body = Buffer.alloc(1_500_000, 0x20);
    const head = `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${c.token}\r\nx-device-id: d\r\n` +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      let got = '';
      const socket = connect(Number(url.port), url.hostname, () => { socket.write(head); socket.write(body); });
      const whole = () => {
        const end = got.indexOf('\r\n\r\n'), length = /\r\ncontent-length: (\d+)/i.exec(got)?.[1];
        return end >= 0 && length !== undefined && Buffer.byteLength(got.slice(end + 4)) >= Number(length);
      };
      socket.setEncoding('utf8');
      socket.on('data', d => { got += d; if (whole()) { socket.destroy(); resolve(got); } });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`the connection ended before a whole answer: ${JSON.stringify(got.slice(0, 200))}`)));
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"errorCode":"1002"/);
  });

  it('answers 1003 for an unknown account or payment id', async () => {
    await c.ready('sparebank1-no');
    assertError(await c.call('GET', '/accounts/nope/transactions'), 510, '1003');
    assertError(await c.call('GET', '/accounts/dnb-no-acc-1/transactions'), 510, '1003');
    assertError(await c.call('GET', '/payments/sepa-credit/nope'), 510, '1003');
    assertError(await c.call('POST', '/payments/sepa-credit/nope/authorize'), 510, '1003');
    assertError(await c.call('POST', '/confirm-funds', { body: { iban: 'NO0000000000000', amount: 1, currency: 'NOK' } }), 510, '1003');
  });

  it('refuses each payment product without each required field (1002)', async () => {
    await c.ready('nordea-fi');
    const required: Record<string, string[]> = {
      'domestic-transfer': ['creditorAccount', 'instrumentedAmount', 'currency', 'endToEndIdentification'],
      'sepa-credit': ['creditorAccount', 'instrumentedAmount', 'currency', 'endToEndIdentification'],
      'sepa-scheduled-credit': ['creditorAccount', 'instrumentedAmount', 'currency', 'endToEndIdentification', 'requestedExecutionDate'],
    };
    for (const [product, fields] of Object.entries(required)) {
      for (const field of fields) {
        const body = paymentBody(product);
        delete body[field];
        const b = assertError(await c.call('POST', `/payments/${product}`, { body }), 510, '1002');
        assert.match(b.message, new RegExp(field), `${product} without ${field}`);
      }
    }
    for (const bad of [{ instrumentedAmount: '-1' }, { currency: 'euro' }, { requestedExecutionDate: '2026-02-30' }, { creditorAccount: {} }])
      assertError(await c.call('POST', '/payments/sepa-scheduled-credit', { body: paymentBody('sepa-scheduled-credit', bad) }), 510, '1002');
    await c.ready('sparebank1-no');
    for (const field of ['requestedExecutionDate', 'creditorAccount']) {
      const body = paymentBody('domestic-scheduled-transfer');
      delete body[field];
      assertError(await c.call('POST', '/payments/domestic-scheduled-transfer', { body }), 510, '1002');
    }
    const noScheme = paymentBody('domestic-scheduled-transfer', { creditorAccount: { identifier: '1' } });
    assertError(await c.call('POST', '/payments/domestic-scheduled-transfer', { body: noScheme }), 510, '1002');
  });

  it('refuses a product the bank does not list in supportedServices (1007)', async () => {
    await c.ready('sparebank1-no');
    assertError(await c.call('POST', '/payments/sepa-scheduled-credit', { body: paymentBody('sepa-scheduled-credit') }), 510, '1007');
    await c.ready('deutsche-de');
    assertError(await c.call('POST', '/payments/domestic-scheduled-transfer', { body: paymentBody('domestic-scheduled-transfer') }), 510, '1007');
  });

  it('refuses an instant payment at a bank without instant-domestic-transfer (1007), a non-boolean instantPayment (1002) ' +
    'and an amount above the limit (1008)', async () => {
    await c.ready('sparebank1-no');
    assertError(await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer', { instantPayment: true }) }), 510, '1007');
    assert.equal((await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer', { instantPayment: false }) })).status, 201);
    await c.ready('nordea-fi');
    assertError(await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer', { instantPayment: 'yes' }) }), 510, '1002');
    assertError(await c.call('POST', '/payments/domestic-transfer',
      { body: paymentBody('domestic-transfer', { instrumentedAmount: '1000000.01' }) }), 510, '1008');
    assert.equal((await c.call('POST', '/payments/domestic-transfer',
      { body: paymentBody('domestic-transfer', { instrumentedAmount: '1000000.00' }) })).status, 201);
  });

  it('answers 1428 with an authorize link at a bank with strong customer authentication', async () => {
    await c.ready('danske-dk');
    const b = assertError(await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') }), 510, '1428');
    const link = b.links.find((l: { rel: string }) => l.rel === 'authorize');
    assert.match(link.href, new RegExp(`^${ref.baseUrl}/payments/domestic-transfer/[\\w-]+/authorize$`));
    assert.equal(link.meta.id, link.href.split('/').at(-2));
  });

  it('answers 501 Not Implemented for confirm-funds at the bank that does not support it', async () => {
    await c.ready('danske-dk');
    assertError(await c.call('POST', '/confirm-funds', { body: { iban: 'DK5000400440116243', amount: 1, currency: 'DKK' } }), 501, '1501');
  });

  it('answers 404 for an unknown operation and 405 for a wrong method, with the error body', async () => {
    assertError(await c.call('GET', '/nothing-here'), 404, '1404');
    assertError(await c.call('GET', '/payments/wire-transfer/abc'), 404, '1404');
    assertError(await c.call('GET', '/banks/%E0%A4%A'), 404, '1404');
    const r = await c.call('PUT', '/banks');
    assertError(r, 405, '1405');
    assert.equal(r.headers.get('allow'), 'GET');
  });

  it('echoes an x-request-id it was given', async () => {
    const r = await c.call('GET', '/banks', { headers: { 'x-request-id': 'req-42' } });
    assert.equal(r.headers.get('x-request-id'), 'req-42');
  });
});

/** The statuses each error-status quirk answers: a missing header, an unknown id, the consent-link error, the authentication error. */
const STATUS_QUIRKS = [
  { quirk: 'api-errors-4xx', header: 400, unknown: 404, consent: 409, sca: 409 },
  { quirk: 'api-errors-401-403', header: 400, unknown: 404, consent: 401, sca: 403 },
];

for (const q of STATUS_QUIRKS) {
  describe(`API errors under the ${q.quirk} quirk`, () => {
    it(`answers ${q.header}, ${q.unknown}, ${q.consent} (the consent-link error, with its link) and ${q.sca} instead of 510, and keeps 401 and 501`,
      async () => {
        const { ref, client: c } = await withReference({ faults: [q.quirk] });
        try {
          assertError(await c.call('GET', '/banks', { headers: { 'x-device-id': undefined } }), q.header, '1001');
          assertError(await c.call('GET', '/banks/nope'), q.unknown, '1003');
          const id = await c.newSession('danske-dk');
          assertConsentLink(await c.call('GET', '/accounts'), q.consent, id, ref.baseUrl);
          await c.consent();
          assertError(await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') }), q.sca, '1428');
          assertError(await c.call('POST', '/confirm-funds', { body: {} }), 501, '1501');
          assertError(await c.call('GET', '/banks', { headers: { authorization: 'Bearer wrong' } }), 401, '1401');
        } finally { await ref.close(); }
      });
  });
}

describe('consent expiry', () => {
  it('answers the consent-link error once the consent is older than its lifetime (3600 spec s)', async () => {
    // Scale 0.0005: the consent lasts 1.8 real seconds (and so does the access token, renewed below).
    const { ref, client: c } = await withReference({ timeScale: 0.0005 });
    try {
      await c.ready('sparebank1-no');
      const givenAt = ref.clock.now();
      const r1 = await c.call('GET', '/accounts');
      if (ref.clock.now() - givenAt < 3_500_000) assert.equal(r1.status, 200);
      await ref.clock.sleep(3_600_000 - (ref.clock.now() - givenAt) + 200_000);
      await c.login();
      assertConsentLink(await c.call('GET', '/accounts'), 510, c.sessionId, ref.baseUrl);
      assert.equal((await c.call('GET', `/session/${c.sessionId}`)).json.consentStatus, 'EXPIRED');
      // Renewing the consent on the same session makes it usable again.
      await c.consent();
      assert.equal((await c.call('GET', '/accounts')).status, 200);
    } finally { await ref.close(); }
  });
});
