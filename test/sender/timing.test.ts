// The faults that are about time, one run at a time: slow receivers are caught
// by receiver.latency alone (the other prefixes do not report the same
// slowness again), a receiver that serialises requests by receiver.concurrency.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { certifyFixture, failed, ids } from './certify-helper.ts';

test('a receiver slower than 5 s is caught by receiver.latency and by nothing else at level must', async () => {
  // Scale 0.05: 5 s = 250 ms, the fixture answers after 400 ms and the sender
  // waits 775 ms, room for a starved machine; few parallel checkouts keep the run short.
  const r = await certifyFixture('slow', { timeScale: 0.05, concurrency: 4 });
  const must = failed(r.checks, 'must');
  assert.deepEqual(must.map(c => c.id), ['receiver.latency.under-limit']);
  assert.match(must[0].message ?? '', /answered within 250 ms \(5 s at time scale 0\.05\)/);
  const within = r.checks.find(c => c.id === 'receiver.concurrency.within-limit');
  assert.equal(within?.status, 'skipped');
  const p99 = r.checks.find(c => c.id === 'receiver.latency.p99');
  assert.equal(p99?.status, 'failed');
  assert.equal(p99?.level, 'should');
  assert.ok(p99?.evidence.some(e => e.kind === 'measurement' && e.name.startsWith('latency samples: ')));
});

test('a receiver that answers later than the sender waits is caught by receiver.latency alone', async () => {
  // Every answer comes after the sender gave up, however busy the machine.
  const r = await certifyFixture('hangs', { timeScale: 0.02, concurrency: 4 });
  const must = failed(r.checks, 'must');
  assert.deepEqual(must.map(c => c.id), ['receiver.latency.under-limit'], must.map(c => `${c.id}: ${c.message}`).join('\n'));
  assert.match(must[0].message ?? '', /no answer within \d+ ms/);
  const accepts = r.checks.find(c => c.id === 'receiver.accepts.normal-statuses');
  assert.match(accepts?.message ?? '', /judged by receiver\.latency/);
});

test('a receiver that handles one request at a time is caught by receiver.concurrency', async () => {
  // Scale 0.2 (5 s = 1 s): 20 checkouts queue the fixture's 300 spec ms (60 ms) per request 1.2 s deep.
  const r = await certifyFixture('one-at-a-time', { timeScale: 0.2, concurrency: 20 });
  const within = r.checks.find(c => c.id === 'receiver.concurrency.within-limit');
  assert.equal(within?.status, 'failed', ids(failed(r.checks)));
  assert.match(within?.message ?? '', /20 checkouts in parallel, 3 events each in order, 60 deliveries/);
  assert.deepEqual(failed(r.checks, 'must').map(c => c.id).filter(id => !id.startsWith('receiver.concurrency.')), []);
});
