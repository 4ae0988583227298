// Builds the events the dispatcher tests enqueue: a small body that names its
// checkout, event index and status, so a receiver can tell them apart.
import type { OutgoingEvent } from '../../../harness/reference/dispatcher/index.ts';

export const API_KEY = 'test-webhook-key';

export function outgoing(url: string, checkoutId: string, event: number, status = `S${event}`): OutgoingEvent {
  return { checkoutId, event, status, body: { id: checkoutId, event, status }, target: { url, apiKey: API_KEY } };
}

/** Real-ms tolerance for a timer that should fire after `expectedMs` real ms: never early (beyond 2 % or
 * 5 ms of clock granularity, or earlyMs where the receiver sees the request later than it was sent), and late by at most max(60 ms, 10 %). Arbitrary: wider than CONTRACT.md's
 * max(25 ms, 2 %) on the late side only, because these tests share 2 cores with the whole suite. */
export function assertDelay(measured: number, expected: number, what: string, earlyMs = 5): void {
  const early = Math.max(earlyMs, expected * 0.02), late = Math.max(60, expected * 0.1);
  if (measured < expected - early || measured > expected + late)
    throw new Error(`${what}: expected ${expected.toFixed(0)} ms (-${early.toFixed(0)}/+${late.toFixed(0)}), measured ${measured.toFixed(1)} ms`);
}
