// close() stops the dispatcher at once: requests in flight are aborted and not
// logged, pending backoffs never fire, later events are ignored, and the
// receiver sees nothing more (a test or serve-reference leaves nothing behind).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../harness/reference/clock.ts';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { startReceiver, until } from './receiver.ts';
import { outgoing } from './events.ts';

test('close() aborts a request in flight and a pending backoff, and sends nothing after', async () => {
  const scale = 0.05;
  // 'slow' is held 4 s (inside the limit); 'failing' answers 500 and waits out a 10 s backoff.
  const rx = await startReceiver(a => a.body.id === 'slow' ? { status: 200, delayMs: 4_000 * scale } : { status: 500 });
  const d = new Dispatcher(realClock(scale));
  try {
    d.enqueue(outgoing(rx.url, 'failing', 0));
    await until(() => d.attempts('failing').length === 1, 5_000, 'the failed attempt');
    d.enqueue(outgoing(rx.url, 'slow', 0));
    await until(() => rx.arrivals.some(a => a.body.id === 'slow'), 5_000, 'the slow request to arrive');
    const t0 = performance.now();
    await d.close();
    assert.ok(performance.now() - t0 < 4_000 * scale, 'close() waited for the held answer');
    d.enqueue(outgoing(rx.url, 'after', 0));
    await d.settled();
    // Past the held answer and the backoff: nothing more was sent or logged.
    await new Promise(r => setTimeout(r, 12_000 * scale));
    assert.deepEqual(rx.arrivals.map(a => a.body.id), ['failing', 'slow']);
    assert.deepEqual(d.attempts().map(a => [a.checkoutId, a.outcome]), [['failing', 'http-500']]);
    assert.equal(rx.arrivals[1].hungUp, true);
  } finally {
    await d.close();
    await rx.close();
  }
});
