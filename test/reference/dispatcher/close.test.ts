// close() stops the dispatcher at once: requests in flight are aborted and not
// logged, pending backoffs never fire, later events are ignored, and the
// receiver sees nothing more (a test or serve-reference leaves nothing behind).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../harness/reference/clock.ts';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { startReceiver, until } from './receiver.ts';
import { outgoing, patientPolicy, stallGuard } from './events.ts';

test('close() aborts a request in flight and a pending backoff, and sends nothing after', async t => {
  const guard = stallGuard(t);
  const scale = 0.05;
  // 'slow' is held 40 s; 'failing' answers 500 and waits out a 10 s backoff. Answers are waited for
  // patiently (patientPolicy): with the 5 s limit a loaded machine timed 'slow' out before close(),
  // and the log then rightly held an attempt of it; the limit is timeout.test.ts's subject.
  const held = 40_000 * scale;
  const rx = await startReceiver(a => a.body.id === 'slow' ? { status: 200, delayMs: held } : { status: 500 });
  const clock = realClock(scale);
  const d = new Dispatcher(clock, patientPolicy());
  try {
    d.enqueue(outgoing(rx.url, 'failing', 0));
    d.enqueue(outgoing(rx.url, 'slow', 0));
    await until(() => d.attempts('failing').length >= 1 && rx.arrivals.some(a => a.body.id === 'slow'), 5_000, 'the failed attempt and the slow request');
    const closedAt = performance.now(), closedAtSpec = clock.now();
    await d.close();
    const closing = performance.now() - closedAt;
    guard.judge(() => assert.ok(closing < held, `close() took ${closing.toFixed(0)} ms: it waited for the held answer`));
    d.enqueue(outgoing(rx.url, 'after', 0));
    await d.settled();
    // Wait past the pending retry's time: nothing more is sent or logged (the held request was aborted: hungUp below).
    const lastFailure = d.attempts('failing').at(-1)!;
    await new Promise(r => setTimeout(r, Math.max(0, (lastFailure.endedAtMs + 10_000 - closedAtSpec) * scale) + 200));
    assert.ok(rx.arrivals.every(a => a.at <= closedAt),
      `requests arrived after close(): ${JSON.stringify(rx.arrivals.filter(a => a.at > closedAt).map(a => a.body.id))}`);
    assert.ok(d.attempts().every(a => a.sentAtMs <= closedAtSpec && a.checkoutId === 'failing'), JSON.stringify(d.attempts()));
    assert.equal(rx.arrivals.find(a => a.body.id === 'slow')!.hungUp, true);
  } finally {
    await d.close();
    await rx.close();
  }
});
