// Builds the events the dispatcher tests enqueue: a small body that names its
// checkout, event index and status, so a receiver can tell them apart.
import type { OutgoingEvent } from '../../../harness/reference/dispatcher/index.ts';

export const API_KEY = 'test-webhook-key';

export function outgoing(url: string, checkoutId: string, event: number, status = `S${event}`): OutgoingEvent {
  return { checkoutId, event, status, body: { id: checkoutId, event, status }, target: { url, apiKey: API_KEY } };
}

/**
 * Asserts a measured real-ms delay against the expected one. Never early beyond
 * `early` (default 5 ms: the dispatcher's timers never fire early, so this is only
 * measurement noise), and late by at most max(150 ms, 15 %). Arbitrary, and wider
 * than CONTRACT.md's max(25 ms, 2 %) on the late side only: these tests share 2
 * cores with the whole suite, and a busy event loop makes any timer late. Callers
 * pick time scales where the values to tell apart differ by more than that.
 */
export function assertDelay(measured: number, expected: number, what: string, early = 5): void {
  const late = Math.max(150, expected * 0.15);
  if (measured < expected - early || measured > expected + late)
    throw new Error(`${what}: expected ${expected.toFixed(0)} ms (-${early.toFixed(0)}/+${late.toFixed(0)}), measured ${measured.toFixed(1)} ms`);
}
