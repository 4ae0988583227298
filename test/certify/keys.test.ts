// Spec 5.4: "The key may have any format." certify-receiver sends keys of other
// alphabets and lengths (beyond ASCII as their UTF-8 bytes), keeps every one
// out of what it reports, and refuses only what no header can carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkKey, headerValue } from '../../harness/certify/key.ts';
import { certifyFixture, certifyJudged, failed, PLAIN_HTTP } from './certify-helper.ts';

test('a key beyond ASCII goes out as its UTF-8 bytes; one with a line break or outer spaces is refused', () => {
  assert.equal(headerValue('pis-3f9a'), 'pis-3f9a');
  assert.deepEqual(Buffer.from(headerValue('ключ🔑'), 'latin1'), Buffer.from('ключ🔑', 'utf8'));
  assert.equal(checkKey('Zm9v+/=='), undefined);
  assert.match(checkKey('clé secrète') ?? '', /UTF-8 bytes/);
  for (const bad of ['a\nb', ' lead', 'trail ', 'nul\u0000']) assert.throws(() => checkKey(bad), /characters an HTTP header cannot carry/, JSON.stringify(bad));
});

// One certification per key; each receiver is registered with that key and compares its bytes.
for (const key of ['k1', 'ключ-секрет-🔑-2026', 'Zm9vYmFy+/==:;,"quoted"', 'x'.repeat(512)]) {
  test(`the correct receiver registered with ${JSON.stringify(key.length > 40 ? `${key.slice(0, 8)}… (${key.length} characters)` : key)} ` +
    'is certified, and the key is in no result', async () => {
    const r = await certifyJudged(undefined, { timeScale: 0.5, concurrency: 4, state: true, apiKey: key }, x => {
      assert.deepEqual(failed(x.checks).filter(c => c.id !== 'receiver.latency.p99' && c.id !== PLAIN_HTTP).map(c => `${c.id}: ${c.message}`), []);
      assert.equal(x.checks.filter(c => c.status === 'skipped' && c.id !== PLAIN_HTTP).length, 0);
    });
    // The derived keys of receiver.auth (the key with a character more or less) are not in them either.
    const text = JSON.stringify(r.checks.map(c => ({ ...c, evidence: c.evidence })));
    if (key.length >= 4) assert.equal(text.includes(key.slice(0, -1)), false);
  });
}

test('the evidence of a failed auth check shows the keys made from the registered one as shell expressions, never the key', async () => {
  const key = 'ключ-секрет-🔑-2026';
  const r = await certifyFixture('no-key-check', { timeScale: 0.5, concurrency: 4, apiKey: key, state: true });
  const curl = (id: string) => {
    const e = r.checks.find(c => c.id === id)?.evidence[0];
    return e?.kind === 'http' ? e.curl ?? '' : '';
  };
  assert.match(curl('receiver.auth.key-with-suffix'), /-H "api-key: \$\{PIS_WEBHOOK_API_KEY\}x"/);
  assert.match(curl('receiver.auth.truncated-key'), /-H "api-key: \$\{PIS_WEBHOOK_API_KEY%\?\}"/);
  assert.match(curl('receiver.auth.wrong-key'), /-H 'api-key: wrong-/);
  assert.match(curl('receiver.auth.case-changed-key'), /-H "api-key: \$\{PIS_WEBHOOK_API_KEY~~\}"/);
  const text = JSON.stringify(r.checks);
  for (const leak of [key, key.slice(0, -1), Buffer.from(key, 'utf8').toString('latin1')]) assert.equal(text.includes(leak), false, leak);
});
