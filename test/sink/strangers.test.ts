// An attempt without the registered api-key is a stranger's, whatever checkout
// it names: the sink answers it 200 and keeps the planned probe for the
// sender, and under a flood of 20,000 such posts it keeps a sample of
// STRANGER_SAMPLE and counts the rest (the bound docs/report.md states).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { STRANGER_SAMPLE, startSink } from '../../harness/sink/server.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';
import { ROOT } from '../helpers/cli.ts';

const KEY = 'strangers-test-key-7';

const post = (url: string, body: string, key?: string, dispatcher?: Agent) =>
  request(url, { method: 'POST', body, dispatcher, headers: { 'content-type': 'application/json', ...(key ? { 'api-key': key } : {}) } })
    .then(async r => { await r.body.text(); return r.statusCode; });

test('a stranger naming a planned checkout, by path or by id, is answered 200 and leaves the plan\'s probes to the sender', async () => {
  const sink = await startSink({ apiKey: KEY });
  try {
    sink.expect('held', { name: 'held', answers: ['status-500', 'status-500'] });
    sink.created('held', { status: 201, id: 'chk-9' });
    const body = JSON.stringify(buildWebhookBody({ kind: 'normal', id: 'chk-9', status: 'STARTED' }));
    // Keyless and wrong-key posts, by the planned path and by the checkout id in the body.
    const strangers = await Promise.all([post(sink.hookUrl('held'), body), post(`${sink.url}/hook`, body),
      post(sink.hookUrl('held'), body, 'guess'), post(`${sink.url}/hook`, body, 'guess')]);
    assert.deepEqual(strangers, [200, 200, 200, 200]);
    assert.equal(await post(sink.hookUrl('held'), body, KEY), 500, 'the first planned failure is still the sender\'s');
    assert.equal(await post(`${sink.url}/hook`, body, KEY), 500, 'and the second');
    assert.equal(await post(`${sink.url}/hook`, body, KEY), 200);
    await new Promise(r => setTimeout(r, 50));
    const s = sink.stats();
    assert.deepEqual([s.sender, s.unattributed, s.failuresProvoked, s.retriesSeen], [3, 4, 2, 2]);
  } finally { await sink.close(); }
});

test('20,000 keyless posts of 4 KB: the sink keeps a sample of the strangers and counts the rest', async t => {
  const sink = await startSink({ apiKey: KEY, passive: [{ name: 'clean', answers: [] }] });
  const agent = new Agent({ connections: 16, pipelining: 4 });
  const POSTS = 20_000;
  const pad = 'p'.repeat(4000);
  try {
    const heap0 = process.memoryUsage().heapUsed;
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: 64 }, async () => {
      for (let i = next++; i < POSTS; i = next++)
        await post(`${sink.url}/hook`, JSON.stringify({ id: `known-${i % 15}`, status: 'STARTED', pad }), undefined, agent).catch(() => 0);
    }));
    const seconds = (performance.now() - started) / 1000;
    assert.equal(await post(`${sink.url}/hook`, JSON.stringify({ id: 'real-1', status: 'STARTED' }), KEY, agent), 200);
    await new Promise(r => setTimeout(r, 100));
    globalThis.gc?.();
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
    const s = sink.stats();
    const attempts = sink.attempts();
    assert.equal(s.unattributed, POSTS);
    assert.equal(s.strangersKept, STRANGER_SAMPLE);
    assert.equal(attempts.length, STRANGER_SAMPLE + 1, 'the sample and the sender\'s one attempt');
    assert.equal(attempts.filter(a => a.apiKeyCheck?.verdict === 'registered').length, 1);
    assert.ok(s.strangerBodyBytes >= POSTS * 4000);
    // Arbitrary bound, far under the 894 MB this flood once cost: what is kept does not grow with the flood.
    assert.ok(heapMb < 150, `heap +${heapMb.toFixed(0)} MB`);
    t.diagnostic(`${POSTS} stranger posts in ${seconds.toFixed(1)} s: ${attempts.length} attempts kept, heap +${heapMb.toFixed(0)} MB ` +
      `(client included), ${(s.strangerBodyBytes / 1e6).toFixed(0)} MB of stranger bodies counted`);
  } finally {
    await agent.close();
    await sink.close();
  }
});

test('docs/report.md states the bound on what is kept of strangers', () => {
  assert.match(readFileSync(`${ROOT}/docs/report.md`, 'utf8'), new RegExp(`keeps the first ${STRANGER_SAMPLE} of them`));
});
