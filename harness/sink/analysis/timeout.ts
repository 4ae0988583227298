// webhook.timeout: the 5 s response window of spec 6.6, probed with an answer
// after 4 s (inside it) and after 6 s (outside it).
import type { Evidence } from '../../report/model.ts';
import { deliveries, listed, placed, skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import { followUp } from './retry.ts';
import { PlaceLedger } from '../../report/places.ts';
import { EVENT_POSITIONS, type EventPosition } from '../../places/event-positions.ts';
import { RESPONSE_WAIT_MS, positionOf, sec, type AttemptView, type RunView } from './view.ts';

// Spec 6.6: "The service waits 5 seconds in total for a response."
export const WAITS_5S: CheckDef = {
  id: 'webhook.timeout.waits-5s', requirements: ['R6.6-waits-5s'],
  title: 'The sender waits 5 s for an answer before giving up (an answer after 4 s is taken), at every event position', spec: '6.6',
  quote: 'The service waits 5 seconds in total for a response.',
  bindsAt: { family: 'event-position' },
};
// Spec 6.6: "Without a response in that time the event counts as not delivered
// and is retried at the next backoff." Spec 7: "no response within 5 seconds is
// a failed delivery and leads to a retry." A sender still waiting at 6 s that
// takes the late 200 for delivery breaks this; one that hung up and did not retry
// fails webhook.retry.after-timeout instead (one fault, one check).
export const LATE_NOT_TAKEN: CheckDef = {
  id: 'webhook.timeout.late-answer-not-taken', requirements: ['R6.6-no-answer-retried'],
  title: 'An answer after 6 s is not taken for delivery: the event is attempted again', spec: '6.6',
  quote: 'Without a response in that time the event counts as not delivered and is retried at the next backoff.',
};

/**
 * A sender that gives up at 4.5 s must fail, one that waits the 5 s must pass:
 * 500 ms apart. The sink measures from an attempt's arrival to the sender's
 * hang-up, and the sender started its clock earlier (its own scheduling, the
 * network). That head start is estimated by the sender's quickest turnaround: an
 * answer to the arrival of the checkout's next event, which a sender with the
 * event waiting sends at once (a sender that spaces its events on purpose shows
 * it in its other turnarounds, not its quickest). The sink's own lateness around
 * the attempt's stamps can shorten or lengthen what it measures.
 *
 * So a hang-up fails when it is short even with the head start and the sink's
 * lateness granted, passes when it is long enough even against that lateness,
 * and in between passes only when the allowances together stay within
 * MAX_EXTRA_MS: arbitrary, 300 ms, which with the contract's tolerance of 100 ms
 * at 5 s keeps a 4.5 s timeout apart from 5 s (or within the tolerance, when a
 * looser one was asked for). Beyond it the hang-up is not judged (not-run),
 * with the figures.
 */
export const MAX_EXTRA_MS = 300;

/** The sender's quickest turnaround (spec ms) from an acknowledgement to its checkout's next event; 0 when none was seen. */
function turnaround(view: RunView): number {
  let quickest = Infinity;
  for (const c of view.checkouts) for (let i = 1; i < c.events.length; i++) {
    const ack = c.events[i - 1].ackAt, next = c.events[i].attempts[0]?.arrived;
    if (ack !== undefined && next !== undefined && next >= ack && next - ack < quickest) quickest = next - ack;
  }
  return quickest === Infinity ? 0 : quickest;
}

interface HangUps {
  slow: AttemptView[]; hungUp: AttemptView[]; tol: number; head: number; floor: number; maxExtra: number;
  findings: Finding[];
  /** Hang-ups the sink's own lateness kept from being judged, with the allowance they would need. */
  unsure: Array<{ a: AttemptView; extra: number }>;
  /** Hang-ups judged long enough. */
  judged: number;
  /** Each event position: a slow answer waited for (or a hang-up judged long enough), a short hang-up, or only blurred ones. */
  places: PlaceLedger;
}

/** Every hang-up on a slow answer, judged as short, long enough, or not judgeable (see MAX_EXTRA_MS). */
function judgeHangUps(view: RunView): HangUps {
  const slow = view.all.filter(a => a.d.probe === 'slow-4s' || a.d.probe === 'slow-6s');
  const tol = view.tol(RESPONSE_WAIT_MS);
  const head = turnaround(view);
  const floor = RESPONSE_WAIT_MS - tol;
  // A tolerance widened past the 500 ms (a looser --timing-tolerance, a compressed clock) has given
  // up that distinction already; then the allowances may be as wide as the tolerance.
  const maxExtra = Math.max(MAX_EXTRA_MS, tol);
  const hungUp = slow.filter(a => a.closed !== undefined && a.d.answer === 'none');
  const findings: Finding[] = [];
  const unsure: Array<{ a: AttemptView; extra: number }> = [];
  const places = new PlaceLedger('event-position', EVENT_POSITIONS);
  const placeOf = (a: AttemptView) => positionOf(view.byId.get(a.d.checkoutId)!, a) ?? a.d.probe;
  // A sender still there for the 6 s answer waited the 5 s at that place (late-answer-not-taken judges what it did next).
  for (const a of slow) if (a.d.probe === 'slow-6s' && a.answered !== undefined) places.pass(placeOf(a));
  for (const a of hungUp) {
    const m = a.closed! - a.arrived;
    const extra = head + 2 * a.lag;
    if (m + head + a.lag < floor) {
      places.fail(placeOf(a));
      findings.push({
        message: `the sender hung up ${sec(m)} after sending event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${a.d.checkoutId}, ` +
          `before the ${a.d.probe === 'slow-4s' ? '4 s' : '6 s'} answer`,
        attempts: [a],
      });
    } else if (m - a.lag < floor && extra > maxExtra) {
      unsure.push({ a, extra });
      places.skip(placeOf(a), `the sender gave up after ${sec(m)}, and its quickest turnaround with the sink's own lateness ` +
        `(${sec(extra)}) is more than the ${sec(maxExtra)} this check can allow`);
    } else places.pass(placeOf(a));
  }
  return { slow, hungUp, tol, head, floor, maxExtra, findings, unsure, judged: hungUp.length - findings.length - unsure.length, places };
}

/**
 * The event positions where the slow probes need another go (drive.ts sends one
 * more answer after 6 s there): every hang-up at the position was blurred by the
 * sink's own lateness, or there was no hang-up at all and the sink answered an
 * answer-after-6s while running late (a stall that held the sink's answer may
 * have held the sender's clock too, and webhook.retry.after-timeout then has no
 * hang-up to judge). None once a hang-up broke the rule anywhere.
 */
export function waits5sUnjudged(view: RunView): EventPosition[] {
  const j = judgeHangUps(view);
  if (j.findings.length) return [];
  const judged = new Set(j.places.tally().exercised);
  const want = new Set<EventPosition>();
  const at = (a: AttemptView) => positionOf(view.byId.get(a.d.checkoutId)!, a);
  for (const { a } of j.unsure) { const p = at(a); if (p && !judged.has(p)) want.add(p); }
  if (!j.hungUp.length)
    for (const a of j.slow) if (a.d.probe === 'slow-6s' && a.answered !== undefined && j.head + 2 * a.lag > j.maxExtra) { const p = at(a); if (p) want.add(p); }
  return EVENT_POSITIONS.filter(p => want.has(p));
}

/**
 * Every attempt the sender hung up on before the sink answered must have lasted
 * 5 s (less the tolerance). Hang-ups the sink's own lateness blurred are left
 * out when others were judged (each hang-up is the same measurement of the same
 * timeout); when none could be judged the check is not run, with the figures.
 */
export function checkWaits5s(view: RunView): Judged {
  const { places, ...j } = judgeHangUps(view);
  return placed(judgeWaits5s(view, j), places);
}

function judgeWaits5s(view: RunView, { slow, hungUp, tol, head, floor, maxExtra, findings, unsure, judged }: Omit<HangUps, 'places'>): Judged {
  if (!slow.length) return skipped(WAITS_5S, 'no attempt was held for a slow answer');
  const gaveUp = hungUp.map(a => sec(a.closed! - a.arrived));
  const measured: Evidence = { kind: 'measurement', name: 'sender gave up after',
    expected: `≥ ${sec(floor)} (5 s less the tolerance of ${sec(tol)}), allowing the sender's quickest turnaround of ${sec(head)} and the sink's own lateness`,
    seen: gaveUp.length ? listed(gaveUp) : 'never hung up first' };
  const worst = unsure.length ? unsure.reduce((x, y) => y.extra > x.extra ? y : x) : undefined;
  const blurred = worst && `${unsure.length} of ${hungUp.length} hang-ups could not be judged: ` +
    `the sender gave up after ${sec(worst.a.closed! - worst.a.arrived)}, and its quickest turnaround (${sec(head)}) ` +
    `with the sink's own lateness around the attempt (${sec(worst.a.lag)}, measured) is more than the ${sec(maxExtra)} this check can allow`;
  if (!findings.length && blurred && !judged) return skipped(WAITS_5S, `${blurred}; run on a quieter machine or with a larger --time-scale`);
  const taken = slow.filter(a => a.d.probe === 'slow-4s' && a.delivered).length;
  const leftOut: Evidence[] = !findings.length && blurred ?
    [{ kind: 'note', text: `${blurred}, so they were left out; judged on the ${judged} the sink measured in time` }] : [];
  return verdict(WAITS_5S, `no hang-up before ${sec(floor)}`, findings,
    `${taken} answers after 4 s were taken; the sender gave up after ${gaveUp.length ? listed(gaveUp) : '(never hung up first)'}` +
      `${leftOut.length ? ` (${unsure.length} blurred by the sink's own lateness left out)` : ''}`,
    [measured, ...leftOut, ...(findings.length ? [] : [deliveries(slow)])]);
}

/** A 200 the sender read after 6 s must not end the event: another attempt follows. */
export function checkLateNotTaken(view: RunView): Judged {
  const late = view.checkouts.flatMap(c => c.attempts.filter(a => a.d.probe === 'slow-6s').map(a => ({ c, a })));
  if (!late.length) return skipped(LATE_NOT_TAKEN, 'no attempt was answered after 6 s');
  const taken = late.filter(x => x.a.delivered);
  const findings: Finding[] = [];
  for (const { c, a } of taken) if (followUp(view, c, a) === 'missing') findings.push({
    message: `event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${c.id}: the sender was still waiting when the 200 came ` +
      `${sec(a.answered! - a.arrived)} after sending, took it for delivery and never attempted the event again`,
    attempts: [a],
  });
  const hungUp = late.length - taken.length;
  return verdict(LATE_NOT_TAKEN, 'the sender gives up by 5 s, or attempts the event again after a late 200', findings,
    `${hungUp} of ${late.length} attempts answered after 6 s were given up by the sender first; ` +
      `${taken.length - findings.length} read late answers were followed by another attempt`,
    findings.length ? [] : [deliveries(late.map(x => x.a))]);
}
