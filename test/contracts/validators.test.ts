// harness/contracts/index.ts: every contract compiles, violations read well
// (pointer, expected, found, spec, level), levels follow the spec, and the
// classifier tells the three webhook kinds and token answers apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONTRACT_NAMES, checkWebhookBody, classifyItem, classifyWebhook, conforms, isConformant, validateContract,
} from '../../harness/contracts/index.ts';

test('all contracts compile in strict mode and reject a non-object', () => {
  assert.equal(CONTRACT_NAMES.length, 17);
  for (const name of CONTRACT_NAMES) {
    const v = validateContract(name, 'not an object');
    assert.ok(v.some(x => x.pointer === '' && x.rule === 'schema.type'), name);
  }
});

test('a violation names pointer, expected, found, spec section and level', () => {
  const [v] = validateContract('token-response', { access_token: 'a', expires_in: 3600, refresh_token: 'r', refresh_expires_in: 7200, token_type: 'mac' });
  assert.deepEqual(v, { pointer: '/token_type', expected: 'bearer, in any letter case', found: '"mac" (a string)', spec: '2.1', level: 'must',
    rule: 'schema.pattern' });
});

test('docs/profile.md decisions never reach must: records, error body, dates', () => {
  const bank = validateContract('bank', { supportedServices: [] });
  assert.ok(bank.length > 0 && isConformant(bank), JSON.stringify(bank));
  const err = validateContract('error-body', { errorCode: 'E1426', message: 'x', type: 'OTHER' });
  assert.ok(err.length === 2 && err.every(x => x.level === 'profile'), JSON.stringify(err));
  assert.ok(!isConformant(validateContract('bank', { supportedServices: 'a,b' })), 'a spec 2.6 rule is must');
});

test('spec 2.6: ownerName "" is fine, null is not; counterpartyAgent of 9 characters is not', () => {
  assert.ok(isConformant(validateContract('account', { id: 'a', ownerName: '', displayName: '' })));
  assert.ok(!isConformant(validateContract('account', { id: 'a', ownerName: null, displayName: '' })));
  const t = { id: 't', transactionAmount: { value: 1, currency: 'NOK' }, counterpartyAccount: '', counterpartyName: '' };
  assert.ok(isConformant(validateContract('transaction', { ...t, counterpartyAgent: '' })));
  const bad = validateContract('transaction', { ...t, counterpartyAgent: 'DNBANOKKX' });
  assert.equal(bad[0].rule, 'bic.length');
  assert.equal(bad[0].level, 'must');
});

test('token error: an error code outside RFC 6749 is a should, a leaked token a must', () => {
  assert.deepEqual(validateContract('token-error', { error: 'unauthorized_client' }), []);
  const odd = validateContract('token-error', { error: 'client_unknown' });
  assert.ok(odd.length === 1 && odd[0].level === 'should');
  assert.ok(!isConformant(validateContract('token-error', { error: 'invalid_client', refresh_token: 'r' })));
});

test('results.json: the summary must agree with the checks', () => {
  const check = { id: 'token.issue.bearer', suite: 'token', title: 't', spec: '2.1', level: 'must', status: 'failed', evidence: [], durationMs: 3 };
  const results = { tool: { name: 'pis-conformance', version: '0.1.0' }, command: 'run', target: {}, timeScale: 1,
    startedAt: '2026-11-22T10:00:00.000Z', finishedAt: '2026-11-22T10:00:41.000Z', checks: [check],
    summary: { passed: 0, failed: 1, skipped: 0, conformant: false } };
  assert.deepEqual(validateContract('results', results), []);
  const wrong = validateContract('results', { ...results, summary: { passed: 1, failed: 1, skipped: 0, conformant: true } });
  assert.deepEqual(wrong.map(v => v.pointer).sort(), ['/summary/conformant', '/summary/passed']);
});

test('classification: batch by payments, older by the absence of every newer field, token answers by theirs', () => {
  assert.equal(classifyWebhook({ payments: [] }), 'batch');
  assert.equal(classifyWebhook({ id: 'c-1', status: 'STARTED', payment: {}, payments: null }), 'normal', 'a null payments is no batch');
  assert.equal(classifyWebhook({ status: 'STARTED', payment: { amount: 1, currency: 'NOK', remittanceInfo: 'x' } }), 'older');
  assert.equal(classifyWebhook({ status: 'STARTED', abortReason: null, payment: { amount: 1, currency: 'NOK' } }), 'older');
  assert.equal(classifyWebhook({ status: 'STARTED', payment: { amount: 1, currency: 'NOK', originalAmount: 1 } }), 'normal', 'lost its id');
  assert.equal(classifyWebhook({ id: null, payment: {} }), 'normal');
  assert.equal(classifyWebhook({ id: 'c-1', status: 'STARTED' }), 'normal', 'a broken body is still judged as a body');
  assert.equal(classifyWebhook({ id: 'dnb', supportedServices: [] }), 'unknown', 'one shared field name is not enough');
  assert.equal(classifyWebhook([]), 'unknown');
  assert.equal(classifyItem({ access_token: 'a' }), 'token-response');
  assert.equal(classifyItem({ error: 'invalid_grant' }), 'token-error');
  assert.equal(classifyItem({ error: 'invalid_client', access_token: 'x' }), 'token-error');
  assert.equal(classifyItem({ hello: 1 }), 'unknown');
  const r = checkWebhookBody(42);
  assert.equal(r.kind, 'unknown');
  assert.equal(r.violations[0].level, 'must');
});

test('conforms() is a typed validator: it narrows a conforming item to the contract type', () => {
  const data: unknown = JSON.parse('{"access_token":"a","expires_in":60,"refresh_token":"r","refresh_expires_in":120,' +
    '"token_type":"Bearer","not-before-policy":0}');
  assert.ok(conforms('token-response', data));
  if (conforms('token-response', data)) assert.equal(data.expires_in * 1000, 60_000);
  assert.equal(conforms('token-response', { ...(data as object), expires_in: '60' }), false);
});
