// webhook.parallel: checkouts do not wait for each other.
import { deliveries, fromFindings, type Finding } from './result.ts';
import { notRun, passed, type Outcome } from '../../check/outcome.ts';
import type { CheckDef } from '../../check/def.ts';
import { sec, type AttemptView, type CheckoutView, type RunView } from './view.ts';

// Spec 6.9: "Events of different payments are delivered in parallel; the
// receiver must expect concurrent requests."
export const CONCURRENT: CheckDef = {
  id: 'webhook.parallel.concurrent', requirements: ['R6.9-parallel'], title: 'At least two checkouts have attempts in flight at the same time', spec: '6.9',
  quote: 'Events of different payments are delivered in parallel; the receiver must expect concurrent requests.',
};
export const NOT_HELD: CheckDef = {
  id: 'webhook.parallel.not-held-by-backoff', requirements: ['R6.9-parallel'],
  title: 'A checkout in backoff does not hold up another checkout: neither its first event nor its retries', spec: '6.9',
  quote: 'Events of different payments are delivered in parallel; the receiver must expect concurrent requests.',
};

const finish = (a: AttemptView) => a.answered ?? a.closed ?? Infinity;

/**
 * Two attempts of different checkouts open at the same instant, if any: a sweep
 * over arrivals with the open attempts in a heap by when they end, and a count
 * of open attempts per checkout (n log n, whatever the traffic).
 */
function overlap(view: RunView): [AttemptView, AttemptView] | undefined {
  const heap: AttemptView[] = [];
  const openOf = new Map<string, number>();
  const less = (i: number, j: number) => finish(heap[i]) < finish(heap[j]);
  const swap = (i: number, j: number) => { const t = heap[i]; heap[i] = heap[j]; heap[j] = t; };
  const pop = () => {
    const top = heap[0], last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && less(l, m)) m = l;
        if (r < heap.length && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m); i = m;
      }
    }
    return top;
  };
  const push = (a: AttemptView) => {
    heap.push(a);
    for (let i = heap.length - 1; i > 0;) { const p = (i - 1) >> 1; if (!less(i, p)) break; swap(i, p); i = p; }
  };
  for (const a of view.all) {
    while (heap.length && finish(heap[0]) <= a.arrived) {
      const done = pop();
      openOf.set(done.d.checkoutId, openOf.get(done.d.checkoutId)! - 1);
    }
    if (heap.length > (openOf.get(a.d.checkoutId) ?? 0)) return [heap.find(o => o.d.checkoutId !== a.d.checkoutId)!, a];
    push(a);
    openOf.set(a.d.checkoutId, (openOf.get(a.d.checkoutId) ?? 0) + 1);
  }
  return undefined;
}

export function checkConcurrent(view: RunView): Outcome {
  if (view.checkouts.length < 2) return notRun('fewer than two checkouts sent webhooks');
  // Without an answer held open there is nothing to overlap with (the suite holds some for 4 and 6 s).
  if (!view.all.some(a => a.d.probe.startsWith('slow-')))
    return notRun('no attempt was held open by a slow answer, so overlap could not be provoked');
  const pair = overlap(view);
  if (pair) return passed(`checkouts ${pair[0].d.checkoutId} and ${pair[1].d.checkoutId} had attempts open at the same time`, [deliveries(pair)]);
  const slow = view.all.filter(a => a.d.probe.startsWith('slow-'));
  return fromFindings('attempts of different checkouts open at the same time', [{
    message: `no two checkouts ever had attempts open at the same time (${view.all.length} attempts of ${view.checkouts.length} checkouts, ` +
      `one after another, even while answers were held ${slow.map(a => sec(finish(a) - a.arrived)).slice(0, 3).join(', ')})`,
    attempts: slow,
  }]);
}

/** Spec ms of the first 200 to the held checkout's failing event, or undefined when it never got one. */
function heldAck(c: CheckoutView): number | undefined {
  const ev = c.events.find(e => e.attempts.some(a => !a.delivered));
  return ev?.ackAt;
}

/** One backoff: a failed attempt of a checkout's event and the next attempt of that event. */
interface Gap { c: CheckoutView; failed: AttemptView; retry: AttemptView; from: number; to: number }

/** Gaps looked at at most (arbitrary: a run of the suite has some tens; a hostile sender's flood stays quadratic in this, not in its size). */
const MAX_GAPS = 500;
/**
 * A retry that followed another checkout's acknowledgement within this many
 * spec ms was let go by it (arbitrary: 1 s, a hundred times a sender's usual
 * turnaround, and a tenth of the shortest backoff, so a retry at its own time
 * rarely lands there by chance).
 */
const FOLLOW_MS = 1_000;
/**
 * A retry waited for another checkout when its delay was more than this many
 * times the other's delay before the same attempt number (arbitrary: 2, twice
 * the 25 % jitter a sender may add, so random delays of one rule stay under it).
 */
const HELD_FACTOR = 2;
/**
 * A single retry that looks held is taken for a late one when at least this many events' retries went ahead of
 * another checkout's event that began failing before them and still waited (wentAhead; arbitrary: 2, more than the
 * one suspect). On a crowded machine a sender's timer can fire seconds late, and a retry then lands just after some
 * other checkout's acknowledgement by chance: the clean reference once, at load 11, 30.07 s after its failure and
 * 0.59 s after another's acknowledgement. A sender that holds retries behind another checkout's (one queue for
 * them, as the `webhook-global-retry-queue` fault) lets none go ahead.
 */
const MIN_AHEAD = 2;

/** The sender's own delays: the longest where nothing could have held it, per attempt number. */
interface OwnDelays {
  /** The longest before a retry of this attempt number, leaving `but` out; undefined when there is none. */
  longest(attempt: number, but?: Gap): number | undefined;
  /**
   * What the sender's rule gives before a retry of this attempt number, leaving `but` out (undefined when its
   * delays cannot tell), and how it was found:
   * - `same`: the longest at that number;
   * - `grown`: the longest at the nearest number below, grown by the steepest growth per number between two numbers
   *   that have delays (spec 6.5: the backoff grows exponentially, by a factor the spec leaves open);
   * - `later`: without both, the longest at the nearest number above (delays do not shrink).
   * A lower number's delay alone tells nothing: next to it, a sender that doubles its delays sits at HELD_FACTOR.
   */
  expected(attempt: number, but?: Gap): { ms: number; how: 'same' | 'grown' | 'later' } | undefined;
}

/**
 * The delays of retries that came at no other checkout's acknowledgement (not
 * within FOLLOW_MS after one): what the sender's own rule gave when nothing
 * could have held it. Only the two longest per attempt number are
 * kept: leaving one retry out (a retry held up by a stall is measured against
 * the others) needs no more.
 */
function ownDelays(view: RunView, gaps: readonly Gap[]): OwnDelays {
  const acks = view.checkouts.flatMap(c => c.events.flatMap(e => e.ackAt === undefined ? [] : [{ c, at: e.ackAt }])).sort((x, y) => x.at - y.at);
  const followsAck = (g: Gap) => {
    let lo = 0, hi = acks.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (acks[m].at < g.to - FOLLOW_MS) lo = m + 1; else hi = m; }
    for (let i = lo; i < acks.length && acks[i].at <= g.to; i++) if (acks[i].c !== g.c) return true;
    return false;
  };
  type Top = { g: Gap; d: number }[];
  const keep = (top: Top, item: Top[number]) => { top.push(item); top.sort((x, y) => y.d - x.d); if (top.length > 2) top.pop(); };
  const byAttempt = new Map<number, Top>();
  for (const g of gaps) if (!followsAck(g)) {
    const item = { g, d: g.to - g.from };
    if (!byAttempt.has(g.failed.attempt)) byAttempt.set(g.failed.attempt, []);
    keep(byAttempt.get(g.failed.attempt)!, item);
  }
  const pick = (top: Top | undefined, but?: Gap) => top?.find(x => x.g !== but)?.d;
  const longest = (attempt: number, but?: Gap) => pick(byAttempt.get(attempt), but);
  const expected: OwnDelays['expected'] = (attempt, but) => {
    const same = longest(attempt, but);
    if (same !== undefined) return { ms: same, how: 'same' };
    const known = [...byAttempt.keys()].filter(n => longest(n, but) !== undefined).sort((x, y) => x - y);
    let growth: number | undefined;
    for (const m of known) for (const n of known) if (m < n) growth = Math.max(growth ?? 1, (longest(n, but)! / longest(m, but)!) ** (1 / (n - m)));
    const below = known.filter(n => n < attempt).at(-1), above = known.find(n => n > attempt);
    if (below !== undefined && growth !== undefined) return { ms: longest(below, but)! * growth ** (attempt - below), how: 'grown' };
    return above === undefined ? undefined : { ms: longest(above, but)!, how: 'later' };
  };
  return { longest, expected };
}

function gapsOf(view: RunView): Gap[] {
  const out: Gap[] = [];
  for (const c of view.checkouts) for (const e of c.events) for (let i = 0; i + 1 < e.attempts.length && out.length < MAX_GAPS; i++) {
    const failed = e.attempts[i];
    if (!failed.delivered) out.push({ c, failed, retry: e.attempts[i + 1], from: failed.end, to: e.attempts[i + 1].arrived });
  }
  return out;
}

/**
 * Retries held by another checkout's backoff (spec 6.9), judged per pair: B's
 * attempt failed while A waited in backoff, and B's retry came only once A's
 * event was acknowledged, at once after it (FOLLOW_MS), after a delay more than
 * HELD_FACTOR times the longest the sender chose for that attempt number where
 * nothing could have held it (ownDelays.expected: without such a retry of that
 * number, the nearest lower number's grown as the sender grows its delays, else
 * the nearest higher number's, else the retry is not judged): longer than its
 * own rule ever gave. A sender that retries B by B's own backoff does
 * so whatever A does.
 *
 * A's own delays are no measure: behind one queue for every checkout's
 * retries, A waited for the checkout before it, and every delay but the first
 * checkout's grows (the `webhook-global-retry-queue` fault with every probe:
 * B waited 381.9 s behind A, which had waited 366.8 s itself). A sender that
 * draws each delay anew (decorrelated jitter, allowed by 6.5) sometimes
 * retries B just after A's acknowledgement by its own rule (1 run in 6 of the
 * `webhook-decorrelated-jitter` quirk: 28.4 s, against 13.1 s for A), within
 * twice the longest it drew where nothing was acknowledged.
 */
function heldRetries(view: RunView): { findings: Finding[]; pairs: number; excused?: { ahead: number; message: string } } {
  const gaps = gapsOf(view);
  const own = ownDelays(view, gaps);
  const suspects: { a: Gap; b: Gap; ack: number; delay: number; rule: NonNullable<ReturnType<OwnDelays['expected']>> }[] = [];
  // A's acknowledged attempt came after a delay of A's own rule: when it came late too, one stall of the sender (or of
  // the sink that stamps them) delayed both, and B's retry after A's acknowledgement says nothing of a hold.
  const byRetry = new Map(gaps.map(g => [g.retry, g]));
  const lastOf = (g: Gap) => { const e = g.c.events[g.failed.event]; return e.attempts[e.attempts.length - 1]; };
  // Measured against the same attempt number's delays, or against the nearest lower number's grown as the sender grows
  // them: next to a lower number's alone, a sender that doubles its delays (10, 20, 40 s) sits at HELD_FACTOR, and a
  // few ms of noise made a held queue's last acknowledgement look late: 40.04 s against 20.01 s, and the
  // webhook-global-retry-queue fault passed (2 runs in 36 here, once in a clean-clone CI run).
  // Where the sender's delays cannot tell, A may have come late: no hold is inferred from it.
  const late = (g: Gap | undefined) => {
    if (!g) return false;
    const rule = own.expected(g.failed.attempt, g);
    return !rule || g.to - g.from > HELD_FACTOR * rule.ms;
  };
  const pairs = new Set<string>();
  for (const b of gaps) for (const a of gaps) {
    if (a.c === b.c || !(a.from <= b.from && b.from < a.to)) continue;
    pairs.add(`${a.c.id}\n${b.c.id}`);
    const ack = a.c.events[a.failed.event].ackAt;
    if (ack === undefined || b.to < ack || b.to - ack > FOLLOW_MS) continue;
    const delay = b.to - b.from, rule = own.expected(b.failed.attempt);
    if (!rule?.ms || delay <= HELD_FACTOR * rule.ms || late(byRetry.get(lastOf(a)))) continue;
    if (!suspects.some(x => x.b === b)) suspects.push({ a, b, ack, delay, rule });
  }
  const findings = suspects.map(({ a, b, ack, delay, rule }) => ({
    message: `checkout ${b.c.id}: its attempt failed while ${a.c.id} waited in backoff, and its retry came only ${sec(b.to - ack)} ` +
      `after ${a.c.id}'s event was acknowledged, ${sec(delay)} after the failure (where nothing could have held it, the sender ` + {
        same: `waited at most ${sec(rule.ms)} before the same attempt)`,
        grown: `would wait ${sec(rule.ms)} before that attempt, growing its delays as it did from one attempt to the next)`,
        later: `waited at most ${sec(rule.ms)} before a later attempt)`,
      }[rule.how],
    attempts: [a.failed, a.retry, b.failed, b.retry], at: b.retry,
  }));
  // One suspect where retries went ahead of other checkouts' waiting events is a late retry, not a hold: a sender
  // that holds retries behind another checkout's does so at each chance.
  const ahead = findings.length === 1 ? wentAhead(view) : 0;
  if (ahead >= MIN_AHEAD) return { findings: [], pairs: pairs.size, excused: { ahead, message: findings[0].message } };
  return { findings, pairs: pairs.size };
}

/**
 * Events whose retry went ahead of another checkout's event that had begun failing earlier (by more than FOLLOW_MS,
 * so that two failures at one instant, which a sender may queue either way, do not count) and still waited for its
 * acknowledgement: what a sender that holds retries behind another checkout's backoff never sends. The head of
 * such a queue goes ahead of the rest, so only events that began failing later count.
 */
function wentAhead(view: RunView): number {
  const chains = view.checkouts.flatMap(c => c.events.flatMap(e => {
    const i = e.attempts.findIndex(a => !a.delivered);
    return i < 0 || i + 1 >= e.attempts.length ? [] : [{ c, from: e.attempts[i].end, retry: e.attempts[i + 1].arrived, ack: e.ackAt }];
  }));
  let n = 0;
  for (const b of chains) if (chains.some(a => a.c !== b.c && a.ack !== undefined && a.from + FOLLOW_MS < b.from && b.retry < a.ack)) n++;
  return n;
}

export function checkNotHeld(view: RunView): Outcome {
  const retries = heldRetries(view);
  const judged = notHeldByLate(view);
  if (!retries.findings.length) return judged.status === 'passed' && retries.pairs
    ? { ...judged, message: `${judged.message}; ${retries.pairs} pairs of checkouts where one failed while the other waited in backoff: ` +
      (retries.excused
        ? `the retries of ${retries.excused.ahead} events went ahead of another checkout's waiting event, so one retry that came just ` +
          `after another's acknowledgement was late, not held (${retries.excused.message})`
        : 'no retry waited for the other\'s delivery') }
    : judged;
  const late = judged.status === 'failed' ? [{ message: judged.message!, attempts: [] }] : [];
  return fromFindings('each checkout\'s attempts and retries at their own time, whatever another checkout waits for', [...late, ...retries.findings]);
}

/** The suite's held and late checkouts (or any other checkout in a backoff gap, without them). */
function notHeldByLate(view: RunView): Outcome {
  const held = view.checkouts.find(c => c.planned?.plan.role === 'held');
  const late = view.checkouts.find(c => c.planned?.plan.role === 'late');
  if (held && late) return lateVersusHeld(view, held, late);
  const lateCreated = [...view.plan.values()].find(p => p.plan.role === 'late' && p.control?.id);
  if (held && lateCreated) {
    // Created but never delivered while the held checkout waited: the clearest failure.
    return fromFindings('the late checkout delivered while the held one waits in backoff', [{
      message: `checkout ${lateCreated.control!.id}, created while ${held.id} waited in backoff, sent nothing before the run ended`,
      attempts: held.attempts,
    }]);
  }
  return generic(view);
}

function lateVersusHeld(view: RunView, held: CheckoutView, late: CheckoutView): Outcome {
  const first = late.attempts[0];
  const ack = heldAck(held);
  const evidence = [deliveries([...held.attempts, first])];
  if (ack === undefined || first.arrived < ack)
    return passed(`checkout ${late.id} (created while ${held.id} was in backoff) delivered ` +
      `${ack === undefined ? 'although the held event was never acknowledged' : `${sec(ack - first.arrived)} before the held event was acknowledged`}`,
      evidence);
  return fromFindings('the late checkout delivered while the held one waits in backoff', [{
    message: `checkout ${late.id}, created while ${held.id} was in backoff, got its first attempt only ${sec(first.arrived - ack)} ` +
      `after the held event was finally acknowledged`,
    attempts: [...held.attempts, first],
  }]);
}

/** Without the suite's held/late pair (passive sink): any other checkout's attempt inside some backoff gap. */
function generic(view: RunView): Outcome {
  const gaps = view.checkouts.flatMap(c => c.events.flatMap(e => e.attempts.slice(0, -1).flatMap((a, i) =>
    a.delivered ? [] : [{ c, from: a.end, to: e.attempts[i + 1].arrived, a }])));
  if (view.checkouts.length < 2 || !gaps.length) return notRun('no checkout was in backoff while another one had events to send');
  // view.all is in arrival order; nextOther[i] is the first attempt from i on of another checkout than i's.
  const all = view.all;
  const nextOther = new Int32Array(all.length + 1).fill(all.length);
  for (let i = all.length - 2; i >= 0; i--)
    nextOther[i] = all[i + 1].d.checkoutId !== all[i].d.checkoutId ? i + 1 : nextOther[i + 1];
  const inside = gaps.find(g => {
    let lo = 0, hi = all.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (all[m].arrived <= g.from) lo = m + 1; else hi = m; }
    const k = lo < all.length && all[lo].d.checkoutId === g.c.id ? nextOther[lo] : lo;
    return k < all.length && all[k].arrived < g.to;
  });
  if (inside) return passed(`another checkout delivered while ${inside.c.id} was in backoff`);
  return notRun('no other checkout sent anything during a backoff, which a hand-driven run cannot tell from having nothing to send');
}
