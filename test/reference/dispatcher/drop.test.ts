// Spec 6.7: "An event not delivered within 7 days is lost." The reference drops an
// event 7 spec days after it was created, makes no attempt after that, and carries
// on with the checkout's next event (its order is kept: the dropped one never comes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { MAX_EVENT_AGE_MS } from '../../../harness/reference/dispatcher/policy.ts';
import { startReceiver, until } from './receiver.ts';
import { outgoing, patientPolicy } from './events.ts';
import { skipClock } from './skip-clock.ts';

// Skips do the long waits; answers are waited for patiently (patientPolicy), the limit is not the subject.
const SCALE = 0.1;
const HOUR = 3600_000;

test('an event undelivered 7 days after its creation is dropped, and the next event follows', async () => {
  const rx = await startReceiver(a => ({ status: a.body.event === 0 ? 500 : 200 }));
  const clock = skipClock(SCALE);
  const d = new Dispatcher(clock, patientPolicy());
  try {
    d.enqueue(outgoing(rx.url, 'c', 0));
    await until(() => rx.arrivals.length === 1 && d.attempts().length === 1, 2_000, 'the first attempt');
    // Jump to 1 hour before the deadline: the pending retry fires, fails, and retries keep coming.
    clock.skip(MAX_EVENT_AGE_MS - HOUR);
    // The next status change is detected now; it waits behind event 0 (spec 6.8), with 7 days of its own.
    d.enqueue(outgoing(rx.url, 'c', 1));
    await until(() => rx.arrivals.length === 2 && d.attempts().length === 2, 2_000, 'a retry 6 days 23 hours in');
    assert.equal(d.events('c')[0].state, 'pending');
    // Past the deadline the next retry is not sent: the event is dropped, event 1 is delivered.
    clock.skip(HOUR);
    await d.settled();
    const [e0, e1] = d.events('c');
    assert.equal(e0.state, 'dropped');
    assert.match(e0.dropReason ?? '', /7 days/);
    assert.ok(e0.droppedAtMs! - e0.createdAtMs >= MAX_EVENT_AGE_MS, 'dropped before 7 days');
    assert.equal(e1.state, 'delivered');
    assert.deepEqual(rx.arrivals.map(a => a.body.event), [0, 0, 1]);
    assert.ok(d.attempts().filter(a => a.event === 0).every(a => a.sentAtMs < e0.createdAtMs + MAX_EVENT_AGE_MS),
      'an attempt of event 0 was sent after its 7 days');
  } finally {
    await d.close();
    await rx.close();
  }
});

test('an event that waited 7 days behind its predecessor is dropped without an attempt', async () => {
  const rx = await startReceiver(() => ({ status: 500 }));
  const clock = skipClock(SCALE);
  const d = new Dispatcher(clock, patientPolicy());
  try {
    d.enqueue(outgoing(rx.url, 'c', 0));
    d.enqueue(outgoing(rx.url, 'c', 1));
    await until(() => d.attempts().length === 1, 2_000, 'the first attempt');
    clock.skip(MAX_EVENT_AGE_MS);
    await d.settled();
    assert.deepEqual(d.events('c').map(e => e.state), ['dropped', 'dropped']);
    assert.deepEqual(d.events('c').map(e => e.attempts), [1, 0]);
    assert.deepEqual(rx.arrivals.map(a => a.body.event), [0]);
  } finally {
    await d.close();
    await rx.close();
  }
});

test('the backoff is cut at the deadline: the drop comes at 7 days, not at the next retry after it', async () => {
  const rx = await startReceiver(() => ({ status: 500 }));
  const clock = skipClock(SCALE);
  const d = new Dispatcher(clock, patientPolicy());
  try {
    d.enqueue(outgoing(rx.url, 'c', 0));
    await until(() => d.attempts().length === 1, 2_000, 'the first attempt');
    // 3 spec seconds before the deadline the next retry (10 s backoff at most) would come after it.
    clock.skip(MAX_EVENT_AGE_MS - 3_000 - clock.now());
    await until(() => d.attempts().length === 2, 2_000, 'the retry just before the deadline');
    await d.settled();
    const e0 = d.events('c')[0];
    assert.equal(e0.state, 'dropped');
    const late = e0.droppedAtMs! - (e0.createdAtMs + MAX_EVENT_AGE_MS);
    // Without the cut it would come 17 s after the deadline (a 20 s backoff from 3 s before it);
    // 10 s allows 100 ms of real lateness (arbitrary, for a busy machine).
    assert.ok(late >= 0 && late < 10_000, `dropped ${late.toFixed(0)} spec ms after the deadline; expected within the backoff that was cut`);
  } finally {
    await d.close();
    await rx.close();
  }
});
