// The faults that are about time, one run at a time: slow receivers are caught
// by receiver.latency alone (the other prefixes do not report the same
// slowness again), a receiver that serialises requests by receiver.concurrency,
// and a receiver that never answers passes nothing and ends in bounded time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECEIVER_FAULTS } from '../fixtures/receivers/faults.ts';
import { assertCaught, certifyJudged, failed, ids, PLAIN_HTTP } from './certify-helper.ts';

const fault = (name: string) => RECEIVER_FAULTS.find(f => f.name === name)!;

test('a receiver that answers in 2 s is within the limit but past the p99 advice: a warning only', async () => {
  // Scale 0.1: answers after 200 ms, limit 500 ms, advice 100 ms.
  await certifyJudged('slow', { timeScale: 0.1, concurrency: 4 }, r => {
    assertCaught(fault('slow'), r);
    assert.deepEqual(failed(r.checks, 'must').map(c => c.id), []);
    const p99 = r.checks.find(c => c.id === 'receiver.latency.p99');
    assert.ok(p99?.evidence.some(e => e.kind === 'samples' && e.series === 'normal' && e.values.length > 0));
  });
});

for (const name of ['hangs', 'silent']) {
  test(`a receiver that ${fault(name).description}: receiver.latency fails, no check passes, the run ends within a few waits`, async () => {
    // Scale 0.02: the sender gives up after 125 ms.
    const r = await certifyJudged(name, { timeScale: 0.02, concurrency: 4 }, x => assertCaught(fault(name), x));
    const must = failed(r.checks, 'must');
    assert.deepEqual(must.map(c => c.id), ['receiver.latency.under-limit'], must.map(c => `${c.id}: ${c.message}`).join('\n'));
    assert.match(must[0].message ?? '', /no answer within \d+ ms/);
    // No request was answered, so no check may pass: each failed or says it did not run.
    assert.deepEqual(r.checks.filter(c => c.status === 'passed').map(c => c.id), []);
    assert.ok(r.checks.filter(c => c.status === 'skipped' && c.id !== PLAIN_HTTP).every(c => c.skipKind === 'not-run' && c.message), ids(r.checks));
    // Accepts stops at the first unanswered wave; nothing after it is sent: a few waits, not one per delivery.
    assert.ok(r.sent <= 12, `${r.sent} deliveries sent`);
  });
}

test('a receiver that takes 6 s for each new event is caught by receiver.latency alone, without waiting on every body', async () => {
  // Scale 0.05: a new event takes 300 ms, the sender gives up at 275 ms.
  const r = await certifyJudged('slow-new-event', { timeScale: 0.05, concurrency: 4 }, x => {
    assertCaught(fault('slow-new-event'), x);
    assert.deepEqual(failed(x.checks, 'must').map(c => c.id), ['receiver.latency.under-limit']);
  });
  const accepts = r.checks.find(c => c.id === 'receiver.accepts.batch-statuses');
  assert.equal(accepts?.skipKind, 'not-run');
  assert.match(accepts?.message ?? '', /receiver\.latency has failed and settles the verdict/);
  assert.ok(r.sent < r.planned / 2, `${r.sent} of ${r.planned} planned deliveries sent`);
});

test('a receiver that handles one request at a time is caught by receiver.concurrency', async () => {
  // Scale 0.2 (5 s = 1 s): 20 checkouts queue the fixture's 300 spec ms (60 ms) per request 1.2 s deep.
  const r = await certifyJudged('one-at-a-time', { timeScale: 0.2, concurrency: 20 }, x => assertCaught(fault('one-at-a-time'), x));
  const within = r.checks.find(c => c.id === 'receiver.concurrency.within-limit');
  assert.match(within?.message ?? '', /20 checkouts in parallel, 3 events each in order, \d+ deliveries/);
  assert.deepEqual(failed(r.checks, 'must').map(c => c.id).filter(id => !id.startsWith('receiver.concurrency.')), []);
  assert.equal(r.checks.find(c => c.id === PLAIN_HTTP)?.skipKind, 'not-applicable');
});

test('--max-duration: what the budget leaves out is not-run with the remedy, and the run ends within it', async () => {
  // 30 spec s at scale 0.1 is 3 s: accepts fits, the 1 s pause of after-pause may, the rest does not all fit.
  const r = await certifyJudged('slow', { timeScale: 0.1, concurrency: 4, maxDurationS: 30 }, x => {
    assert.ok(x.wallMs < 3_000 + 600, `the run took ${x.wallMs.toFixed(0)} ms`);
  });
  const cut = r.checks.filter(c => c.status === 'skipped' && c.remedy === 'raise --max-duration');
  assert.ok(cut.length > 0, ids(r.checks.filter(c => c.status === 'skipped')));
  assert.ok(cut.every(c => c.skipKind === 'not-run' && /--max-duration 30 s/.test(c.message ?? '')), cut.map(c => c.message).join('\n'));
  assert.deepEqual(failed(r.checks, 'must').map(c => c.id), []);
});
