// The positions of an event in a checkout (spec 3.1, 6.3-6.8): the places a
// delivery rule (retry, the 5 s wait, backoff, the acknowledgement gate) binds.
// A sender may treat its first event, its middle ones and its final one apart
// (a STARTED sent from the checkout page, PAYMENT_INITIATED from the payment
// flow, a poller status from a background job), and a batch checkout apart from
// a normal one, so each is a place of its own.
import { FINAL_CHECKOUT_STATUSES } from '../contracts/enums.ts';

/** Every event position, normal and batch checkouts. */
export const EVENT_POSITIONS = [
  'normal first', 'normal middle', 'normal final',
  'batch first', 'batch middle', 'batch final',
] as const;

export type EventPosition = typeof EVENT_POSITIONS[number];

/**
 * The positions an event with a previous event of its checkout can hold: where
 * the acknowledgement gate of spec 6.8 binds ("an event is not delivered until
 * the previous one is acknowledged"). The first event has no previous one, so
 * nothing gates it; the final one is gated by the event before it.
 */
export const GATED_EVENT_POSITIONS: readonly EventPosition[] = EVENT_POSITIONS.filter(p => !p.endsWith(' first'));

/** Where an event sits in its checkout, whatever the kind. */
export type Where = 'first' | 'middle' | 'final';

/**
 * Where an event sits, from its status: STARTED opens every checkout (spec
 * 3.1), a final status of 3.1 ends it, and every other status sits between.
 */
export function whereOf(status: string): Where {
  return status === 'STARTED' ? 'first' : FINAL_CHECKOUT_STATUSES.includes(status) ? 'final' : 'middle';
}

/** The position of an event from its checkout's kind and its status. */
export function eventPosition(kind: 'normal' | 'batch', status: string): EventPosition {
  return `${kind} ${whereOf(status)}`;
}
