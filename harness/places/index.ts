// The members of each family of places (harness/report/places.ts) at an API
// version: the lists the checks iterate and `coverage` counts. A family whose
// members only a run can know (the banks a target lists, their countries, the
// exchanges of a refresh chain) has none here.
import type { ApiVersion } from '../contracts/api-versions.ts';
import { atLeast } from '../contracts/api-versions.ts';
import { ABORT_REASONS, CHECKOUT_STATUSES } from '../contracts/enums.ts';
import type { PlaceFamily } from '../report/places.ts';
import { operationsAt, PAYMENT_PRODUCTS } from './operations.ts';

/** The tokens a call may carry that the API must refuse (spec 2.1, 4.1): none, one it never issued, one past its lifetime, one altered. */
const TOKEN_KINDS = ['missing', 'made-up', 'expired', 'tampered'] as const;

/** The states of a session a session-bound call may name (spec 4.4, 7). */
const SESSION_STATES = ['new', 'consented', 'expired', 'deleted'] as const;

/** Where an event sits in a checkout, on a checkout of one payment and on a batch (spec 6.4-6.8 bind every event). */
const EVENT_POSITIONS = ['first', 'middle', 'final', 'batch first', 'batch middle', 'batch final'] as const;

/**
 * The answers to a delivery other than 200 (spec 6.4: "Any other status code
 * triggers another attempt"), by class: statuses, a timeout, a reset.
 */
const ANSWER_CLASSES = [
  '201', '204', '302', '400', '401', '403', '404', '410', '413', '429', '429 Retry-After', '500', '503', 'timeout', 'reset',
] as const;

const STATIC: Partial<Record<PlaceFamily, (v: ApiVersion) => readonly string[]>> = {
  operation: v => operationsAt(v).map(o => o.id),
  product: v => PAYMENT_PRODUCTS.filter(p => atLeast(v, p.since)).map(p => p.product),
  'token-kind': () => TOKEN_KINDS,
  'session-state': () => SESSION_STATES,
  'event-position': () => EVENT_POSITIONS,
  'checkout-status': () => CHECKOUT_STATUSES,
  'abort-reason': () => ABORT_REASONS,
  'answer-class': () => ANSWER_CLASSES,
};

/** The members of `family` at version `v`; undefined when the target's data decide them (banks, countries, refresh exchanges). */
export function membersOf(family: PlaceFamily, v: ApiVersion): readonly string[] | undefined {
  return STATIC[family]?.(v);
}
