// webhook.order: within a checkout, no event goes out before the previous one
// was acknowledged.
import type { Evidence } from '../../report/model.ts';
import { skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import type { AttemptView, CheckoutView, RunView } from './view.ts';

// Spec 6.8: "Events of a single payment are delivered in order: an event is not
// delivered until the previous one is acknowledged."
export const ACK_GATED: CheckDef = {
  id: 'webhook.order.ack-gated', requirements: ['R6.8-ack-gated'], title: 'No event of a checkout is sent before the previous one was answered 200', spec: '6.8',
  quote: 'Events of a single payment are delivered in order: an event is not delivered until the previous one is acknowledged.',
};

export type OrderBreak = 'overtake' | 'regression';

/**
 * Each attempt of event m is compared with every earlier event n of its checkout
 * that had no 200 yet when the attempt arrived:
 * - n still had an attempt open (sent, not answered): an overtake;
 * - n was attempted again later: a regression (the sender went on, then back);
 * - n was never attempted again: a skip. A skip alone is not an order fault but
 *   a missing retry, which webhook.retry and webhook.timeout judge; it is only
 *   reported here, so one fault fails one check.
 * Deliveries of an event after its 200 are duplicates (spec 6.3), never a break.
 */
export function orderBreaks(c: CheckoutView): Array<{ kind: OrderBreak | 'skip'; n: number; x: AttemptView; with: AttemptView[] }> {
  const out: Array<{ kind: OrderBreak | 'skip'; n: number; x: AttemptView; with: AttemptView[] }> = [];
  const seen = new Set<string>();
  for (const x of c.attempts) for (const ev of c.events.slice(0, x.event)) {
    if (ev.ackAt !== undefined && ev.ackAt <= x.arrived) continue;
    const open = ev.attempts.filter(y => y.arrived <= x.arrived && (y.answered ?? y.closed ?? Infinity) > x.arrived);
    const later = ev.attempts.filter(y => y.arrived > x.arrived);
    const kind = open.length ? 'overtake' : later.length ? 'regression' : 'skip';
    const key = `${kind}:${ev.index}:${x.event}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind, n: ev.index, x, with: open.length ? open : later.length ? later.slice(0, 1) : ev.attempts.slice(-1) });
  }
  return out;
}

export function checkOrder(view: RunView): Judged {
  const multi = view.checkouts.filter(c => c.events.length > 1);
  if (!multi.length) return skipped(ACK_GATED, 'no checkout had more than one event');
  const findings: Finding[] = [];
  const notes: Evidence[] = [];
  for (const c of multi) for (const b of orderBreaks(c)) {
    const m = `${b.x.status ?? 'unreadable'} (event ${b.x.event})`, n = `${c.events[b.n].status} (event ${b.n})`;
    if (b.kind === 'overtake') findings.push({ message: `checkout ${c.id}: ${m} arrived while ${n} was still waiting for its answer`, attempts: [...b.with, b.x] });
    else if (b.kind === 'regression') findings.push({ message: `checkout ${c.id}: ${m} arrived before ${n} was acknowledged, and ${n} was attempted again afterwards`, attempts: [b.x, ...b.with], at: b.x });
    else notes.push({ kind: 'note', text: `checkout ${c.id}: ${m} arrived after ${n} failed and was never attempted again (a missing retry, judged by webhook.retry and webhook.timeout)` });
  }
  return verdict(ACK_GATED, 'each event sent only after the previous one of its checkout was answered 200', findings,
    `${multi.length} checkouts with several events, each sent only after the previous one was acknowledged${notes.length ? `; ${notes.length} skips noted` : ''}`, notes);
}

/** Checkouts whose arrival order the order check faults (states then judges only what order cannot change). */
export function disorderedCheckouts(view: RunView): Set<string> {
  return new Set(view.checkouts.filter(c => orderBreaks(c).some(b => b.kind !== 'skip')).map(c => c.id));
}
