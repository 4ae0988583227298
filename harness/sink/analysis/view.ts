// What every webhook check reads: the recorded attempts grouped by checkout and
// event, with times in spec ms (recorded real ms / time scale). Pure: built
// from DeliveryAttempt[] and the plan alone, so `run` and `sink` judge alike.
import type { DeliveryAttempt } from '../../report/model.ts';
import type { PlannedCheckout, SinkPlan } from '../plan.ts';

/** Spec 6.6 and 8: "The service waits 5 seconds in total for a response." */
export const RESPONSE_WAIT_MS = 5_000;
/** Spec 6.5 and 8: "Retries use exponential backoff with a minimum delay of 10 seconds." */
export const MIN_RETRY_DELAY_MS = 10_000;
/**
 * How long (spec ms) after a failed attempt the analysis waits for its retry
 * before calling it missing. Arbitrary: the plan's longest mandated gap is 40 s
 * (third retry, growth x2) plus 25 % jitter = 50 s; twice that leaves room for a
 * sender with a steeper growth factor (x2.5 gives 62.5 s) without false alarms.
 */
export const RETRY_WAIT_BOUND_MS = 100_000;

export interface AnalysisOptions {
  /** Real seconds per spec second of the run (CONTRACT.md section 3). */
  timeScale: number;
  /** The api-key the sender must present (spec 5.4). */
  apiKey?: string;
  /** Real ms (sink time) up to which the sink watched; what could still come later is not judged. */
  observedUntilMs: number;
  /** Floor of the timing tolerance in real ms; CONTRACT.md section 3 says 25. */
  toleranceFloorMs?: number;
  /**
   * The sink's own worst scheduling delay during the run (real ms, see
   * Sink.schedulingDelayMs): its timestamps may be that late, so it is added to
   * every tolerance. On a quiet machine it is a few ms; on a starved one it
   * widens the tolerance instead of raising a false alarm (a miss is the lesser
   * evil), and the checks say the tolerance they used.
   */
  schedulingDelayMs?: number;
}

export interface AttemptView {
  d: DeliveryAttempt;
  json?: unknown;
  jsonError?: string;
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
}

export interface EventView { index: number; status: string; attempts: AttemptView[]; ackAt?: number }

export interface CheckoutView { id: string; planned?: PlannedCheckout; attempts: AttemptView[]; events: EventView[] }

export interface RunView {
  opts: AnalysisOptions;
  checkouts: CheckoutView[];
  all: AttemptView[];
  /** Spec ms up to which the sink watched. */
  until: number;
  plan: SinkPlan;
  /** Timing tolerance in spec ms for an expected spec duration (CONTRACT.md section 3). */
  tol(expectedMs: number): number;
}

const UNREADABLE = '(unreadable body)';

// The sink hands out the same object for a finished attempt, so a body is parsed once per run.
const parsed = new WeakMap<DeliveryAttempt, { json?: unknown; error?: string }>();

function parse(d: DeliveryAttempt): { json?: unknown; error?: string } {
  let p = parsed.get(d);
  if (!p) {
    try { p = { json: JSON.parse(d.body) }; } catch (e) { p = { error: (e as Error).message }; }
    parsed.set(d, p);
  }
  return p;
}

export function buildView(deliveries: readonly DeliveryAttempt[], plan: SinkPlan, opts: AnalysisOptions): RunView {
  const s = (ms: number | undefined) => ms === undefined ? undefined : ms / opts.timeScale;
  const byCheckout = new Map<string, CheckoutView>();
  const all: AttemptView[] = [];
  for (const d of [...deliveries].sort((a, b) => a.arrivedMs - b.arrivedMs || a.seq - b.seq)) {
    let c = byCheckout.get(d.checkoutId);
    if (!c) { c = { id: d.checkoutId, planned: plan.get(d.checkoutId), attempts: [], events: [] }; byCheckout.set(d.checkoutId, c); }
    const { json, error } = parse(d);
    const raw = (json as { status?: unknown } | undefined)?.status;
    const status = typeof raw === 'string' ? raw : UNREADABLE;
    const arrived = s(d.arrivedMs)!, answered = s(d.answeredMs), closed = s(d.closedMs);
    // A hang-up reaches the sink as late as the sender's next request will, so
    // measuring from it cancels the one-way delay; the 5 s cap only applies when
    // the sender stayed (it may count the attempt failed without hanging up).
    const end = d.answer === 'none' && closed !== undefined ? closed : Math.min(answered ?? Infinity, arrived + RESPONSE_WAIT_MS);
    const v: AttemptView = {
      d, json, jsonError: error, status: typeof raw === 'string' ? raw : undefined, event: 0, attempt: 0,
      arrived, answered, closed, end, delivered: d.answer === 200,
    };
    let ev = c.events.find(e => e.status === status);
    if (!ev) { ev = { index: -1, status, attempts: [] }; c.events.push(ev); }
    ev.attempts.push(v);
    v.attempt = ev.attempts.length;
    if (v.delivered && ev.ackAt === undefined) ev.ackAt = answered;
    c.attempts.push(v);
    all.push(v);
  }
  for (const c of byCheckout.values()) numberEvents(c);
  const floor = opts.toleranceFloorMs ?? 25;
  return {
    opts, plan, all, checkouts: [...byCheckout.values()],
    until: opts.observedUntilMs / opts.timeScale,
    tol: expected => Math.max(floor / opts.timeScale, 0.02 * expected) + (opts.schedulingDelayMs ?? 0) / opts.timeScale,
  };
}

/** Events are numbered in the order the control API was asked for, else in order of first arrival. */
function numberEvents(c: CheckoutView): void {
  const asked = c.planned?.plan.request?.statuses ?? [];
  const order = (e: EventView) => { const i = asked.indexOf(e.status); return i >= 0 ? i : asked.length + c.events.indexOf(e); };
  c.events.sort((a, b) => order(a) - order(b));
  c.events.forEach((e, i) => { e.index = i; for (const a of e.attempts) a.event = i; });
}

/** The attempts as results.json keeps them: with event, status and attempt number filled in. */
export function annotated(view: RunView): DeliveryAttempt[] {
  return view.all.map(v => {
    const plan = view.plan.get(v.d.checkoutId)?.plan.name;
    return { ...annotate(v), ...(plan ? { plan } : {}) };
  }).sort((a, b) => a.seq - b.seq);
}

export function annotate(v: AttemptView): DeliveryAttempt {
  return { ...v.d, event: v.event, attempt: v.attempt, ...(v.status !== undefined ? { bodyStatus: v.status } : {}) };
}

/** Spec seconds with two decimals, for messages. */
export function sec(specMs: number): string {
  return `${(specMs / 1000).toFixed(2)} s`;
}

/** The next attempt of the same event after v, if any. */
export function nextOfEvent(c: CheckoutView, v: AttemptView): AttemptView | undefined {
  const ev = c.events[v.event];
  return ev.attempts[ev.attempts.indexOf(v) + 1];
}
