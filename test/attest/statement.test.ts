// The certificate's statement and envelope on hand-made results, where the
// point is the signing and the mapping, not a run: PAE as DSSE defines it,
// both key types round trip and pass an independent openssl check, a changed
// byte of the statement or the signature is refused by both, and a run that
// is not Conformant is never PASSED (an Incomplete or Interrupted run lists
// its must checks that did not run in failedTests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeys, readPublicKey } from '../../harness/attest/keys.ts';
import { pae, signEnvelope, strictBase64 } from '../../harness/attest/dsse.ts';
import { openEnvelope } from '../../harness/attest/verify.ts';
import { INTERRUPTED_TEST, testLists } from '../../harness/attest/statement.ts';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult, RunResults } from '../../harness/results/model.ts';
import { summarize } from '../../harness/report/verdict.ts';
import { flipped, opensslAccepts } from './independent.ts';

const c = (id: string, over: Partial<CheckResult> = {}): CheckResult => ({
  id: `token.issue.${id}`, suite: 'token', title: id, spec: '2.1', level: 'must', status: 'passed', evidence: [], durationMs: 1, ...over,
});

function results(checks: CheckResult[], interrupted = false): RunResults {
  return { tool: { name: 'pis-conformance', version: '0.1.0' }, command: 'run', target: {}, timeScale: 1, startedAt: '2026-01-01T00:00:00Z',
    finishedAt: '2026-01-01T00:01:00Z', checks, summary: summarize(checks, { interrupted }), ...(interrupted ? { interrupted } : {}) };
}

function statementEnvelope(type: 'ed25519' | 'ecdsa-p256') {
  const pems = generateKeys(type);
  const dir = mkdtempSync(join(tmpdir(), 'pis-keys-'));
  writeFileSync(join(dir, 'k.pub'), pems.publicPem);
  const pub = readPublicKey(join(dir, 'k.pub'));
  rmSync(dir, { recursive: true });
  const statement = { _type: 'https://in-toto.io/Statement/v1', subject: [], predicateType: 'https://in-toto.io/attestation/test-result/v0.1',
    predicate: { result: 'PASSED', configuration: [], passedTests: ['token.issue.a'], warnedTests: [], failedTests: [], conformance: {} } };
  const env = signEnvelope(Buffer.from(JSON.stringify(statement)), createPrivateKey(pems.privatePem));
  return { env, text: JSON.stringify(env), pub, publicPem: pems.publicPem };
}

test('PAE is "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes', () => {
  assert.equal(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString(), 'DSSEv1 29 http://example.com/HelloWorld 11 hello world');
  assert.equal(pae('t', Buffer.from('é')).toString(), 'DSSEv1 1 t 2 é');
});

for (const type of ['ed25519', 'ecdsa-p256'] as const) {
  test(`${type}: the envelope verifies with our code and with openssl; a flipped byte of the statement or signature fails both`, () => {
    const { env, text, pub, publicPem } = statementEnvelope(type);
    assert.ok('statement' in openEnvelope(env, [pub]));
    assert.ok(opensslAccepts(text, publicPem));
    const payloadLength = strictBase64(env.payload)!.length, sigLength = strictBase64(env.signatures[0]!.sig)!.length;
    const places = [['payload', 0], ['payload', Math.floor(payloadLength / 2)], ['payload', payloadLength - 1], ['sig', 0], ['sig', sigLength - 1]] as const;
    for (const [part, at] of places) {
      const bad = flipped(text, part, at);
      assert.ok('refused' in openEnvelope(JSON.parse(bad), [pub]), `${part}@${at}: our verify accepted`);
      assert.equal(opensslAccepts(bad, publicPem), false, `${part}@${at}: openssl accepted`);
    }
    // Another key's signature is refused.
    assert.ok('refused' in openEnvelope(env, [statementEnvelope(type).pub]));
  });
}

test('base64 that is not the one spelling of its bytes is refused, so no byte of an envelope can change unseen', () => {
  assert.deepEqual(strictBase64('aGk='), Buffer.from('hi'));
  assert.deepEqual(strictBase64('aGk'), Buffer.from('hi'));
  for (const s of ['aGk!', 'aG k=', 'aGl=', 42]) assert.equal(strictBase64(s), undefined, String(s));
});

test('result: PASSED for Conformant, WARNED with failed should checks, FAILED for every other verdict', () => {
  assert.equal(testLists(results([c('a')])).result, 'PASSED');
  const warned = testLists(results([c('a'), c('b', { level: 'should', status: 'failed' })]));
  assert.deepEqual([warned.result, warned.warnedTests, warned.failedTests], ['WARNED', ['token.issue.b'], []]);
  const failed = testLists(results([c('a', { status: 'failed' }), c('b', { level: 'should', status: 'failed' })]));
  assert.deepEqual([failed.result, failed.failedTests], ['FAILED', ['token.issue.a']]);
});

test('an Incomplete run is never PASSED: FAILED, with its must checks that did not run in failedTests and notRunTests', () => {
  const r = testLists(results([c('a'), c('b', { status: 'skipped', skipKind: 'not-run' }), c('s', { level: 'should', status: 'skipped', skipKind: 'not-run' }),
    c('n', { status: 'skipped', skipKind: 'not-applicable' })]));
  assert.equal(r.verdict, 'incomplete');
  assert.equal(r.result, 'FAILED');
  assert.deepEqual(r.failedTests, ['token.issue.b']);
  assert.deepEqual(r.notRunTests, ['token.issue.b', 'token.issue.s']);
  assert.deepEqual(r.notApplicableTests, ['token.issue.n']);
});

test('an Interrupted run is FAILED and its failedTests are never empty', () => {
  const all = testLists(results([c('a')], true));
  assert.deepEqual([all.verdict, all.result, all.failedTests], ['interrupted', 'FAILED', [INTERRUPTED_TEST]]);
  const cut = testLists(results([c('a'), c('b', { status: 'skipped', skipKind: 'not-run' })], true));
  assert.deepEqual([cut.result, cut.failedTests], ['FAILED', ['token.issue.b']]);
});
