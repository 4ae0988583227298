// The happy paths of the banking API on a clean reference: every answer fits
// the project's contracts, the seed data shows what spec 2.6 asks for, consent
// completes headless (and with a button), and the strong-customer-authentication
// path leads through authorize to a Nordic status code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { validateContract } from '../../../harness/contracts/index.ts';
import { bicLengthOk } from '../../../harness/contracts/rules.ts';
import { ibanValid } from '../../../harness/reference/data/iban.ts';
import type { Reference } from '../../../harness/reference/index.ts';
import { paymentBody, RefClient, withReference } from './client.ts';

const NORDIC_CODES = ['RCVD', 'ACCP', 'ACSP', 'ACSC', 'RJCT', 'CANC', 'PDNG', 'NAUT', 'PRSY'];

describe('banking API flows (clean reference)', () => {
  let ref: Reference;
  let c: RefClient;
  before(async () => { ({ ref, client: c } = await withReference()); });
  after(() => ref.close());

  it('lists banks of NO, SE, FI, DK and DE with different supportedServices, filtered by countryCode and name', async () => {
    const all = (await c.call('GET', '/banks')).json as any[];
    assert.deepEqual([...new Set(all.map(b => b.countryCode))].sort(), ['DE', 'DK', 'FI', 'NO', 'SE']);
    assert.ok(new Set(all.map(b => JSON.stringify(b.supportedServices))).size >= 3);
    for (const b of all) assert.deepEqual(validateContract('bank', b), [], b.id);
    const no = (await c.call('GET', '/banks?countryCode=NO')).json as any[];
    assert.ok(no.length >= 2 && no.every(b => b.countryCode === 'NO'));
    assert.deepEqual((await c.call('GET', '/banks?name=nordea')).json.map((b: { id: string }) => b.id), ['nordea-fi']);
    assert.deepEqual((await c.call('GET', '/banks?countryCode=SE&name=DNB')).json, []);
    assert.equal((await c.call('GET', '/banks/deutsche-de')).json.bic, 'DEUTDEFF');
  });

  it('creates a session, reports its consent status, and completes consent by a GET that redirects', async () => {
    await c.newSession('sparebank1-no');
    const status = await c.call('GET', `/session/${c.sessionId}`);
    assert.deepEqual(validateContract('consent-status', status.json), []);
    assert.equal(status.json.consentStatus, 'PENDING');
    const url = await c.call('GET', `/consent/${c.sessionId}?scope=accounts`, { headers: { 'x-redirect-url': 'https://merchant.example/back' } });
    assert.deepEqual(validateContract('consent-url', url.json), []);
    const href = url.json.links[0].href as string;
    assert.ok(href.startsWith(`${ref.authUrl}/bank/consent/`), href);
    const page = await fetch(href, { redirect: 'manual' });
    assert.equal(page.status, 302);
    assert.equal(page.headers.get('location'), 'https://merchant.example/back');
    assert.equal((await c.call('GET', '/session')).json.consentStatus, 'VALID');
  });

  it('offers an interactive consent page whose button grants consent and lands on a done page', async () => {
    await c.newSession('nordea-fi');
    const url = await c.call('GET', `/consent/${c.sessionId}?scope=payments`);
    const form = await fetch(`${url.json.links[0].href}?interactive=1`);
    const html = await form.text();
    assert.match(html, /<button id="approve"/);
    assert.equal((await c.call('GET', `/session/${c.sessionId}`)).json.consentStatus, 'PENDING', 'showing the page grants nothing');
    const action = /action="([^"]+)"/.exec(html)![1];
    const done = await fetch(new URL(action, ref.authUrl),
      { method: 'POST', body: 'decision=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(done.status, 200);
    assert.match(await done.text(), /Consent was given/);
    assert.equal((await c.call('GET', '/accounts')).status, 200);
  });

  it('serves accounts with and without ownerName/displayName, and transactions with 8- and 11-character BICs and empty counterparties', async () => {
    await c.ready('handelsbanken-se');
    const accounts = (await c.call('GET', '/accounts')).json as any[];
    for (const a of accounts) {
      assert.deepEqual(validateContract('account', a), [], a.id);
      assert.ok(ibanValid(a.iban), a.iban);
    }
    assert.deepEqual(accounts.map(a => a.ownerName === ''), [false, true]);
    assert.deepEqual(accounts.map(a => a.displayName === ''), [false, true]);
    const txs = (await c.call('GET', `/accounts/${accounts[0].id}/transactions`)).json as any[];
    for (const t of txs) assert.deepEqual(validateContract('transaction', t), [], t.id);
    const agents = txs.map(t => t.counterpartyAgent).filter(Boolean);
    assert.deepEqual(agents.map(a => a.length).sort(), [11, 8].sort());
    assert.ok(agents.every(bicLengthOk));
    assert.ok(txs.some(t => t.counterpartyAccount === '' && t.counterpartyName === '' && t.counterpartyAgent === ''));
    const same = (await c.call('GET', `/transactions?accountId=${accounts[0].id}`)).json;
    assert.deepEqual(same, txs);
  });

  it('accepts each payment product at a bank without strong customer authentication', async () => {
    await c.ready('nordea-fi');
    for (const product of ['domestic-transfer', 'sepa-credit', 'sepa-scheduled-credit']) {
      const r = await c.call('POST', `/payments/${product}`, { body: paymentBody(product, { currency: 'EUR' }) });
      assert.equal(r.status, 201, `${product}: ${r.text}`);
      assert.deepEqual(validateContract('payment-answer', r.json), []);
      const got = await c.call('GET', `/payments/${product}/${r.json.paymentId}`);
      assert.deepEqual(validateContract('payment-status', got.json), []);
      assert.ok(NORDIC_CODES.includes(got.json.status), `${product}: ${got.json.status}`);
      // ACSC once 30 spec s (0.3 real s here) passed since acceptance: a slow machine may see it already.
      assert.ok(product.includes('scheduled') ? got.json.status === 'PDNG' : ['ACSP', 'ACSC'].includes(got.json.status), got.json.status);
    }
    await c.ready('sparebank1-no');
    const r = await c.call('POST', '/payments/domestic-scheduled-transfer', { body: paymentBody('domestic-scheduled-transfer') });
    assert.equal(r.status, 201, r.text);
  });

  it('accepts an instant domestic payment with paymentMetadata where supportedServices lists instant-domestic-transfer', async () => {
    await c.ready('nordea-fi');
    const body = paymentBody('domestic-transfer', { currency: 'EUR', instantPayment: true, paymentMetadata: {} });
    const r = await c.call('POST', '/payments/domestic-transfer', { body });
    assert.equal(r.status, 201, r.text);
    const sepa = await c.call('POST', '/payments/sepa-credit', { body: paymentBody('sepa-credit', { currency: 'EUR', paymentMetadata: { channel: 'web' } }) });
    assert.equal(sepa.status, 201, sepa.text);
  });

  it('leads a payment at an SCA bank through 1428, authorize and the bank page to ACSP', async () => {
    await c.ready('dnb-no');
    const refused = await c.call('POST', '/payments/domestic-transfer',
      { body: paymentBody('domestic-transfer'), headers: { 'x-redirect-url': 'https://merchant.example/paid' } });
    assert.equal(refused.json.errorCode, '1428');
    const authorizeUrl = refused.json.links[0].href as string;
    const id = refused.json.links[0].meta.id as string;
    assert.equal((await c.call('GET', `/payments/domestic-transfer/${id}`)).json.status, 'RCVD');
    const auth = await fetch(authorizeUrl,
      { method: 'POST', headers: { authorization: `Bearer ${c.token}`, 'x-device-id': 'd', 'x-session-id': c.sessionId } });
    assert.equal(auth.status, 200);
    const link = (await auth.json() as { links: { rel: string; href: string }[] }).links[0];
    assert.equal(link.rel, 'authorize');
    const bank = await fetch(link.href, { redirect: 'manual' });
    assert.equal(bank.status, 302);
    assert.equal(bank.headers.get('location'), 'https://merchant.example/paid', 'the redirect given at initiation');
    assert.ok(['ACSP', 'ACSC'].includes((await c.call('GET', `/payments/domestic-transfer/${id}`)).json.status));
  });

  it('settles a payment to ACSC after 30 spec seconds, and a DE payment answers ACTC (outside the Nordic rule)', async () => {
    await c.ready('deutsche-de');
    const de = await c.call('POST', '/payments/sepa-credit', { body: paymentBody('sepa-credit', { currency: 'EUR' }) });
    assert.equal(de.json.status, 'ACTC');
    await ref.clock.sleep(31_000);
    assert.equal((await c.call('GET', `/payments/sepa-credit/${de.json.paymentId}`)).json.status, 'ACSC');
  });

  it('confirms funds against the account balance', async () => {
    await c.ready('sparebank1-no');
    const iban = (await c.call('GET', '/accounts')).json[1].iban;
    assert.deepEqual((await c.call('POST', '/confirm-funds', { body: { iban, amount: '100.00', currency: 'NOK' } })).json, { fundsAvailable: true });
    assert.deepEqual((await c.call('POST', '/confirm-funds', { body: { iban, amount: 5000, currency: 'NOK' } })).json, { fundsAvailable: false });
  });

  it('answers a health summary at / and 404 elsewhere', async () => {
    const root = await fetch(`${ref.authUrl}/`);
    assert.equal((await root.json() as { baseUrl: string }).baseUrl, ref.baseUrl);
    assert.equal((await fetch(`${ref.authUrl}/nope`)).status, 404);
    assert.equal((await fetch(`${ref.controlUrl}/health`)).status, 200);
  });
});
