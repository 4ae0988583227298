// The attempt log times what happened on the connection: a request counts as sent
// when its bytes went out, not when the loop decided to send it, and the 5 s wait
// for its answer (spec 6.6) runs from there. The loop is held busy right after the
// events are enqueued, so the connections can only be made, and the requests
// written, once it is free again. Every assertion is an order of events, which a
// stall of the machine can delay but not reverse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realClock } from '../../../harness/reference/clock.ts';
import { Dispatcher } from '../../../harness/reference/dispatcher/index.ts';
import { startReceiver } from './receiver.ts';
import { outgoing, patientPolicy } from './events.ts';

const SCALE = 0.1; // the 5 s wait is 500 ms, the 10 s backoff 1 s
const WAIT_SPEC_MS = 5_000;
const HOLD_MS = 80;

test('sentAtMs is when the request went out, and the wait for the answer counts from there', async () => {
  // 'hung' is answered long after the wait the first time; everything else at once.
  const rx = await startReceiver((a, all) =>
    a.body.id === 'hung' && all.filter(b => b.body.id === 'hung').length === 1 ? { status: 200, delayMs: 3 * WAIT_SPEC_MS * SCALE } : { status: 200 });
  const t0 = performance.now();
  const clock = realClock(SCALE);
  const realMs = (specMs: number) => t0 + specMs * SCALE;
  // 'quick' waits as long as it takes: only its times are the subject, not the limit.
  const patient = new Dispatcher(clock, patientPolicy()), strict = new Dispatcher(clock);
  try {
    patient.enqueue(outgoing(rx.url, 'quick', 0));
    strict.enqueue(outgoing(rx.url, 'hung', 0));
    const heldUntil = performance.now() + HOLD_MS;
    while (performance.now() < heldUntil) { /* the loop is held, as a busy reference's is */ }
    await Promise.all([patient.settled(), strict.settled()]);
    const [quick] = patient.attempts('quick'), [hung] = strict.attempts('hung');
    const seenQuick = rx.arrivals.find(a => a.body.id === 'quick')!, seenHung = rx.arrivals.find(a => a.body.id === 'hung')!;
    assert.equal(quick.outcome, 'delivered');
    assert.equal(hung.outcome, 'timeout');
    assert.equal(seenHung.hungUp, true, 'the receiver did not see the first request of hung given up');
    // Sent after the hold, when it could go out, and before the receiver had it (1 ms for rounding).
    for (const [a, seen] of [[quick, seenQuick], [hung, seenHung]] as const) {
      const sent = realMs(a.sentAtMs);
      assert.ok(sent >= heldUntil - 1 && sent <= seen.at + 1, `${a.checkoutId}: logged as sent at ${(sent - heldUntil).toFixed(1)} ms `
        + `from the end of the hold; the receiver had it at ${(seen.at - heldUntil).toFixed(1)} ms`);
    }
    // Ended no earlier than the receiver answered; given up a whole wait after the send, and seen given up after that.
    assert.ok(realMs(quick.endedAtMs) >= seenQuick.endedAt! - 1,
      `quick: logged as ended ${(seenQuick.endedAt! - realMs(quick.endedAtMs)).toFixed(1)} ms before the receiver answered`);
    assert.ok(hung.endedAtMs - hung.sentAtMs >= WAIT_SPEC_MS, `hung: given up ${(hung.endedAtMs - hung.sentAtMs).toFixed(0)} spec ms after it was sent`);
    assert.ok(seenHung.endedAt! >= realMs(hung.endedAtMs) - 1,
      `hung: the receiver saw the hang-up ${(realMs(hung.endedAtMs) - seenHung.endedAt!).toFixed(1)} ms before the logged give-up`);
  } finally {
    await Promise.all([patient.close(), strict.close()]);
    await rx.close();
  }
});
