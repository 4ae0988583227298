// webhook.body: fields that carry what the checkout request said (endToEndId,
// referenceId, the scheduled date) and fields that describe the checkout itself,
// so they do not change from one event to the next (createdDate, originalAmount).
import { modifiedBeforeCreated } from '../../contracts/rules.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import { showFact, type Fact } from './facts.ts';
import { readable, where } from './body.ts';
import { skipped, verdict, type Finding, withoutRequests } from './result.ts';
import type { ControlExtension } from '../plan.ts';
import type { AttemptView, CheckoutView, RunView } from './view.ts';

// Spec 2.2: "endToEndId | string | Sent in the initial checkout request and returned unchanged in the webhook body."
export const END_TO_END_ID: CheckDef = {
  id: 'webhook.body.end-to-end-id', requirements: ['R2.2-end-to-end-id'],
  title: 'Every body returns the endToEndId of the checkout request unchanged', spec: '2.2',
  quote: 'endToEndId | string | Sent in the initial checkout request and returned unchanged in the webhook body.',
};
// Spec 2.2: "referenceId | string | Customer reference given in the checkout request."
export const REFERENCE_ID: CheckDef = {
  id: 'webhook.body.reference-id', requirements: ['R2.2-reference-id'], title: 'Every body carries the referenceId given in the checkout request', spec: '2.2',
  quote: 'referenceId | string | Customer reference given in the checkout request.',
};
// Spec 2.2: "scheduledDate | string, YYYY-MM-DD | Only for scheduled payments."
// Spec 2.3: "named scheduledDate in the field definitions and paymentScheduledDate in the batch body shape. Both appear."
export const SCHEDULED_DATE: CheckDef = {
  id: 'webhook.body.scheduled-date', requirements: ['R2.2-scheduled-date'],
  title: 'A scheduled checkout\'s bodies carry its date (either spelling for a batch); an unscheduled payment has none', spec: '2.2',
  quote: 'scheduledDate | string, YYYY-MM-DD | Only for scheduled payments.',
};
// Spec 2.2: "createdDate | string | Date the checkout was created." "originalAmount | number | Original amount of the checkout."
export const STABLE: CheckDef = {
  id: 'webhook.body.stable-fields', requirements: ['R2.2-dates', 'R2.2-original-amount'],
  title: 'createdDate and originalAmount stay the same across a checkout\'s events', spec: '2.2',
  quote: 'createdDate | string | Date the checkout was created. originalAmount | number | Original amount of the checkout.',
};

// Spec 2.2: "lastModifiedDate | string | Last update of the checkout." Spec 6.8: events are
// delivered in order. A later event that says it changed earlier, or a change dated
// before the checkout's creation, contradicts the bodies; the spec rules on neither
// outright, so this is a should finding.
export const LAST_MODIFIED: CheckDef = {
  id: 'webhook.body.last-modified-forward', requirements: ['R2.2-dates'],
  title: 'lastModifiedDate never goes back from one event to the next and is never before createdDate', spec: '2.2',
  quote: 'lastModifiedDate | string | Last update of the checkout.',
};

/** The planned checkouts whose request set `field`, with their readable bodies (the older variant left out where it has no such field). */
function asked(view: RunView, pick: (c: CheckoutView) => string | undefined, older: boolean): Array<{ c: CheckoutView; value: string; bodies: AttemptView[] }> {
  const out: Array<{ c: CheckoutView; value: string; bodies: AttemptView[] }> = [];
  const readableSeqs = new Set(readable(view).map(a => a.d.seq));
  for (const c of view.checkouts) {
    const value = pick(c);
    if (value === undefined || !c.planned?.control?.id) continue;
    out.push({ c, value, bodies: c.attempts.filter(a => readableSeqs.has(a.d.seq) && (older || a.facts.kind === 'normal' || a.facts.kind === 'batch')) });
  }
  return out;
}

/**
 * Whether the target took an optional field of the checkout request
 * (docs/control-api.md): its 201 answer echoed it, or a body carries the value
 * asked for. A target that did neither may not implement the field; what its
 * bodies carry then says nothing about the rule.
 */
export function honoured(c: CheckoutView, field: ControlExtension, seen: boolean): boolean {
  return seen || (c.planned?.control?.echoed?.includes(field) ?? false);
}

/** The not-run reason when no checkout's target took an optional field, with the remedy. */
export function notHonoured(field: ControlExtension, n: number): string {
  return `the control API did not echo "${field}" in its 201 answer to any of ${n} checkouts asking for it, and no body showed it was taken: ` +
    `the target may not implement this optional field of docs/control-api.md; echo the fields taken in the 201 answer to have it checked`;
}

function returned(view: RunView, def: CheckDef, field: 'endToEndId' | 'referenceId', older: boolean): Judged {
  const all = asked(view, c => c.planned?.plan.request?.[field], older);
  if (!all.length) return withoutRequests(view, def, `no checkout request carried a ${field}`);
  const list = all.filter(({ c, value, bodies }) => honoured(c, field, bodies.some(a => a.facts[field] === value)));
  if (!list.length) return skipped(def, notHonoured(field, all.length));
  const findings: Finding[] = [];
  for (const { value, bodies } of list) for (const a of bodies) {
    const got = a.facts[field];
    if (got !== value) {
      findings.push({ message: `${where(a)}: ${field} is ${showFact(got)}, the checkout request gave ${JSON.stringify(value)}`, attempts: [a] });
      break;
    }
  }
  const left = all.length - list.length;
  return verdict(def, `the ${field} of the checkout request, unchanged`, findings,
    `${list.length} checkouts: every body returned the ${field} of its checkout request` +
      `${left ? ` (${left} whose target did not echo or show it left out)` : ''}`);
}

export const checkEndToEndId = (view: RunView) => returned(view, END_TO_END_ID, 'endToEndId', false);
export const checkReferenceId = (view: RunView) => returned(view, REFERENCE_ID, 'referenceId', true);

export function checkScheduledDate(view: RunView): Judged {
  const planned = asked(view, c => c.planned?.plan.request ? c.planned.plan.request.scheduledDate ?? '' : undefined, false);
  if (!planned.some(p => p.value)) return withoutRequests(view, SCHEDULED_DATE, 'no checkout request asked for a scheduled payment');
  const findings: Finding[] = [];
  for (const { value, bodies } of planned) for (const a of bodies) {
    const why = value ? missingDate(a, value) : unscheduledDate(a);
    if (why) { findings.push({ message: `${where(a)}: ${why}`, attempts: [a] }); break; }
  }
  const scheduled = planned.filter(p => p.value).length;
  return verdict(SCHEDULED_DATE, 'the scheduled date asked for on every payment of a scheduled checkout, none on an unscheduled normal one', findings,
    `${scheduled} scheduled checkouts carried their date on every payment; ${planned.length - scheduled} unscheduled ones carried none`);
}

/** Spec 2.2 and 2.3: each payment has the date, as scheduledDate or (batch) paymentScheduledDate; any spelling present holds it. */
function missingDate(a: AttemptView, date: string): string | null {
  for (const [i, p] of a.facts.payments.entries()) {
    const spellings = a.facts.kind === 'batch' ? [p.scheduledDate, p.paymentScheduledDate] : [p.scheduledDate];
    const given = spellings.filter((f): f is Fact => f !== undefined && f !== null);
    const where = a.facts.kind === 'batch' ? `payment ${i}` : 'the payment';
    if (!given.length)
      return `${where} has no ${a.facts.kind === 'batch' ? 'scheduledDate or paymentScheduledDate' : 'scheduledDate'}, ` +
        `though the checkout was scheduled for ${date}`;
    const wrong = given.find(f => f !== date);
    if (wrong !== undefined) return `${where} is scheduled for ${showFact(wrong)}, the checkout request asked for ${date}`;
  }
  return null;
}

/** "Only for scheduled payments": a normal body of an unscheduled checkout has no scheduledDate (null is absent). */
function unscheduledDate(a: AttemptView): string | null {
  if (a.facts.kind !== 'normal') return null;
  const d = a.facts.payments[0]?.scheduledDate;
  return d === undefined || d === null ? null : `scheduledDate ${showFact(d)} on a payment the checkout request did not schedule`;
}

export function checkStableFields(view: RunView): Judged {
  const findings: Finding[] = [];
  let judged = 0;
  for (const c of view.checkouts) {
    const bodies = c.attempts.filter(a => a.facts.unreadable === undefined && a.facts.kind !== 'unknown');
    if (bodies.length < 2) continue;
    judged++;
    const first = bodies[0];
    const changed = (a: AttemptView) => {
      if (!sameInstant(a.facts.createdDate, first.facts.createdDate))
        return `createdDate ${showFact(a.facts.createdDate)}, but ${showFact(first.facts.createdDate)} in attempt ${first.d.seq}`;
      if (a.facts.kind === 'older' || first.facts.kind === 'older') return null;
      for (const [i, p] of a.facts.payments.entries()) {
        const before = first.facts.payments[i]?.originalAmount;
        if (before !== undefined && !same(p.originalAmount, before))
          return `originalAmount ${showFact(p.originalAmount)}${a.facts.kind === 'batch' ? ` of payment ${i}` : ''}, ` +
            `but ${showFact(before)} in attempt ${first.d.seq}`;
      }
      return null;
    };
    for (const a of bodies.slice(1)) {
      const why = changed(a);
      if (why) { findings.push({ message: `${where(a)}: ${why}`, attempts: [first, a] }); break; }
    }
  }
  if (!judged) return skipped(STABLE, 'no checkout sent more than one readable body');
  return verdict(STABLE, 'the same createdDate and originalAmount in every body of a checkout', findings,
    `${judged} checkouts kept createdDate and originalAmount from event to event`);
}

/** Two spellings of one instant ("...T10:00:00Z", "...T10:00:00.000Z") are the same date. */
function sameInstant(a: Fact | undefined, b: Fact | undefined): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    const x = Date.parse(a), y = Date.parse(b);
    if (Number.isFinite(x) && Number.isFinite(y)) return x === y;
  }
  return same(a, b);
}

function same(a: Fact | undefined, b: Fact | undefined): boolean {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return a.described === b.described;
  return a === b;
}

const instant = (f: Fact | undefined) => typeof f === 'string' ? Date.parse(f) : NaN;

export function checkLastModified(view: RunView): Judged {
  const findings: Finding[] = [];
  let judged = 0;
  for (const c of view.checkouts) {
    // Each event's first readable body, in the checkout's event order.
    const firsts = c.events.map(e => e.attempts.find(a => a.facts.unreadable === undefined && Number.isFinite(instant(a.facts.lastModifiedDate))))
      .filter((a): a is AttemptView => a !== undefined);
    if (!firsts.length) continue;
    judged++;
    let before: AttemptView | undefined;
    for (const a of firsts) {
      const m = instant(a.facts.lastModifiedDate);
      if (modifiedBeforeCreated(a.facts.createdDate, a.facts.lastModifiedDate)) {
        findings.push({ message: `${where(a)}: lastModifiedDate ${showFact(a.facts.lastModifiedDate)} is before createdDate ${showFact(a.facts.createdDate)}`,
          attempts: [a] });
        break;
      }
      if (before && m < instant(before.facts.lastModifiedDate)) {
        findings.push({ message: `${where(a)}: lastModifiedDate ${showFact(a.facts.lastModifiedDate)} is before ` +
          `${showFact(before.facts.lastModifiedDate)} of the earlier event ${before.status ?? '(no status)'}`, attempts: [before, a] });
        break;
      }
      before = a;
    }
  }
  if (!judged) return skipped(LAST_MODIFIED, 'no body carried a lastModifiedDate that is a date');
  return verdict(LAST_MODIFIED, 'lastModifiedDate at or after createdDate, never earlier than the event before', findings,
    `${judged} checkouts: lastModifiedDate never before createdDate and never going back`);
}
