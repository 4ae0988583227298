// webhook.order: within a checkout, no event goes out before the previous one
// was acknowledged.
import { CHECKOUT_STATUSES } from '../../contracts/enums.ts';
import type { Evidence } from '../../results/model.ts';
import { verdict, type Finding } from './result.ts';
import { notRun, placed, type Outcome } from '../../check/outcome.ts';
import { PlaceLedger } from '../../results/places.ts';
import type { CheckDef } from '../../check/def.ts';
import { GATED_EVENT_POSITIONS } from '../../places/event-positions.ts';
import { RESPONSE_WAIT_MS, positionOf, type AttemptView, type CheckoutView, type RunView } from './view.ts';

// Spec 6.8: "Events of a single payment are delivered in order: an event is not
// delivered until the previous one is acknowledged."
export const ACK_GATED: CheckDef = {
  id: 'webhook.order.ack-gated', requirements: ['R6.8-ack-gated'],
  title: 'No event of a checkout is sent before the previous one was answered 200', spec: '6.8',
  quote: 'Events of a single payment are delivered in order: an event is not delivered until the previous one is acknowledged.',
  // The gate binds the event that waits (a middle or final one), and is tested where the event before it failed.
  bindsAt: { family: 'gated-event-position' },
};

// Spec 6.8 with 6.3: copies are allowed (at least once), but an earlier event sent
// again after a later one was acknowledged reaches the receiver out of order. The
// spec rules on copies only through "at least once", so this is a should finding.
export const COPIES_IN_ORDER: CheckDef = {
  id: 'webhook.order.copies-in-order', requirements: ['R6.8-ack-gated'],
  title: 'No event is delivered again after a later event of its checkout was acknowledged', spec: '6.8',
  quote: 'Events of a single payment are delivered in order: an event is not delivered until the previous one is acknowledged.',
};

type OrderBreak = 'overtake' | 'regression' | 'reordered';

/**
 * Each attempt of event m is compared with every earlier event n of its checkout
 * (earlier in the order the control API was asked for, which for an accepted
 * request is the order of spec 3.1) that had no 200 yet when the attempt arrived:
 * - n still had an attempt open (sent, not answered): an overtake;
 * - n had not been attempted yet and was later: reordered (sent out of order);
 * - n was attempted again later: a regression (the sender went on, then back);
 * - n was never attempted again: a skip. A skip alone is not an order fault but
 *   a missing retry, which webhook.retry and webhook.timeout judge; it is only
 *   reported here, so one fault fails one check.
 * Deliveries of an event after its 200 are duplicates (spec 6.3), never a break.
 */
function orderBreaks(view: RunView, c: CheckoutView): Array<{ kind: OrderBreak | 'skip'; n: number; x: AttemptView; with: AttemptView[] }> {
  const finish = finishOf(view);
  const out: Array<{ kind: OrderBreak | 'skip'; n: number; x: AttemptView; with: AttemptView[] }> = [];
  const seen = new Set<string>();
  // Only events of a status of spec 3.1 are ordered (at most ten); a body with another
  // status is webhook.body.valid's fault, and a hostile sender's thousand made-up statuses
  // must not make this quadratic.
  const ordered = c.events.filter(e => CHECKOUT_STATUSES.includes(e.status));
  // Per event, over its attempts in arrival order: the latest end of any attempt so far,
  // so "had an attempt still open at time t" is a binary search and a lookup.
  const latestFinish = new Map(ordered.map(e => {
    let m = -Infinity;
    return [e, e.attempts.map(y => (m = Math.max(m, finish(y))))];
  }));
  for (const x of c.attempts) for (const ev of ordered) {
    if (ev.index >= x.event) break;
    if (ev.ackAt !== undefined && ev.ackAt <= x.arrived) continue;
    const k = lastArrivedBy(ev.attempts, x.arrived);
    const hasOpen = k >= 0 && latestFinish.get(ev)![k] > x.arrived;
    const hasLater = k + 1 < ev.attempts.length;
    const kind = hasOpen ? 'overtake' : hasLater ? (k < 0 ? 'reordered' : 'regression') : 'skip';
    const key = `${kind}:${ev.index}:${x.event}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const open = () => ev.attempts.slice(0, k + 1).filter(y => finish(y) > x.arrived);
    out.push({ kind, n: ev.index, x, with: hasOpen ? open() : hasLater ? [ev.attempts[k + 1]] : ev.attempts.slice(-1) });
  }
  return out;
}

/**
 * When an attempt stopped holding up the next event: our answer, or the
 * sender's hang-up. The sink learns of a hang-up (the socket's close) a turn
 * after the sender, which may have sent the next event in between: a hang-up
 * counts from the tolerance of the 5 s window (and the sink's own lateness)
 * before the sink stamped it.
 */
const finishOf = (view: RunView) => (y: AttemptView) =>
  y.answered ?? (y.closed !== undefined && y.d.answer === 'none' ? y.closed - view.tol(RESPONSE_WAIT_MS) - y.lag : y.closed) ?? Infinity;

/** Index of the last attempt that arrived at or before t (attempts in arrival order), -1 if none. */
function lastArrivedBy(attempts: readonly AttemptView[], t: number): number {
  let lo = 0, hi = attempts.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (attempts[m].arrived <= t) lo = m + 1; else hi = m; }
  return lo - 1;
}

export function checkOrder(view: RunView): Outcome {
  const multi = view.checkouts.filter(c => c.events.length > 1);
  if (!multi.length) return notRun('no checkout had more than one event');
  const findings: Finding[] = [];
  const notes: Evidence[] = [];
  let skips = 0;
  const places = new PlaceLedger('gated-event-position', GATED_EVENT_POSITIONS);
  const placeOf = (c: CheckoutView, e: CheckoutView['events'][number]) => positionOf(c, e.attempts[0]) ?? e.status;
  // The gate was put to the test at an event whose previous event failed: it had to wait.
  for (const c of multi) c.events.forEach((e, i) => { if (i && c.events[i - 1].attempts.some(a => !a.delivered)) places.pass(placeOf(c, e)); });
  for (const c of multi) for (const b of orderBreaks(view, c)) {
    const m = `${b.x.status ?? 'unreadable'} (event ${b.x.event})`, n = `${c.events[b.n].status} (event ${b.n})`;
    // Broken at the event that went out too early.
    if (b.kind !== 'skip') places.fail(placeOf(c, c.events[b.x.event]));
    if (b.kind === 'overtake')
      findings.push({ message: `checkout ${c.id}: ${m} arrived while ${n} was still waiting for its answer`, attempts: [...b.with, b.x] });
    else if (b.kind === 'reordered') findings.push({
      message: `checkout ${c.id}: ${m} arrived before any attempt of ${n}, which comes before it in the order of spec 3.1 the statuses were asked in`,
      attempts: [b.x, ...b.with], at: b.x,
    });
    else if (b.kind === 'regression') findings.push({
      message: `checkout ${c.id}: ${m} arrived before ${n} was acknowledged, and ${n} was attempted again afterwards`,
      attempts: [b.x, ...b.with], at: b.x,
    });
    else if (skips++ < 10) notes.push({
      kind: 'note',
      text: `checkout ${c.id}: ${m} arrived after ${n} failed and was never attempted again (a missing retry, judged by webhook.retry and webhook.timeout)`,
    });
  }
  if (skips > 10) notes.push({ kind: 'note', text: `and ${skips - 10} more such skips` });
  return placed(verdict('each event sent only after the previous one of its checkout was answered 200', findings,
    `${multi.length} checkouts with several events, each sent only after the previous one was acknowledged${skips ? `; ${skips} skips noted` : ''}`, notes),
  places);
}

/** Checkouts whose arrival order the order check faults (states then judges only what order cannot change). */
export function disorderedCheckouts(view: RunView): Set<string> {
  return new Set(view.checkouts.filter(c => orderBreaks(view, c).some(b => b.kind !== 'skip')).map(c => c.id));
}

/** Copies of an acknowledged event that arrived after a later event of the checkout was acknowledged. */
export function checkCopiesInOrder(view: RunView): Outcome {
  const multi = view.checkouts.filter(c => c.events.length > 1);
  if (!multi.length) return notRun('no checkout had more than one event');
  const findings: Finding[] = [];
  let copies = 0;
  for (const c of multi) {
    const ordered = c.events.filter(e => CHECKOUT_STATUSES.includes(e.status));
    ordered.forEach((e, i) => {
      if (e.ackAt === undefined) return;
      for (const a of e.attempts.filter(x => x.arrived >= e.ackAt!)) {
        copies++;
        const later = ordered.slice(i + 1).find(m => m.ackAt !== undefined && m.ackAt <= a.arrived);
        if (later) findings.push({
          message: `checkout ${c.id}: ${e.status} (event ${e.index}) was delivered again after ${later.status} (event ${later.index}) was acknowledged`,
          attempts: [later.attempts.find(x => x.delivered) ?? later.attempts[0], a],
        });
      }
    });
  }
  return verdict('copies of an event only before the next event of its checkout was acknowledged', findings,
    `${copies} copies of acknowledged events, none after a later event of its checkout was acknowledged`);
}
