// What every webhook check reads: the recorded attempts grouped by checkout and
// event, with times in spec ms (recorded real ms / time scale). Pure: built
// from DeliveryAttempt[] and the plan alone, so `run` and `sink` judge alike.
// Attempts without the registered api-key are a stranger's, whatever checkout
// they name (anyone who knows the sink's address and a checkout id can post):
// they are kept apart and never judged. Without any key configured, only the
// attempts for a planned checkout can be told to be the sender's.
// Every step is linear or n log n in the number of attempts.
import { statusesWithSca } from '../../contracts/rules.ts';
import type { DeliveryAttempt } from '../../results/model.ts';
import type { PlannedCheckout, SinkPlan } from '../plan.ts';
import { eventPosition, type EventPosition } from '../../places/event-positions.ts';
import { factsOf, recordOf, type BodyFacts, type RecordedAttempt } from './facts.ts';
import { specClock, type SpecClock } from '../../clock.ts';

/** Spec 6.6 and 8: "The service waits 5 seconds in total for a response." */
export const RESPONSE_WAIT_MS = 5_000;
/** Spec 6.5 and 8: "Retries use exponential backoff with a minimum delay of 10 seconds." */
export const MIN_RETRY_DELAY_MS = 10_000;
/**
 * How long (spec ms) after a failed attempt the analysis waits for its retry,
 * unless the run says otherwise (`--retry-wait`). Arbitrary: the plan's longest
 * mandated gap is 40 s (third retry, growth x2) plus 25 % jitter = 50 s; twice
 * that leaves room for a sender with a steeper growth factor (x2.5 gives 62.5 s).
 * Spec 6.5 sets no maximum delay: a retry not seen within the wait is judged
 * missing only when the sender went on to a later event (retry.ts followUp).
 */
export const RETRY_WAIT_BOUND_MS = 100_000;

export interface AnalysisOptions {
  /** Real seconds per spec second of the run (docs/report.md, time scale). */
  timeScale: number;
  /** The api-key the sender must present (spec 5.4); a planned checkout may have its own. */
  apiKey?: string;
  /** Real ms (sink time) up to which the sink watched; what could still come later is not judged. */
  observedUntilMs: number;
  /** Spec ms the run waited for a retry (default RETRY_WAIT_BOUND_MS; run --retry-wait). */
  retryWaitMs?: number;
  /** Floor of the timing tolerance in real ms; the contract says 25. */
  toleranceFloorMs?: number;
  /**
   * The sink's own lateness (real ms) for attempts that do not carry their own
   * (`lagMs`, the lag around their stamps): hand-made records, older reports.
   */
  schedulingDelayMs?: number;
  /** Strangers' attempts the sink counted but did not keep (it keeps a sample; server.ts STRANGER_SAMPLE). */
  strangersNotKept?: number;
  /** The long chain was asked for (run --long-chains, sink --long-chains): webhook.retry.long-chain is selected. */
  longChains?: boolean;
}

export interface AttemptView {
  d: RecordedAttempt;
  facts: BodyFacts;
  /** The body's status when it is a string. */
  status?: string;
  event: number;
  /** 1-based number of the attempt within its event. */
  attempt: number;
  /** Spec ms since the sink started. */
  arrived: number;
  answered?: number;
  closed?: number;
  /**
   * When the attempt ended for the sender: its hang-up, else our answer or the
   * end of the 5 s window, whichever came first. A retry's delay counts from here
   * (spec 6.6: "without a response in that time the event counts as not delivered").
   */
  end: number;
  /** The sink answered 200 and the sender was still there to read it. */
  delivered: boolean;
  /** Spec ms up to which the sink may have stamped this attempt's times late (its own lag around them). */
  lag: number;
  /**
   * Spec ms from the sink's accept of the attempt's connection to its arrival, when it was the connection's first
   * request (0 otherwise): measured time the sender's clock had run for the attempt before it arrived.
   */
  connecting: number;
}

interface EventView { index: number; status: string; attempts: AttemptView[]; ackAt?: number }

export interface CheckoutView { id: string; planned?: PlannedCheckout; attempts: AttemptView[]; events: EventView[] }

/** An attempt not counted as the sender's, and why. */
interface Stranger { d: RecordedAttempt; why: string }

/** A timing tolerance and whether the sink's own lateness lets it be used (see RunView.timing). */
export interface Timing {
  /** The tolerance to use: the contract's, widened by the lateness up to the cap. */
  tol: number;
  /** The sink's own lateness around the stamps (spec ms). */
  lag: number;
  /** The most lateness the tolerance may be widened by. */
  cap: number;
  /** The contract's tolerance alone. */
  base: number;
  judgeable: boolean;
}

export interface RunView {
  opts: AnalysisOptions;
  /** The run's spec clock (opts.timeScale, opts.toleranceFloorMs). */
  clock: SpecClock;
  checkouts: CheckoutView[];
  byId: Map<string, CheckoutView>;
  /** Every attempt of the sender under test, in arrival order. */
  all: AttemptView[];
  /** Attempts that cannot be told to be the sender's: reported apart, never judged. */
  strangers: Stranger[];
  /** Spec ms up to which the sink watched. */
  until: number;
  /** Spec ms after a failed attempt within which its retry is looked for (AnalysisOptions.retryWaitMs). */
  retryWait: number;
  plan: SinkPlan;
  /** The contract's timing tolerance in spec ms for an expected spec duration (harness/clock.ts). */
  tol(expectedMs: number): number;
  /**
   * The tolerance for a measurement between the stamps of `attempts`: the
   * contract's, widened by the sink's own lateness around those stamps (so a
   * busy sink is not taken for a late sender). The widening is capped at twice
   * the contract's tolerance (arbitrary: a retry 6 % early still fails, while a
   * machine that stalls for a moment does not make a conforming sender fail);
   * beyond the cap the measurement is not judgeable.
   */
  timing(expectedMs: number, attempts: readonly AttemptView[]): Timing;
}

const UNREADABLE = '(unreadable body)';
/** The checkout id of an attempt whose body named none (the sink's name for it). */
export const NO_CHECKOUT_ID = '(no id)';

/** The api-key of an attempt against the registered one: the sink judged it on arrival; a hand-made record still has the header. */
function keyVerdict(d: DeliveryAttempt, apiKey: string | undefined): 'registered' | 'missing' | 'other' {
  if (d.apiKeyCheck) return d.apiKeyCheck.verdict;
  const v = d.headers['api-key'];
  return v === undefined ? 'missing' : v === apiKey ? 'registered' : 'other';
}

/** Why an attempt is not the sender's, or undefined when it is (see the file's head). */
function strangerWhy(d: DeliveryAttempt, plan: SinkPlan, apiKey: string | undefined): string | undefined {
  const planned = plan.get(d.checkoutId);
  const keyless = apiKey === undefined && ![...plan.values()].some(p => p.apiKey !== undefined);
  if (keyless) return planned ? undefined : 'no api-key was configured and not for a checkout the sender was asked for';
  const verdict = keyVerdict(d, planned?.apiKey ?? apiKey);
  if (verdict === 'registered') return undefined;
  const k = d.apiKeyCheck;
  return verdict === 'missing' ? 'no api-key' : `another api-key${k?.length !== undefined ? ` (${k.length} characters, sha256 ${k.sha256}…)` : ''}`;
}

export function buildView(deliveries: readonly RecordedAttempt[], plan: SinkPlan, opts: AnalysisOptions): RunView {
  const clock = specClock(opts.timeScale, { toleranceFloorMs: opts.toleranceFloorMs });
  const s = (ms: number | undefined) => ms === undefined ? undefined : clock.toSpec(ms);
  const byId = new Map<string, CheckoutView>();
  const eventsOf = new Map<CheckoutView, Map<string, EventView>>();
  const all: AttemptView[] = [];
  const strangers: Stranger[] = [];
  const sorted = [...deliveries].sort((a, b) => a.arrivedMs - b.arrivedMs || a.seq - b.seq);
  for (const d of sorted) {
    const why = strangerWhy(d, plan, opts.apiKey);
    if (why) { strangers.push({ d, why }); continue; }
    let c = byId.get(d.checkoutId);
    if (!c) { c = { id: d.checkoutId, planned: plan.get(d.checkoutId), attempts: [], events: [] }; byId.set(d.checkoutId, c); eventsOf.set(c, new Map()); }
    const facts = factsOf(d);
    const status = typeof facts.status === 'string' ? facts.status : undefined;
    const arrived = s(d.arrivedMs)!, answered = s(d.answeredMs), closed = s(d.closedMs);
    // A hang-up reaches the sink as late as the sender's next request will, so
    // measuring from it cancels the one-way delay; the 5 s cap only applies when
    // the sender stayed (it may count the attempt failed without hanging up).
    const end = d.answer === 'none' && closed !== undefined ? closed : Math.min(answered ?? Infinity, arrived + RESPONSE_WAIT_MS);
    const v: AttemptView = {
      d, facts, status, event: 0, attempt: 0,
      arrived, answered, closed, end, delivered: d.answer === 200,
      lag: clock.toSpec(d.lagMs ?? opts.schedulingDelayMs ?? 0),
      connecting: d.connectedMs === undefined ? 0 : Math.max(0, arrived - s(d.connectedMs)!),
    };
    const events = eventsOf.get(c)!;
    const key = status ?? UNREADABLE;
    let ev = events.get(key);
    if (!ev) { ev = { index: -1, status: key, attempts: [] }; events.set(key, ev); c.events.push(ev); }
    ev.attempts.push(v);
    v.attempt = ev.attempts.length;
    if (v.delivered && ev.ackAt === undefined) ev.ackAt = answered;
    c.attempts.push(v);
    all.push(v);
  }
  for (const c of byId.values()) numberEvents(c);
  const tol = clock.specTolerance;
  return {
    opts, clock, plan, all, strangers, byId, checkouts: [...byId.values()],
    until: clock.toSpec(opts.observedUntilMs),
    retryWait: opts.retryWaitMs ?? RETRY_WAIT_BOUND_MS,
    tol,
    timing(expected, attempts) {
      let lag = 0;
      for (const a of attempts) if (a.lag > lag) lag = a.lag;
      const base = tol(expected), cap = 2 * base;
      return { tol: base + Math.min(lag, cap), lag, cap, base, judgeable: lag <= cap };
    },
  };
}

/** Events are numbered in the order the control API was asked for, else in order of first arrival. */
function numberEvents(c: CheckoutView): void {
  const r = c.planned?.plan.request;
  const asked = r ? statusesWithSca(r.statuses, r.sca) : [];
  const rank = new Map<string, number>();
  asked.forEach((s, i) => { if (!rank.has(s)) rank.set(s, i); });
  const first = new Map(c.events.map((e, i) => [e, i]));
  const order = (e: EventView) => rank.get(e.status) ?? asked.length + first.get(e)!;
  c.events.sort((a, b) => order(a) - order(b));
  c.events.forEach((e, i) => { e.index = i; for (const a of e.attempts) a.event = i; });
}

/**
 * A measured duration against a minimum, given its timing: 'short' when it is
 * below even with the sink's lateness granted, 'ok' when it is not below once
 * the lateness (up to its cap) is granted, 'unsure' when only more lateness
 * than the cap would make it pass (the sink was too late to tell).
 */
export function judgeAtLeast(value: number, min: number, t: Timing): 'ok' | 'short' | 'unsure' {
  if (value + t.lag < min - t.base) return 'short';
  if (value - t.lag >= min - t.base || t.judgeable) return 'ok';
  return 'unsure';
}

/** The skip message of a timing check whose measurements the sink's own lateness made unjudgeable. */
export function tooLate(n: number, of: number, t: Timing, what: string, advice = true): string {
  return `${n} of ${of} ${what} could not be judged: the sink itself ran up to ${sec(t.lag)} late around them (measured lag), ` +
    `more than the ${sec(t.cap)} this check can allow${advice ? '; run on a quieter machine or with a larger --time-scale' : ''}`;
}

/** The attempts as results.json keeps them: with event, status and attempt number filled in; strangers marked. */
export function annotated(view: RunView): DeliveryAttempt[] {
  const mine = view.all.map(v => {
    const plan = view.plan.get(v.d.checkoutId)?.plan.name;
    return { ...annotate(v), ...(plan ? { plan } : {}) };
  });
  return [...mine, ...view.strangers.map(x => ({ ...recordOf(x.d), unattributed: x.why }))].sort((a, b) => a.seq - b.seq);
}

export function annotate(v: AttemptView): DeliveryAttempt {
  return { ...recordOf(v.d), event: v.event, attempt: v.attempt, ...(v.status !== undefined ? { bodyStatus: v.status } : {}) };
}

/**
 * Strangers' attempts that name checkout `id` and arrived after spec ms
 * `after`: where the sender's own attempt is missing, one of these may be it,
 * sent without the key (webhook.auth.api-key judges that; no other check does).
 */
export function strangersNaming(view: RunView, id: string, after: number): Stranger[] {
  return view.strangers.filter(x => x.d.checkoutId === id && view.clock.toSpec(x.d.arrivedMs) > after);
}

/** Spec seconds with two decimals, for messages. */
export function sec(specMs: number): string {
  return `${(specMs / 1000).toFixed(2)} s`;
}

/**
 * The event position of an attempt (harness/places/event-positions.ts): the
 * checkout's kind as asked for, else as its body says; none for an unreadable
 * or older-variant body.
 */
export function positionOf(c: CheckoutView, a: AttemptView): EventPosition | undefined {
  const kind = c.planned?.plan.request?.kind ?? a.facts.kind;
  if ((kind !== 'normal' && kind !== 'batch') || a.status === undefined) return undefined;
  return eventPosition(kind, a.status);
}

/** The next attempt of the same event after v, if any. */
export function nextOfEvent(c: CheckoutView, v: AttemptView): AttemptView | undefined {
  return c.events[v.event].attempts[v.attempt];
}

export function minOf(xs: Iterable<number>, empty = 0): number {
  let m = Infinity;
  for (const x of xs) if (x < m) m = x;
  return m === Infinity ? empty : m;
}
