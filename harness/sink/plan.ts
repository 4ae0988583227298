// The probe plan: which answers each checkout's attempts get. The `webhook`
// suite creates one checkout per entry of SUITE_PLANS through the target's
// control API (docs/control-api.md); the `sink` command hands PASSIVE_CYCLE
// out to checkouts as they first appear, by kind (passiveChooser).
import { ABORT_REASON_STATUSES, ABORT_REASONS } from '../contracts/enums.ts';
import { CONTROL_EXTENSIONS, type ControlCheckoutRequest, type ControlExtension } from '../contracts/types.ts';
import type { EventPosition, Where } from '../places/event-positions.ts';
import type { Probe } from './probes.ts';

export interface CheckoutPlan {
  /** Name of the plan entry (shown in the report and the timeline). */
  name: string;
  /** Answers to the checkout's attempts 1, 2, ... in arrival order; every later attempt gets 'ok'. */
  answers: Probe[];
  /**
   * When set, `answers` go to the attempts of the events at this place of the
   * checkout only (harness/places/event-positions.ts: STARTED is first, a final
   * status of spec 3.1 final, any other middle), in arrival order; every other
   * attempt gets 'ok'.
   */
  failAt?: Where;
  /** What the suite asks the control API for (absent for checkouts the sink only saw). */
  request?: CheckoutRequest;
  /**
   * For the passive sink: the kind of checkout this entry is meant for (its place exists in that kind only). The
   * next checkout of that kind takes it before any entry meant for no kind; a checkout of the other kind, or of a
   * kind its body does not tell, never does while another entry is left.
   */
  wants?: 'normal' | 'batch';
  /**
   * 'held': the checkout kept in backoff for the parallel check; 'late': created
   * while the held one waits in backoff, it must not wait for it (spec 6.9).
   */
  role?: 'held' | 'late';
  /** The request breaks spec 3.1 on purpose: a conforming target refuses it. */
  forbidden?: boolean;
  /** The drive asks for a scheduled payment (a date a month ahead) in the request. */
  scheduled?: boolean;
  /**
   * 2: created once the first wave's first attempts were answered and the sink
   * has run on time for a moment (drive.ts). The slow probes measure the
   * sender's 5 s window and `answer-500` a first backoff from the sink's side:
   * a sender busy with a burst of new checkouts sends late after starting its
   * clock, and a sink busy with it stamps late.
   */
  wave?: 2;
  /** The long chain (run --long-chains, sink --long-chains): LONG_CHAIN_FAILURES failures in a row of one event (analysis/long-chain.ts). */
  longChain?: true;
}

/**
 * What the suite asks the control API for (without the webhook, which the drive
 * adds). endToEndId and referenceId are filled in per run by the drive: the
 * bodies must return them unchanged (spec 2.2).
 */
type CheckoutRequest = Omit<ControlCheckoutRequest, 'webhook'>;

export { CONTROL_EXTENSIONS, type ControlExtension };

/** What the target's control API answered for a checkout the suite asked for. */
export interface ControlOutcome {
  status: number; id?: string; reason?: string; createdMs?: number;
  /** The optional fields its 201 answer echoed with the value asked for: the target says it took them. */
  echoed?: ControlExtension[];
  /**
   * The optional fields the target description says the control API honours
   * (description control.honours), when it says: those are taken as honoured
   * without an echo, the others were left out of the request.
   */
  described?: ControlExtension[];
}

/** A checkout the analysis knows about: the plan and, in the suite, what the control API said. */
export interface PlannedCheckout {
  plan: CheckoutPlan;
  control?: ControlOutcome;
  /** The api-key registered for this checkout when it has its own (spec 5.4: any format). */
  apiKey?: string;
}

/** Checkout id (as the attempts carry it) -> what was planned for it. */
export type SinkPlan = Map<string, PlannedCheckout>;

const FULL = ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];
const SHORT = ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];
const CANCELLED = ['STARTED', 'CANCELLED'];
/** The answers at an event position under test: a give-up at 5 s, a 500, then 200. */
const AT_PLACE: Probe[] = ['slow-6s', 'status-500'];
/**
 * A chain of failures at an event position, as `held`'s at the first: three
 * 500s, so three delays (10, 20, 40 s), the shortest chain whose growth can be
 * told from jitter (analysis/backoff.ts). Apart from AT_PLACE, so that each
 * ends with `held`'s (a 5 s give-up before it would outlast it).
 */
const CHAIN: Probe[] = ['status-500', 'status-500', 'status-500'];
/** The event positions besides the first of a normal checkout (`held` and the answer probes fail that one). */
const OTHER_POSITIONS = [['normal', 'middle'], ['normal', 'final'], ['batch', 'first'], ['batch', 'middle'], ['batch', 'final']] as const;

/**
 * One checkout per probe, all created at once so they run concurrently; the
 * request details of spec 2.2 ride along (every checkout's endToEndId and
 * referenceId, a scheduled normal and batch payment, a payment that needs strong
 * customer authentication); the
 * longest mandated chain is `held`: three failures, so three backoff delays
 * (10, 20, 40 s), which is what the growth rule needs (analysis/backoff.ts).
 * Failures sit on events followed by others, so a sender that does not gate on
 * acknowledgement shows it (spec 6.8), and at every event position of normal
 * and batch checkouts (the `*-fails` plans), so a sender whose retries, 5 s
 * wait and backoff exist for its first event only shows it.
 */
export const SUITE_PLANS: readonly CheckoutPlan[] = [
  { name: 'clean-normal', answers: [], request: { kind: 'normal', statuses: FULL } },
  { name: 'clean-batch', scheduled: true, answers: [], request: { kind: 'batch', payments: 3, statuses: SHORT } },
  { name: 'scheduled', scheduled: true, answers: [], request: { kind: 'normal', statuses: SHORT } },
  { name: 'sca', answers: [], request: { kind: 'normal', statuses: SHORT, sca: true } },
  // A batch flow may authorise apart from the normal one: PAYMENT_CREATED is looked for in both kinds.
  { name: 'sca-batch', answers: [], request: { kind: 'batch', payments: 2, statuses: SHORT, sca: true } },
  { name: 'aborted', answers: [], request: { kind: 'normal', statuses: ['STARTED', 'PAYMENT_CREATED', 'FAILED'], abortReason: 'INSUFFICIENT_FUNDS' } },
  // The poller's other final statuses, so each of the ten CheckoutStatus values is driven.
  { name: 'poller-failed', answers: [], request: { kind: 'normal', statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_FAILED'] } },
  { name: 'poller-cancelled', answers: [], request: { kind: 'batch', payments: 2, statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_CANCELLED'] } },
  { name: 'poller-nontrackable', answers: [], request: { kind: 'normal', statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_NONTRACKABLE'] } },
  // Every other abortReason of spec 2.4, each with one of the statuses it may come with.
  ...ABORT_REASONS.filter(r => r !== 'INSUFFICIENT_FUNDS').map((abortReason, i): CheckoutPlan => ({
    name: `abort-${abortReason.toLowerCase().replace(/_/g, '-')}`, answers: [],
    request: { kind: 'normal', statuses: ['STARTED', ABORT_REASON_STATUSES[i % ABORT_REASON_STATUSES.length]], abortReason },
  })),
  { name: 'answer-500', wave: 2, answers: ['status-500'], request: { kind: 'normal', statuses: SHORT } },
  { name: 'answer-201', answers: ['status-201'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-204', answers: ['status-204'], request: { kind: 'batch', statuses: CANCELLED } },
  { name: 'answer-302', answers: ['status-302'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-400', answers: ['status-400'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-401', answers: ['status-401'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-403', answers: ['status-403'], request: { kind: 'batch', statuses: CANCELLED } },
  { name: 'answer-404', answers: ['status-404'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-410', answers: ['status-410'], request: { kind: 'normal', statuses: CANCELLED } },
  // 413 planned on an ordinary body too: a sender may take "too large" for a final answer.
  { name: 'answer-413', answers: ['status-413'], request: { kind: 'batch', statuses: CANCELLED } },
  { name: 'answer-429', answers: ['status-429'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-429-retry-after', answers: ['status-429-retry-after'], request: { kind: 'normal', statuses: CANCELLED } },
  { name: 'answer-503', answers: ['status-503'], request: { kind: 'batch', statuses: CANCELLED } },
  { name: 'reset', answers: ['reset'], request: { kind: 'normal', statuses: SHORT } },
  { name: 'answer-after-4s', wave: 2, answers: ['slow-4s'], request: { kind: 'normal', statuses: SHORT } },
  { name: 'answer-after-6s', wave: 2, answers: ['slow-6s'], request: { kind: 'normal', statuses: SHORT } },
  // The head at once and the body a byte at a time until 7.5 s: the 5 s of spec 6.6 are "in total".
  { name: 'answer-trickled', wave: 2, answers: ['slow-trickle'], request: { kind: 'normal', statuses: SHORT } },
  // A failure at every other event position (the first of a normal checkout is above): a 6 s
  // answer the sender must give up on at 5 s, then a 500, then the backoff before the third attempt.
  ...(['middle', 'final'] as const).map((where): CheckoutPlan =>
    ({ name: `normal-${where}-fails`, wave: 2, failAt: where, answers: AT_PLACE, request: { kind: 'normal', statuses: SHORT } })),
  ...(['first', 'middle', 'final'] as const).map((where): CheckoutPlan =>
    ({ name: `batch-${where}-fails`, wave: 2, failAt: where, answers: AT_PLACE, request: { kind: 'batch', payments: 2, statuses: SHORT } })),
  { name: 'held', role: 'held', answers: CHAIN, request: { kind: 'normal', statuses: ['STARTED', 'TIMED_OUT'] } },
  // held's chain of three failures at every other event position, so backoff growth is judged at each.
  ...OTHER_POSITIONS.map(([kind, where]): CheckoutPlan =>
    ({ name: `${kind}-${where}-chain`, failAt: where, answers: CHAIN, request: { kind, ...(kind === 'batch' ? { payments: 2 } : {}), statuses: SHORT } })),
  { name: 'forbidden', forbidden: true, answers: [], request: { kind: 'normal', statuses: ['STARTED', 'PAYMENT_COMPLETED'] } },
  // The other places spec 3.1 forbids a step: a status after a final one, a poller status after
  // PAYMENT_CREATED without PAYMENT_INITIATED, a sequence that does not start with STARTED.
  { name: 'forbidden-after-final', forbidden: true, answers: [], request: { kind: 'normal', statuses: ['STARTED', 'CANCELLED', 'PAYMENT_INITIATED'] } },
  { name: 'forbidden-poller-after-created', forbidden: true, answers: [],
    request: { kind: 'batch', statuses: ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_FAILED'] } },
  { name: 'forbidden-not-started-first', forbidden: true, answers: [], request: { kind: 'normal', statuses: ['PAYMENT_INITIATED', 'PAYMENT_COMPLETED'] } },
];

/**
 * Failures in a row of one event in the long chain: a sender that gives up on
 * an event after a few attempts (1 + 5 retries is a common setting) loses it
 * long before the 7 days of spec 6.7. At the spec's minimum and a doubling
 * backoff the 7th attempt comes 10 + 20 + 40 + 80 + 160 + 320 = 630 spec s
 * after the first: too long for every run, so it is sent on request only.
 */
export const LONG_CHAIN_FAILURES = 6;

/** The long chain for the passive sink (sink --long-chains): LONG_CHAIN_FAILURES 500s to a checkout's first attempts, then 200. */
export const PASSIVE_LONG_CHAIN: CheckoutPlan = { name: 'long-chain', longChain: true, answers: Array<Probe>(LONG_CHAIN_FAILURES).fill('status-500') };
/** The long chain's checkout in the suite (run --long-chains): its STARTED fails LONG_CHAIN_FAILURES times; CANCELLED after it. */
export const LONG_CHAIN_PLAN: CheckoutPlan = { ...PASSIVE_LONG_CHAIN, request: { kind: 'normal', statuses: CANCELLED } };

/** Created by the suite once `held` has had its first failure, not at the start. */
export const LATE_PLAN: CheckoutPlan = { name: 'late', role: 'late', answers: [], request: { kind: 'normal', statuses: CANCELLED } };

/**
 * Sent again by the drive when the sink's own lateness blurred every
 * measurement of a timing check (drive.ts): another answer after 6 s (one more
 * 5 s window), or another run of `failures` failures on a checkout's first
 * event (one more backoff chain).
 */
function againPlan(kind: 'hang-up' | 'backoff', n: number, failures = 1): CheckoutPlan {
  return kind === 'hang-up'
    ? { name: `answer-after-6s-again-${n}`, answers: ['slow-6s'], request: { kind: 'normal', statuses: SHORT } }
    : { name: `backoff-again-${n}`, answers: Array<Probe>(failures).fill('status-500'), request: { kind: 'normal', statuses: SHORT } };
}

/** Another answer after 6 s, or another run of `failures` failures, at one event position (normal first is againPlan's own). */
export function againAt(position: EventPosition, n: number, probe: 'hang-up' | 'backoff' = 'hang-up', failures = 1): CheckoutPlan {
  if (position === 'normal first') return againPlan(probe, n, failures);
  const [kind, where] = position.split(' ') as ['normal' | 'batch', Where];
  const answers: Probe[] = probe === 'hang-up' ? ['slow-6s'] : Array<Probe>(failures).fill('status-500');
  return { name: `${probe === 'hang-up' ? 'answer-after-6s' : 'backoff'}-again-${n}-${kind}-${where}`, failAt: where, answers,
    request: { kind, ...(kind === 'batch' ? { payments: 2 } : {}), statuses: SHORT } };
}

/**
 * For the passive sink: each new checkout takes first an entry named for its
 * kind (`wants`), then the next entry named for no kind, in this order, round
 * after round. An entry named for one kind waits for a checkout of that kind.
 * The first ones exercise the most (a person may create only a few by hand).
 */
export const PASSIVE_CYCLE: readonly CheckoutPlan[] = [
  { name: 'answer-500', answers: ['status-500'] },
  { name: 'answer-after-4s', answers: ['slow-4s'] },
  { name: 'answer-after-6s', answers: ['slow-6s'] },
  { name: 'backoff', answers: ['status-500', 'status-500', 'status-500'] },
  { name: 'reset', answers: ['reset'] },
  { name: 'answer-201', answers: ['status-201'] },
  { name: 'answer-302', answers: ['status-302'] },
  { name: 'answer-400', answers: ['status-400'] },
  { name: 'clean', answers: [] },
  { name: 'answer-503', answers: ['status-503'] },
  { name: 'answer-429', answers: ['status-429'] },
  { name: 'answer-429-retry-after', answers: ['status-429-retry-after'] },
  { name: 'answer-401', answers: ['status-401'] },
  { name: 'answer-403', answers: ['status-403'] },
  { name: 'answer-404', answers: ['status-404'] },
  { name: 'answer-410', answers: ['status-410'] },
  { name: 'answer-413', answers: ['status-413'] },
  { name: 'answer-204', answers: ['status-204'] },
  { name: 'answer-trickled', answers: ['slow-trickle'] },
  // Named for the checkout a person should create for them: a failure at each other event position,
  // with a third failure, so that one checkout per position serves growth too (a person waits the 40 s more).
  ...OTHER_POSITIONS.map(([kind, where]): CheckoutPlan =>
    ({ name: `${kind}-${where}-fails`, failAt: where, wants: kind, answers: [...AT_PLACE, 'status-500'] })),
];

/** The passive sink's choice of entry for each new checkout (see passiveChooser); `release` hands an entry back. */
export interface PassiveChooser {
  (kind: 'normal' | 'batch' | undefined): CheckoutPlan;
  /** An entry whose checkout ended without its place (a checkout cancelled after STARTED has no middle event): the next checkout of its kind takes it. */
  release(plan: CheckoutPlan): void;
}

/**
 * The passive sink's choice of entry for each new checkout, by its kind (undefined: its body does not tell). Of the
 * entries of the rounds begun and not yet given (a released one first), a checkout takes the first named for its kind,
 * else the first named for no kind; when none is left, a new round begins (an entry still waiting for its kind stays
 * once). The entries named for a kind are the scarce ones: only that kind can take them, while any checkout can take
 * the others. Taken first, every entry of a round is given as soon as the round's checkouts include as many of each
 * kind as it names, whatever order they arrive in (in arrival order, batch checkouts that came early took unnamed
 * entries, and the batch places of the round went to no one). When only entries for the other kind are left, even
 * after a new round began, the first of them is given.
 */
export function passiveChooser(cycle: readonly CheckoutPlan[]): PassiveChooser {
  const pending: number[] = [];
  const begin = () => { for (let i = 0; i < cycle.length; i++) if (!pending.includes(i)) pending.push(i); };
  const take = (at: number) => cycle[pending.splice(at, 1)[0]!]!;
  const choose = (kind: 'normal' | 'batch' | undefined): CheckoutPlan => {
    for (let round = 0; round < 2; round++) {
      const own = kind === undefined ? -1 : pending.findIndex(i => cycle[i]!.wants === kind);
      const at = own >= 0 ? own : pending.findIndex(i => cycle[i]!.wants === undefined);
      if (at >= 0) return take(at);
      begin();
    }
    return take(0);
  };
  return Object.assign(choose, {
    release(plan: CheckoutPlan) {
      const i = cycle.indexOf(plan);
      if (i >= 0 && !pending.includes(i)) pending.unshift(i);
    },
  });
}

/** The probe for attempt `n` (0-based) of a checkout under a plan, or of the attempts at its `failAt` place. */
export function probeFor(plan: CheckoutPlan, n: number): Probe {
  return plan.answers[n] ?? 'ok';
}
