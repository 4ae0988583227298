// The members of each family of places (harness/results/places.ts) at an API
// version: the lists the checks iterate and `coverage` counts. A family whose
// members only a run can know (the banks a target lists, their countries, the
// exchanges of a refresh chain, the fields of a request) has none here.
import type { ApiVersion } from '../contracts/api-versions.ts';
import { atLeast } from '../contracts/api-versions.ts';
import { ABORT_REASONS, CHECKOUT_STATUSES } from '../contracts/enums.ts';
import type { PlaceFamily } from '../results/places.ts';
import { ANSWER_CLASSES, STATUS_ANSWER_CLASSES } from './answer-classes.ts';
import { EVENT_POSITIONS, GATED_EVENT_POSITIONS } from './event-positions.ts';
import { operationsAt, PAYMENT_PRODUCTS } from './operations.ts';
import { TRANSITION_PLACES } from './transitions.ts';

/** The tokens a call may carry that the API must refuse (spec 2.1, 4.1): none, one it never issued, one past its lifetime, one altered. */
const TOKEN_KINDS = ['missing', 'made-up', 'expired', 'tampered'] as const;

/** The states of a session a session-bound call may name (spec 4.4, 7). */
const SESSION_STATES = ['new', 'consented', 'expired', 'deleted'] as const;

const STATIC: Partial<Record<PlaceFamily, (v: ApiVersion) => readonly string[]>> = {
  operation: v => operationsAt(v).map(o => o.id),
  'session-operation': v => operationsAt(v).filter(o => o.sessionBound).map(o => o.id),
  product: v => PAYMENT_PRODUCTS.filter(p => atLeast(v, p.since)).map(p => p.product),
  'token-kind': () => TOKEN_KINDS,
  'session-state': () => SESSION_STATES,
  'event-position': () => EVENT_POSITIONS,
  'gated-event-position': () => GATED_EVENT_POSITIONS,
  'checkout-status': () => CHECKOUT_STATUSES,
  'abort-reason': () => ABORT_REASONS,
  'answer-class': () => ANSWER_CLASSES,
  'status-answer-class': () => STATUS_ANSWER_CLASSES,
  transition: () => TRANSITION_PLACES,
};

/** The members of `family` at version `v`; undefined when the target's data decide them (banks, countries, refresh exchanges). */
export function membersOf(family: PlaceFamily, v: ApiVersion): readonly string[] | undefined {
  return STATIC[family]?.(v);
}
