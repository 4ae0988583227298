// webhook.states: the statuses a checkout's webhooks carry, against spec 3.1 and 2.4.
import { ABORT_REASON_STATUSES, ABORT_REASONS, CHECKOUT_STATUSES, FINAL_CHECKOUT_STATUSES, POLLER_STATUSES } from '../../contracts/enums.ts';
import { PlaceLedger } from '../../results/places.ts';
import { abortReasonAllowed, sequenceFinding } from '../../contracts/rules.ts';
import type { Evidence } from '../../results/model.ts';
import { fromFindings, verdict, type Finding, withoutRequests } from './result.ts';
import { notApplicable, notRun, passed, placed, type Outcome } from '../../check/outcome.ts';
import type { CheckDef } from '../../check/def.ts';
import { counted } from '../../report/verdict.ts';
import { disorderedCheckouts } from './order.ts';
import { showFact, type Fact } from './facts.ts';
import { listed } from './result.ts';
import type { AttemptView, CheckoutView, RunView } from './view.ts';

// Spec 3.1: "STARTED: Always sent." "PAYMENT_COMPLETED, PAYMENT_FAILED,
// PAYMENT_CANCELLED and PAYMENT_NONTRACKABLE can only be reached after
// PAYMENT_INITIATED." CANCELLED, FAILED, TIMED_OUT and the PAYMENT_* poller statuses are "Final".
// Each status a driven checkout sent is a place: what follows it must be allowed
// (nothing after a final one); a broken sequence is broken at the status it left wrongly.
// PAYMENT_INITIATED is no place of this rule: spec 3.1 forbids nothing after it (the
// poller statuses it opens are allowed, and the control API delivers any other status
// after it as asked, docs/control-api.md), so no sender could break the rule there.
const SEQUENCE_PLACES = CHECKOUT_STATUSES.filter(s => s !== 'PAYMENT_INITIATED');
export const SEQUENCE: CheckDef = {
  id: 'webhook.states.sequence', requirements: ['R3.1-started-always-sent', 'R3.1-final-statuses', 'R3.1-poller-after-initiated'],
  title: 'STARTED first, poller statuses only after PAYMENT_INITIATED, nothing after a final status, after each status the rule binds', spec: '3.1',
  quote: 'PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_CANCELLED and PAYMENT_NONTRACKABLE can only be reached after PAYMENT_INITIATED.',
  bindsAt: { family: 'checkout-status', only: SEQUENCE_PLACES },
};
// Spec 2.4: abortReason "may be populated when status is TIMED_OUT, FAILED or CANCELLED".
// Each value the control API was asked for (docs/control-api.md) is a place: when a
// body carries one it must be the one asked for; a body without one is allowed ("may").
export const ABORT_REASON: CheckDef = {
  id: 'webhook.states.abort-reason', requirements: ['R2.4-abort-reason-when'],
  title: 'abortReason appears only with TIMED_OUT, FAILED or CANCELLED, and is the one the checkout was asked for', spec: '2.4',
  quote: 'May be populated when status is TIMED_OUT, FAILED or CANCELLED and the end user attempted a payment but did not finish the checkout.',
  bindsAt: { family: 'abort-reason' },
};
// Spec 2.4: abortReason "Allowed values: ..." Each value the control API was asked
// for is a place: a body that carries an abortReason there carries one of the eight
// (webhook.body.valid leaves /abortReason to this check; one fault, one check).
export const ABORT_REASON_VALUE: CheckDef = {
  id: 'webhook.states.abort-reason-value', requirements: ['R2.4-abort-reason-values'],
  title: 'An abortReason is one of the eight values of spec 2.4, at each value asked for', spec: '2.4',
  quote: 'Allowed values: INSUFFICIENT_FUNDS, LIMIT_EXCEEDED, PAYMENT_NOTAUTH, BANK_ERROR, PAYMENT_REJECTED, INSTANT_PAYMENT_ERR, ' +
    'ACCOUNT_ACCESS_DENIED, UNEXPECTED_ERROR.',
  bindsAt: { family: 'abort-reason' },
};
// Spec 3.1 (rule above) and docs/control-api.md: "a conforming target refuses
// a forbidden sequence with 400 and a reason, and delivers every accepted one".
export const FORBIDDEN: CheckDef = {
  id: 'webhook.states.forbidden-refused', requirements: ['R3.1-poller-after-initiated'],
  title: 'A status sequence that spec 3.1 forbids is refused by the control API, not delivered', spec: '3.1',
  quote: 'PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_CANCELLED and PAYMENT_NONTRACKABLE can only be reached after PAYMENT_INITIATED.',
};

/** Distinct statuses of a checkout in order of first arrival (repeats are retries or duplicates). */
function sequence(c: CheckoutView): string[] {
  const out: string[] = [];
  for (const a of c.attempts) if (a.status && CHECKOUT_STATUSES.includes(a.status) && !out.includes(a.status)) out.push(a.status);
  return out;
}

/** A broken rule of 3.1 and the status whose place it breaks. */
interface Broken { why: string; at: string }

/** The rules of 3.1 that hold whatever order the events arrived in (for checkouts webhook.order already faults). */
function unorderedFinding(statuses: string[]): Broken | null {
  if (!statuses.includes('STARTED')) return { why: 'STARTED was never sent, but it is always sent (spec 3.1)', at: 'STARTED' };
  const poller = statuses.find(s => POLLER_STATUSES.includes(s));
  if (poller && !statuses.includes('PAYMENT_INITIATED')) return { why: `${poller} was sent without any PAYMENT_INITIATED (spec 3.1)`, at: poller };
  const finals = statuses.filter(s => FINAL_CHECKOUT_STATUSES.includes(s));
  if (finals.length > 1) return { why: `two final statuses were sent: ${finals.join(' and ')} (spec 3.1: nothing follows a final status)`, at: finals[0] };
  return null;
}

/** The rules of 3.1 on the arrival order: broken at the status left wrongly (STARTED when another came first). */
function orderedFinding(statuses: string[]): Broken | null {
  const f = sequenceFinding(statuses);
  return f && { why: f.reason, at: f.index === 0 ? 'STARTED' : statuses[f.index - 1] };
}

export function checkSequence(view: RunView): Outcome {
  const judged = view.checkouts.filter(c => sequence(c).length);
  if (!judged.length) return notRun('no webhook carried a known status');
  const disordered = disorderedCheckouts(view);
  const findings: Finding[] = [];
  // A body without a readable status hides which status it carried: its checkout's
  // sequence cannot be judged, and webhook.body.valid already fails it.
  const unreadable = new Set(judged.filter(c => c.attempts.some(a => a.status === undefined && a.d.probe !== 'too-large')));
  // The places: each status a checkout driven through the control API sent (a passive sink asked for none).
  const places = new PlaceLedger('checkout-status', SEQUENCE_PLACES);
  for (const s of SEQUENCE_PLACES) places.skip(s, 'no checkout driven through the control API sent it (webhook.states.every-status-sent judges a lost one)');
  for (const c of judged) {
    if (unreadable.has(c)) continue;
    const seq = sequence(c);
    // Where events overtook each other, their arrival order is webhook.order's
    // fault; judging it again here would fail two checks for one fault.
    const broken = disordered.has(c.id) ? unorderedFinding(seq) : orderedFinding(seq);
    if (c.planned?.plan.request) for (const s of seq) places.pass(s);
    if (!broken) continue;
    if (CHECKOUT_STATUSES.includes(broken.at)) places.fail(broken.at);
    findings.push({ message: `checkout ${c.id} sent ${seq.join(' → ')}: ${broken.why}`, attempts: c.attempts });
  }
  const notes: Evidence[] = [
    ...(disordered.size ? [{ kind: 'note' as const, text: `arrival order not judged for ${listed([...disordered])}: see webhook.order` }] : []),
    ...(unreadable.size ? [{ kind: 'note' as const,
      text: `not judged, a body without a readable status: ${listed([...unreadable].map(c => c.id))} (see webhook.body.valid)` }] : []),
  ];
  const judgedOutcome = verdict('every checkout\'s statuses follow spec 3.1', findings,
    `${judged.length} checkouts, every status sequence allowed by spec 3.1`, notes);
  return drove(view) ? placed(judgedOutcome, places) : judgedOutcome;
}

/** Whether the run drove checkouts through the control API (a passive sink asked for no status, no value). */
const drove = (view: RunView) => [...view.plan.values()].some(p => p.plan.request);

/**
 * abortReason at each value asked for (the places of both 2.4 checks): `wrong`
 * says what is wrong with a value a body carried (null: nothing), `asked` the
 * value the checkout was asked for. A body without one is allowed ("may").
 */
function judgeAbortReasons(view: RunView, wrong: (sent: Fact, a: AttemptView, asked?: string) => string | null | { skip: string },
  expected: string, held: string, none: (why: string) => Outcome = notRun): Outcome {
  const places = new PlaceLedger('abort-reason', ABORT_REASONS);
  const withReason = view.all.filter(a => a.facts.abortReason !== undefined && a.facts.abortReason !== null);
  const findings: Finding[] = [];
  const planned = new Set<AttemptView>();
  for (const c of view.checkouts) {
    const asked = c.planned?.plan.request?.abortReason;
    if (asked === undefined) continue;
    for (const a of c.attempts.filter(x => x.status !== undefined && ABORT_REASON_STATUSES.includes(x.status))) {
      const sent = a.facts.abortReason;
      if (sent === undefined || sent === null) {
        places.skip(asked, `checkout ${c.id} sent ${a.status} without an abortReason (spec 2.4: "may be populated")`);
        continue;
      }
      planned.add(a);
      const why = wrong(sent, a, asked);
      if (!why) { places.pass(asked); continue; }
      if (typeof why !== 'string') { places.skip(asked, `checkout ${c.id}: ${why.skip}`); continue; }
      places.fail(asked);
      findings.push({ message: `checkout ${c.id} was asked for abortReason ${asked} and ${why}`, attempts: [a] });
    }
  }
  for (const a of withReason.filter(x => !planned.has(x))) {
    const why = wrong(a.facts.abortReason!, a);
    if (typeof why === 'string') findings.push({ message: `checkout ${a.d.checkoutId} ${why}`, attempts: [a] });
  }
  if (!withReason.length && !findings.length)
    return { ...none('no webhook carried an abortReason'), ...(drove(view) ? { places: places.tally() } : {}) };
  const judged = verdict(expected, findings, `${counted(withReason.length, 'webhook')} carried an abortReason, ${held}`);
  return drove(view) ? placed(judged, places) : judged;
}

export function checkAbortReason(view: RunView): Outcome {
  const asked = drove(view);
  return judgeAbortReasons(view, (sent, a, value) => !abortReasonAllowed(a.status, sent)
    ? `sent abortReason ${showFact(sent)} with status ${a.status ?? '(none)'}`
    // A value outside the eight is webhook.states.abort-reason-value's fault: not compared here, never passed.
    : value !== undefined && !ABORT_REASONS.includes(sent as string)
      ? { skip: `${showFact(sent)} is not a value of spec 2.4 (webhook.states.abort-reason-value)` }
    : value !== undefined && sent !== value ? `sent ${showFact(sent)} with ${a.status}` : null,
  'abortReason only with TIMED_OUT, FAILED or CANCELLED, and the one asked for', `each with an allowed status${asked ? ' and the value asked for' : ''}`);
}

export function checkAbortReasonValue(view: RunView): Outcome {
  return judgeAbortReasons(view, (sent, a) => typeof sent === 'string' && ABORT_REASONS.includes(sent) ? null
    : `sent abortReason ${showFact(sent)} with ${a.status ?? '(no status)'}, not one of the values of spec 2.4`,
  `abortReason one of ${ABORT_REASONS.join(', ')}`, 'each one of the eight values of spec 2.4',
  // A sender that populates no abortReason at all keeps the rule (spec 2.4: "may be populated"): there is no value to judge.
  why => notApplicable(`${why}: spec 2.4 says it "may be populated", so a sender that never populates it has no value to judge`));
}

export function checkForbiddenRefused(view: RunView): Outcome {
  const forbidden = [...view.plan.values()].filter(p => p.plan.forbidden && p.control);
  if (!forbidden.length) return withoutRequests(view, 'no forbidden sequence was asked for');
  const findings: Finding[] = [];
  const legal: string[] = [];
  for (const p of forbidden) {
    const asked = p.plan.request?.statuses.join(' → ') ?? '';
    const ctl = p.control!;
    if (ctl.status >= 400 && ctl.status < 500) continue;
    const c = view.checkouts.find(x => x.id === ctl.id);
    // The control API is the project's test interface: accepting the request is no fault of the
    // sender's; delivering what 3.1 forbids is. A checkout it accepted must still send STARTED (3.1).
    const sent = c ? sequence(c) : [];
    if (sent.length && !sequenceFinding(sent)) { legal.push(`${asked} (answered ${ctl.status}, delivered only ${sent.join(' → ')})`); continue; }
    findings.push({
      message: `the control API answered ${ctl.status} to ${asked}` +
        `${c ? ` and delivered ${sent.join(' → ')}` : ', though it delivered nothing, not even STARTED'}`,
      attempts: c?.attempts ?? [],
    });
  }
  if (findings.length)
    return fromFindings('a 4xx refusal with a reason (docs/control-api.md), or only a sequence spec 3.1 allows delivered', findings);
  const refused = forbidden.filter(p => p.control!.status >= 400 && p.control!.status < 500);
  return passed([
    refused.length ? `the control API refused ${refused.map(p => p.plan.request?.statuses.join(' → ')).join('; ')} ` +
      `with ${refused.map(p => `${p.control!.status}${p.control!.reason ? ` (${p.control!.reason})` : ''}`).join(', ')}` : '',
    legal.length ? `accepted ${legal.join('; ')}` : '',
  ].filter(Boolean).join('; '));
}
