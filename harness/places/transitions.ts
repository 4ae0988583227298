// The transitions between two checkout statuses that spec 3.1 allows: the
// places a rule about "every status change the service sends" binds. Spec 3.1
// gives the statuses and one ordering rule (PAYMENT_COMPLETED, PAYMENT_FAILED,
// PAYMENT_CANCELLED and PAYMENT_NONTRACKABLE only after PAYMENT_INITIATED);
// with "Final" (nothing follows) and STARTED "always sent" (first), that
// leaves these moves out of STARTED, PAYMENT_CREATED and PAYMENT_INITIATED.
// PAYMENT_INITIATED is left only for a poller status: it coincides with the
// redirect to the success URL, the end user's last step, and CANCELLED,
// FAILED and TIMED_OUT each coincide with a redirect to the cancel or fail
// URL instead.
import { CHECKOUT_STATUSES, FINAL_CHECKOUT_STATUSES, POLLER_STATUSES } from '../contracts/enums.ts';

export interface Transition {
  /** "PAYMENT_CREATED -> CANCELLED": the place's name in tallies. */
  id: string;
  from: string;
  to: string;
}

const transitionId = (from: string, to: string): string => `${from} -> ${to}`;

/**
 * The kinds of checkout a move is sent in (spec 1: one payment, or a list of
 * them): a receiver may follow a batch's moves apart from a normal checkout's,
 * so each move in each kind is a place of its own.
 */
export const TRANSITION_KINDS = ['normal', 'batch'] as const;
export type TransitionKind = typeof TRANSITION_KINDS[number];

/** "batch PAYMENT_CREATED -> CANCELLED": a move in a checkout of one kind, the place's name in tallies. */
export const transitionPlace = (kind: TransitionKind, from: string, to: string): string => `${kind} ${transitionId(from, to)}`;

function allowed(from: string, to: string): boolean {
  if (to === 'STARTED' || to === from) return false;
  if (from === 'PAYMENT_INITIATED') return POLLER_STATUSES.includes(to);
  return !POLLER_STATUSES.includes(to) && !(from === 'PAYMENT_CREATED' && to === 'PAYMENT_CREATED');
}

/** Every transition spec 3.1 allows, in the order of its table. */
export const TRANSITIONS: readonly Transition[] = Object.freeze(CHECKOUT_STATUSES
  .filter(from => !FINAL_CHECKOUT_STATUSES.includes(from))
  .flatMap(from => CHECKOUT_STATUSES.filter(to => allowed(from, to)).map(to => ({ id: transitionId(from, to), from, to }))));

/** Every move spec 3.1 allows in each kind of checkout: the members of the `transition` family. */
export const TRANSITION_PLACES: readonly string[] = Object.freeze(TRANSITION_KINDS.flatMap(k => TRANSITIONS.map(t => transitionPlace(k, t.from, t.to))));

/**
 * The statuses of a checkout that makes `t` as its last move: STARTED, then
 * PAYMENT_CREATED or PAYMENT_INITIATED when the move starts there.
 */
export function pathThrough(t: Transition): string[] {
  return t.from === 'STARTED' ? ['STARTED', t.to] : ['STARTED', t.from, t.to];
}
