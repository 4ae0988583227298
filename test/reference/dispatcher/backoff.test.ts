// Spec 6.4-6.5: a failed delivery is retried with exponential backoff from 10 s,
// counted from the end of the failed attempt (measured at a real receiver).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../harness/reference/clock.ts';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { startReceiver, until } from './receiver.ts';
import { closedPort } from '../../helpers/closed-port.ts';
import { API_KEY, assertDelay, outgoing, patientPolicy, stallGuard } from './events.ts';

const SCALE = 0.1; // 10 s = 1 s real: each doubling adds more than the late tolerance, even on a busy machine

test('retries wait 10, 20, 40 spec seconds after each failed attempt ended', async t => {
  const guard = stallGuard(t);
  const rx = await startReceiver(a => ({ status: a.seq < 3 ? 500 : 200 }));
  const d = new Dispatcher(realClock(SCALE), patientPolicy());
  try {
    d.enqueue(outgoing(rx.url, 'c1', 0));
    await d.settled();
    const log = d.attempts('c1');
    assert.deepEqual(log.map(a => a.outcome), ['http-500', 'http-500', 'http-500', 'delivered']);
    assert.deepEqual(log.map(a => a.attempt), [1, 2, 3, 4]);
    assert.equal(rx.arrivals.length, 4);
    const expected = [10_000, 20_000, 40_000];
    guard.judge(() => {
      expected.forEach((spec, i) => assertDelay(rx.arrivals[i + 1].at - rx.arrivals[i].endedAt!, spec * SCALE, `retry ${i + 1} at the receiver`));
      // The reference's own log says the same on its clock.
      expected.forEach((spec, i) => assertDelay((log[i + 1].sentAtMs - log[i].endedAtMs) * SCALE, spec * SCALE, `retry ${i + 1} in the log`));
    });
    // Spec 5.4: every attempt, retries included, carries the api-key and the same body.
    for (const a of rx.arrivals) {
      assert.equal(a.headers['api-key'], API_KEY);
      assert.equal(a.headers['content-type'], 'application/json');
      assert.deepEqual(a.body, { id: 'c1', event: 0, status: 'S0' });
    }
  } finally {
    await d.close();
    await rx.close();
  }
});

test('any status but 200 and a refused connection are failed attempts', async () => {
  const statuses = [201, 204, 302, 404, 503];
  const rx = await startReceiver(a => ({ status: statuses[a.seq] ?? 200 }));
  // Exponential growth would make 6 attempts take 310 spec s; a flat 2 s keeps this test short.
  const d = new Dispatcher(realClock(0.05), { ...patientPolicy(), retryDelayMs: () => 2_000 });
  try {
    d.enqueue(outgoing(rx.url, 'c2', 0));
    await d.settled();
    assert.deepEqual(d.attempts().map(a => a.outcome), ['http-201', 'http-204', 'http-302', 'http-404', 'http-503', 'delivered']);
    assert.equal(rx.arrivals.length, 6);
  } finally {
    await d.close();
    await rx.close();
  }
  // A port nothing listens on (not the closed receiver's: a test beside this one may take that): a connection error, retried.
  const refused = `http://127.0.0.1:${await closedPort()}/hooks`;
  const d2 = new Dispatcher(realClock(0.05), { ...patientPolicy(), retryDelayMs: () => 2_000 });
  try {
    d2.enqueue(outgoing(refused, 'c3', 0));
    await until(() => d2.attempts().length >= 2, 5_000, 'a retry after the refused connection');
    const log = d2.attempts();
    assert.ok(log.every(a => a.outcome === 'error' && a.error === 'ECONNREFUSED'), JSON.stringify(log));
  } finally {
    await d2.close();
  }
});
