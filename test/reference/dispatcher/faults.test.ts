// Every webhook fault and quirk of catalog.yaml that lives in the dispatcher
// changes the behaviour it names, and only that (a real receiver, compressed clock).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../harness/reference/clock.ts';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { startReceiver, type Plan } from './receiver.ts';
import { API_KEY, assertDelay, outgoing, patientPolicy, stallGuard } from './events.ts';
import { resolveFaults } from '../../../harness/reference/catalog.ts';

const SCALE = 0.05; // 2 s = 100 ms, 10 s = 500 ms, 5 s limit = 250 ms: the values each test tells apart differ by more than the tolerance

/** Runs one checkout's events through a dispatcher with the given faults; returns the log and the receiver's view. */
async function run(faults: string[], plan: Plan, events = 1, scale = SCALE) {
  const rx = await startReceiver(plan);
  // The timeout faults keep their limits; the others wait patiently (see patientPolicy).
  const timeoutFault = faults.some(f => f === 'webhook-no-timeout' || f === 'webhook-short-timeout');
  const d = new Dispatcher(realClock(scale), timeoutFault ? resolveFaults(faults) : patientPolicy(faults));
  try {
    for (let i = 0; i < events; i++) d.enqueue(outgoing(rx.url, 'c', i));
    await d.settled();
    return { log: d.attempts(), events: d.events(), arrivals: rx.arrivals };
  } finally {
    await d.close();
    await rx.close();
  }
}

const gaps = (log: { sentAtMs: number; endedAtMs: number }[]) => log.slice(1).map((a, i) => a.sentAtMs - log[i].endedAtMs);
const failFirst = (n: number): Plan => a => ({ status: a.seq < n ? 500 : 200 });

test('webhook-retry-early: the first retry comes 2 s after the failure (growth kept)', async t => {
  const guard = stallGuard(t);
  const { log } = await run(['webhook-retry-early'], failFirst(2));
  assert.equal(log.length, 3);
  // What the fault breaks: the first retry comes well before 10 s (2 s, plus any lateness of a busy machine).
  guard.judge(() => assert.ok(gaps(log)[0] >= 2_000 && gaps(log)[0] < 10_000 - 100 / SCALE,
    `first retry after ${(gaps(log)[0] / 1000).toFixed(2)} s; expected 2 s`));
  guard.judge(() => assert.ok(gaps(log)[1] >= 4_000 && gaps(log)[1] < 10_000, `second retry after ${(gaps(log)[1] / 1000).toFixed(2)} s; expected 4 s`));
});

test('webhook-no-growth: every retry waits exactly 10 s', async t => {
  const guard = stallGuard(t);
  const { log } = await run(['webhook-no-growth'], failFirst(3));
  assert.equal(log.length, 4);
  guard.judge(() => gaps(log).forEach((g, i) => assertDelay(g * SCALE, 10_000 * SCALE, `retry ${i + 1}`)));
});

test('webhook-no-retry: a failed event is given up at once, and the next event follows', async () => {
  const { log, events, arrivals } = await run(['webhook-no-retry'], a => ({ status: a.body.event === 0 ? 500 : 200 }), 2);
  assert.deepEqual(log.map(a => [a.event, a.outcome]), [[0, 'http-500'], [1, 'delivered']]);
  assert.deepEqual(events.map(e => e.state), ['dropped', 'delivered']);
  assert.equal(arrivals.length, 2);
});

test('webhook-2xx-success: 201 and 204 count as delivered (without the fault they are retried)', async () => {
  const plan: Plan = a => ({ status: a.body.event === 0 ? 201 : a.seq < 3 ? 204 : 200 });
  const faulty = await run(['webhook-2xx-success'], plan, 2);
  assert.deepEqual(faulty.log.map(a => a.outcome), ['delivered', 'delivered']);
  const right = await run([], a => ({ status: a.seq === 0 ? 204 : 200 }));
  assert.deepEqual(right.log.map(a => a.outcome), ['http-204', 'delivered']);
});

test('webhook-no-timeout: an answer after 7 s is waited for and counts as delivered', async t => {
  const guard = stallGuard(t);
  const scale = 0.02;
  const { log, arrivals } = await run(['webhook-no-timeout'], () => ({ status: 200, delayMs: 7_000 * scale }), 1, scale);
  assert.deepEqual(log.map(a => a.outcome), ['delivered']);
  assert.equal(arrivals[0].hungUp, false);
  guard.judge(() => assertDelay((log[0].endedAtMs - log[0].sentAtMs) * scale, 7_000 * scale, 'wait for the answer', 25));
});

test('webhook-short-timeout: the sender gives up after 3 s, so a 4 s answer is a timeout', async t => {
  const guard = stallGuard(t);
  // 3 s = 600 ms, 4 s = 800 ms, the right 5 s = 1 s: assertDelay's 600 + 250 ms still tells 3 s from
  // 5 s, and the 200 ms between the give-up and the answer survive a busy machine (at 0.1 they were
  // 100 ms, and a 307 ms late give-up was seen with two CI runs on 2 cores).
  const scale = 0.2;
  const { log } = await run(['webhook-short-timeout'], a => ({ status: 200, delayMs: a.seq === 0 ? 4_000 * scale : 0 }), 1, scale);
  // The outcome alone tells the fault from the right 5 s limit (a 4 s answer is delivered there).
  assert.equal(log[0].outcome, 'timeout');
  assert.equal(log.at(-1)!.outcome, 'delivered');
  guard.judge(() => assertDelay((log[0].endedAtMs - log[0].sentAtMs) * scale, 3_000 * scale, 'time to give up'));
});

test('webhook-no-ack-gating: the next event goes out while the previous one is unanswered', async () => {
  const scale = 0.02;
  const { arrivals } = await run(['webhook-no-ack-gating'], a => ({ status: 200, delayMs: a.body.event === 0 ? 3_000 * scale : 0 }), 2, scale);
  const [e0, e1] = [0, 1].map(i => arrivals.find(a => a.body.event === i)!);
  assert.ok(e1.at < e0.endedAt!, 'event 1 waited for event 0\'s answer');
});

test('webhook-global-queue: a checkout in backoff holds up another checkout', async t => {
  const guard = stallGuard(t);
  const rx = await startReceiver((a, all) => ({ status: a.body.id === 'a' && all.filter(b => b.body.id === 'a').length === 1 ? 500 : 200 }));
  const d = new Dispatcher(realClock(SCALE), patientPolicy(['webhook-global-queue']));
  try {
    d.enqueue(outgoing(rx.url, 'a', 0));
    d.enqueue(outgoing(rx.url, 'b', 0));
    await d.settled();
    assert.deepEqual(rx.arrivals.map(a => a.body.id), ['a', 'a', 'b']);
    guard.judge(() => assertDelay(rx.arrivals[2].at - rx.arrivals[0].endedAt!, 10_000 * SCALE, 'b waited out a\'s backoff', 25));
  } finally { await d.close(); await rx.close(); }
});

test('webhook-retry-no-api-key: only the first attempt carries the api-key', async () => {
  const { arrivals } = await run(['webhook-retry-no-api-key'], failFirst(2));
  assert.deepEqual(arrivals.map(a => a.headers['api-key']), [API_KEY, undefined, undefined]);
});

test('quirk webhook-jitter: delays are 10, 20 ... s plus at most 25 %, never less', async t => {
  const guard = stallGuard(t);
  const { log } = await run(['webhook-jitter'], failFirst(2));
  guard.judge(() => gaps(log).forEach((g, i) => {
    const base = 10_000 * 2 ** i;
    // The upper slack (100 ms real) is assertDelay's late tolerance.
    assert.ok(g >= base && g <= base * 1.25 + 100 / SCALE, `retry ${i + 1} after ${(g / 1000).toFixed(2)} s; expected ${base / 1000}-${base * 1.25 / 1000} s`);
  }));
});

test('quirk webhook-duplicates: every event is delivered twice, in order', async () => {
  const { arrivals, events } = await run(['webhook-duplicates'], () => ({ status: 200 }), 2);
  assert.deepEqual(arrivals.map(a => a.body.event), [0, 0, 1, 1]);
  assert.deepEqual(arrivals[0].body, arrivals[1].body);
  assert.deepEqual(events.map(e => [e.event, e.copy, e.state]), [[0, 1, 'delivered'], [0, 2, 'delivered'], [1, 1, 'delivered'], [1, 2, 'delivered']]);
});
