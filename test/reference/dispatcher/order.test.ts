// Spec 6.8: "Events of a single payment are delivered in order: an event is not
// delivered until the previous one is acknowledged." Spec 6.9: "Events of different
// payments are delivered in parallel; the receiver must expect concurrent requests."
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../harness/reference/clock.ts';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { startReceiver } from './receiver.ts';
import { outgoing, patientPolicy } from './events.ts';

test('the next event of a checkout waits for the previous one\'s 200, through retries and slow answers', async () => {
  const scale = 0.05; // a 3 s answer = 150 ms, under the 5 s limit of 250 ms
  // Event 0 fails twice, then is answered 200 only after 3 s (within the 5 s limit); event 1 at once.
  const rx = await startReceiver(a => a.body.event === 0
    ? (a.seq < 2 ? { status: 500 } : { status: 200, delayMs: 3_000 * scale })
    : { status: 200 });
  const d = new Dispatcher(realClock(scale), patientPolicy());
  try {
    for (let i = 0; i < 3; i++) d.enqueue(outgoing(rx.url, 'c', i));
    await d.settled();
    assert.deepEqual(rx.arrivals.map(a => a.body.status), ['S0', 'S0', 'S0', 'S1', 'S2']);
    for (let i = 3; i < 5; i++) {
      const prev = rx.arrivals[i - 1];
      assert.ok(rx.arrivals[i].at >= prev.endedAt!,
        `${rx.arrivals[i].body.status} arrived ${(prev.endedAt! - rx.arrivals[i].at).toFixed(1)} ms before ${prev.body.status} was acknowledged`);
    }
    assert.deepEqual(d.events('c').map(e => e.state), ['delivered', 'delivered', 'delivered']);
  } finally {
    await d.close();
    await rx.close();
  }
});

test('checkouts go out in parallel: one in backoff holds up no other, and requests overlap', async () => {
  const scale = 0.1; // a 1.5 s answer = 150 ms
  const rx = await startReceiver(a => a.body.id === 'stuck'
    ? { status: 500 }
    : { status: 200, delayMs: 1_500 * scale });
  // A 100 s backoff (10 s real) for this test only: the others' 20 events must all be delivered
  // inside it, however busy the machine; 'stuck' is not waited for.
  const d = new Dispatcher(realClock(scale), { ...patientPolicy(), retryDelayMs: () => 100_000 });
  const others = Array.from({ length: 10 }, (_, i) => `p${i}`);
  try {
    d.enqueue(outgoing(rx.url, 'stuck', 0));
    d.enqueue(outgoing(rx.url, 'stuck', 1));
    for (const id of others) { d.enqueue(outgoing(rx.url, id, 0)); d.enqueue(outgoing(rx.url, id, 1)); }
    await Promise.all(others.map(id => d.settled(id)));
    const retry = rx.arrivals.filter(a => a.body.id === 'stuck');
    // While 'stuck' waits out its first backoff, all 20 events of the others were delivered.
    assert.equal(retry.length, 1, `'stuck' was sent ${retry.length} times before the others finished; expected 1 (it is in backoff)`);
    assert.deepEqual(d.events('stuck').map(e => e.state), ['pending', 'pending']);
    // 8 of 10, not 10: on a loaded machine a request may be answered before the last one is sent.
    // A pool of a few connections (the fault this guards against) stays far below.
    assert.ok(rx.peakConcurrency() >= 8, `at most ${rx.peakConcurrency()} requests were open at once; expected the 10 held ones to overlap`);
  } finally {
    await d.close();
    await rx.close();
  }
});
