// webhook.timeout: the 5 s response window of spec 6.6, probed with an answer
// after 4 s (inside it), after 6 s (outside it) and one trickled a byte at a
// time until 7.5 s (outside it, however lively).
import type { Evidence } from '../../results/model.ts';
import { deliveries, listed, verdict, type Finding } from './result.ts';
import { notRun, placed, type Outcome } from '../../check/outcome.ts';
import type { CheckDef } from '../../check/def.ts';
import { followUp } from './retry.ts';
import { PlaceLedger } from '../../results/places.ts';
import { EVENT_POSITIONS, type EventPosition } from '../../places/event-positions.ts';
import { RESPONSE_WAIT_MS, nextOfEvent, positionOf, sec, type AttemptView, type RunView } from './view.ts';

// Spec 6.6: "The service waits 5 seconds in total for a response."
export const WAITS_5S: CheckDef = {
  id: 'webhook.timeout.waits-5s', requirements: ['R6.6-waits-5s'],
  title: 'The sender waits 5 s in total for an answer before giving up (an answer after 4 s is taken, one still trickling at 5 s is given up), ' +
    'at every event position',
  spec: '6.6',
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
  title: 'An answer after 6 s is not taken for delivery: the event is attempted again, at every event position', spec: '6.6',
  quote: 'Without a response in that time the event counts as not delivered and is retried at the next backoff.',
  bindsAt: { family: 'event-position' },
};

/**
 * A sender that gives up at 4.5 s must fail, one that waits the 5 s must pass:
 * 500 ms apart. The sink measures from an attempt's arrival to the sender's
 * hang-up; its own lateness around those two stamps (measured, per attempt)
 * makes the true wait anything within that lateness either side. The sender
 * may also have started its clock before its request arrived (its own
 * scheduling, the connection): that head start is estimated by the sender's
 * quickest turnaround, an answer to the arrival of the checkout's next event,
 * which a sender with the event waiting sends at once; and on a new
 * connection it is at least the time from the sink's accept of the connection
 * to the request's arrival, measured (a burst of new connections, on a busy
 * machine, took 1.25 s of a 5 s wait there in a CI run).
 *
 * A hang-up fails when it is short even with the head start and the lateness
 * granted, and passes only when it is long enough against the lateness with
 * no head start credited. In between the measurement cannot tell, and the
 * hang-up is not judged (not-run), with the figures: an estimate never makes a
 * pass.
 *
 * MAX_EXTRA_MS (arbitrary, 300 ms) bounds the lateness around a 6 s answer the
 * sender waited for, past which that answer says nothing about its clock (the
 * drive sends the probe again, drive.ts), and sets what counts as a calm sink.
 */
export const MAX_EXTRA_MS = 300;

/** The probes held open on purpose: answers after 4 s and 6 s, and a trickled one. */
const SLOW_PROBES: readonly string[] = ['slow-4s', 'slow-6s', 'slow-trickle'];
const WHAT: Record<string, string> = { 'slow-4s': 'the 4 s answer', 'slow-6s': 'the 6 s answer', 'slow-trickle': 'the end of the trickled answer' };

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
  /** Hang-ups the measurement could not place on either side of the floor. */
  unsure: AttemptView[];
  /** Hang-ups judged long enough. */
  judged: number;
  /** Trickled answers the sender read to their end, and then took for delivery. */
  trickledTaken: number;
  /** Each event position: a slow answer waited for (or a hang-up judged long enough), a short hang-up, or only blurred ones. */
  places: PlaceLedger;
}

/** Every hang-up on a slow answer, judged as short, long enough, or not judgeable (see MAX_EXTRA_MS). */
function judgeHangUps(view: RunView): HangUps {
  const slow = view.all.filter(a => SLOW_PROBES.includes(a.d.probe));
  const tol = view.tol(RESPONSE_WAIT_MS);
  const head = turnaround(view);
  const floor = RESPONSE_WAIT_MS - tol;
  // A tolerance widened past the 500 ms (a looser --timing-tolerance, a compressed clock) has given
  // up that distinction already; then the allowances may be as wide as the tolerance.
  const maxExtra = Math.max(MAX_EXTRA_MS, tol);
  const hungUp = slow.filter(a => a.closed !== undefined && a.d.answer === 'none');
  const findings: Finding[] = [];
  const unsure: AttemptView[] = [];
  const places = new PlaceLedger('event-position', EVENT_POSITIONS);
  const placeOf = (a: AttemptView) => positionOf(view.byId.get(a.d.checkoutId)!, a) ?? a.d.probe;
  // A sender still there for the 6 s answer waited the 5 s at that place (late-answer-not-taken judges what it did next).
  for (const a of slow) if (a.d.probe === 'slow-6s' && a.answered !== undefined) places.pass(placeOf(a));
  // A sender that read a trickled answer to its end waited past 5 s "in total"; only another attempt shows it counted the first failed.
  let trickledTaken = 0;
  for (const a of slow) if (a.d.probe === 'slow-trickle' && a.answered !== undefined) {
    const next = followUp(view, view.byId.get(a.d.checkoutId)!, a);
    if (next === 'retried') places.pass(placeOf(a));
    else if (next === 'missing') {
      trickledTaken++;
      places.fail(placeOf(a));
      findings.push({
        message: `the sender read a trickled 200 to its last byte ${sec(a.answered! - a.arrived)} after sending event ${a.event} ` +
          `(${a.status ?? 'unreadable'}) of checkout ${a.d.checkoutId}, took it for delivery and never attempted the event again: ` +
          `it did not give up 5 s after sending, while bytes kept coming`,
        attempts: [a],
      });
    } else places.skip(placeOf(a), `the sender read a trickled answer to its end and the run ended before another attempt could show it counted it failed`);
  }
  for (const a of hungUp) {
    const m = a.closed! - a.arrived;
    if (m + head + a.connecting + a.lag < floor) {
      places.fail(placeOf(a));
      findings.push({
        message: `the sender hung up ${sec(m)} after sending event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${a.d.checkoutId}, ` +
          `before ${WHAT[a.d.probe]}`,
        attempts: [a],
      });
    } else if (m - a.lag < floor) {
      unsure.push(a);
      places.skip(placeOf(a), unsureWhy(a, head, floor));
    } else places.pass(placeOf(a));
  }
  return { slow, hungUp, tol, head, floor, maxExtra, findings, unsure, trickledTaken,
    judged: hungUp.length - (findings.length - trickledTaken) - unsure.length, places };
}

/** Why a hang-up could not be judged, with its figures. */
function unsureWhy(a: AttemptView, head: number, floor: number): string {
  const m = a.closed! - a.arrived;
  return `the sender gave up after ${sec(m)}: with the sink's own lateness around the attempt (${sec(a.lag)}, measured) ` +
    `and a head start of up to ${sec(head)} (the sender's quickest turnaround)` +
    `${a.connecting ? ` and ${sec(a.connecting)} from the connection's accept to the request` : ''} it waited between ` +
    `${sec(Math.max(0, m - a.lag))} and ${sec(m + a.lag + head + a.connecting)}, on both sides of ${sec(floor)}`;
}

/**
 * The event positions where the slow probes need another go (drive.ts sends one
 * more answer after 6 s there): every hang-up at the position was blurred by the
 * sink's own lateness, or there was no hang-up at all and the sink answered an
 * answer-after-6s while running late (a stall that held the sink's answer may
 * have held the sender's clock too, and webhook.retry.after-timeout then has no
 * hang-up to judge), or the sender read the answer after 6 s there and attempted
 * the event again (webhook.retry.after-timeout has no give-up to judge there
 * either). None once a hang-up broke the rule anywhere.
 */
export function waits5sUnjudged(view: RunView): EventPosition[] {
  const j = judgeHangUps(view);
  if (j.findings.length) return [];
  const judged = new Set(j.places.tally().exercised);
  const want = new Set<EventPosition>();
  const at = (a: AttemptView) => positionOf(view.byId.get(a.d.checkoutId)!, a);
  for (const a of j.unsure) { const p = at(a); if (p && !judged.has(p)) want.add(p); }
  if (!j.hungUp.length)
    for (const a of j.slow) if (a.d.probe === 'slow-6s' && a.answered !== undefined && j.head + 2 * a.lag > j.maxExtra) { const p = at(a); if (p) want.add(p); }
  // A position with no hang-up, where the sender read the 6 s answer and still attempted the event again: its give-up
  // lost the race with the answer (100 ms apart at time scale 0.1; a busy sender's timer fires late), and
  // webhook.retry.after-timeout has no give-up to judge there (seen at normal middle and batch middle at load 11).
  const hungAt = new Set(j.hungUp.map(at));
  for (const a of j.slow) if (a.d.probe === 'slow-6s' && a.answered !== undefined) {
    const p = at(a);
    if (p && !hungAt.has(p) && nextOfEvent(view.byId.get(a.d.checkoutId)!, a)) want.add(p);
  }
  return EVENT_POSITIONS.filter(p => want.has(p));
}

/**
 * Every attempt the sender hung up on before the sink answered must have lasted
 * 5 s (less the tolerance). Hang-ups the sink's own lateness blurred are left
 * out when others were judged (each hang-up is the same measurement of the same
 * timeout); when none could be judged the check is not run, with the figures.
 */
export function checkWaits5s(view: RunView): Outcome {
  const { places, ...j } = judgeHangUps(view);
  return placed(judgeWaits5s(view, j), places);
}

function judgeWaits5s(view: RunView, { slow, hungUp, tol, head, floor, findings, unsure, judged }: Omit<HangUps, 'places'>): Outcome {
  if (!slow.length) return notRun('no attempt was held for a slow answer');
  const gaveUp = hungUp.map(a => sec(a.closed! - a.arrived));
  const measured: Evidence = { kind: 'measurement', name: 'sender gave up after',
    expected: `≥ ${sec(floor)} (5 s less the tolerance of ${sec(tol)}), against the sink's own lateness; ` +
      `short only when short even with the sender's quickest turnaround of ${sec(head)} granted`,
    seen: gaveUp.length ? listed(gaveUp) : 'never hung up first' };
  const worst = unsure.length ? unsure.reduce((x, y) => y.lag > x.lag ? y : x) : undefined;
  const blurred = worst && `${unsure.length} of ${hungUp.length} hang-ups could not be judged: ${unsureWhy(worst, head, floor)}`;
  if (!findings.length && blurred && !judged) return notRun(`${blurred}; run on a quieter machine or with a larger --time-scale`);
  const taken = slow.filter(a => a.d.probe === 'slow-4s' && a.delivered).length;
  const leftOut: Evidence[] = !findings.length && blurred ?
    [{ kind: 'note', text: `${blurred}, so they were left out; judged on the ${judged} the sink measured in time` }] : [];
  return verdict(`no hang-up before ${sec(floor)}, and no trickled answer read past 5 s and taken`, findings,
    `${taken} answers after 4 s were taken; the sender gave up after ${gaveUp.length ? listed(gaveUp) : '(never hung up first)'}` +
      `${leftOut.length ? ` (${unsure.length} blurred by the sink's own lateness left out)` : ''}`,
    [measured, ...leftOut, ...(findings.length ? [] : [deliveries(slow)])]);
}

/**
 * A 200 the sender read after 6 s must not end the event: another attempt
 * follows. Judged at each event position (the `*-fails` plans answer after 6 s
 * there): a hang-up, or a late 200 followed by another attempt, holds the rule
 * at its place; a late 200 taken for delivery breaks it there.
 */
export function checkLateNotTaken(view: RunView): Outcome {
  const late = view.checkouts.flatMap(c => c.attempts.filter(a => a.d.probe === 'slow-6s').map(a => ({ c, a })));
  if (!late.length) return notRun('no attempt was answered after 6 s');
  const places = new PlaceLedger('event-position', EVENT_POSITIONS);
  const taken = late.filter(x => x.a.delivered);
  const findings: Finding[] = [];
  let retried = 0;
  for (const { c, a } of late) {
    const place = positionOf(c, a) ?? a.d.probe;
    if (!a.delivered) { places.pass(place); continue; }
    const next = followUp(view, c, a);
    if (next === 'retried') { retried++; places.pass(place); }
    else if (next !== 'missing') places.skip(place, `the sender took a 200 read ${sec(a.answered! - a.arrived)} after sending and ` +
      (next === 'unkeyed' ? 'only attempts without the registered api-key followed (see webhook.auth.api-key)' :
        `the sink saw no other attempt of the event in ${sec(view.until - a.end)}: whether it counted the answer as not delivered is not known`));
    else {
      places.fail(place);
      findings.push({
        message: `event ${a.event} (${a.status ?? 'unreadable'}) of checkout ${c.id}: the sender was still waiting when the 200 came ` +
          `${sec(a.answered! - a.arrived)} after sending, took it for delivery and never attempted the event again`,
        attempts: [a],
      });
    }
  }
  const hungUp = late.length - taken.length;
  return placed(verdict('the sender gives up by 5 s, or attempts the event again after a late 200', findings,
    `${hungUp} of ${late.length} attempts answered after 6 s were given up by the sender first; ` +
      `${retried} of ${taken.length} read late answers were followed by another attempt`,
    findings.length ? [] : [deliveries(late.map(x => x.a))]), places);
}
