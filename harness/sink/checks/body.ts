// webhook.body: every body against its variant of spec 2.2, 2.3 and 2.5.
import { verdict, type Finding, withoutRequests } from './result.ts';
import { notRun, type Outcome } from '../../check/outcome.ts';
import type { CheckDef } from '../../check/def.ts';
import { showFact } from './facts.ts';
import type { AttemptView, RunView } from './view.ts';
import { isIsoDateTime } from '../../contracts/rules.ts';

// Spec 4.3: "Body: webhook body (2.2 or 2.3)." The tables of 2.2 and 2.3 give
// the fields and their types; unknown extra fields are allowed (docs/profile.md:
// "A receiver accepts ... fields it does not know"), so they never fail.
export const VALID: CheckDef = {
  id: 'webhook.body.valid', requirements: ['R2.2-id', 'R2.2-reference-id', 'R2.2-parties', 'R2.2-status', 'R2.2-dates', 'R2.2-amount',
    'R2.2-original-amount', 'R2.2-scheduled-date', 'R2.2-currency', 'R2.2-remittance-info', 'R2.2-transaction-status-values', 'R2.3-payments-array',
    'R2.3-no-top-level-creditor', 'R2.3-payment-elements', 'R4.3-post-json-body', 'R4.3-https', 'P-webhook-dates-iso8601'],
  title: 'Every webhook body is JSON and valid as a normal (2.2) or batch (2.3) body', spec: '2.2',
  quote: 'Body: webhook body (2.2 or 2.3).',
};
// Spec 2.5: "An earlier form of the body omits id, endToEndId, abortReason and
// transactionStatus ... Receivers should accept it." A sender still using it is
// behind the current form: a warning, not a failure.
export const CURRENT: CheckDef = {
  id: 'webhook.body.current-variant', requirements: ['R2.5-older-variant-superseded'],
  title: 'Bodies use the current form, not the older variant of 2.5', spec: '2.5',
  quote: 'An earlier form of the body omits id, endToEndId, abortReason and transactionStatus, ' +
    'and has payment with amount, currency, remittanceInfo only (plus creditor, debtor, referenceId, status, createdDate, lastModifiedDate). ' +
    'Receivers should accept it.',
};
// Spec 2.2: endToEndId "returned unchanged in the webhook body": in every body
// even where the check has no request to compare with (rules.ts, level should).
// transactionStatus once authorised is webhook.body.transaction-status's (must).
export const ADVICE: CheckDef = {
  id: 'webhook.body.advice', requirements: ['R2.2-end-to-end-id'], title: 'Bodies follow the advice of spec 2.2 (an endToEndId in every body)', spec: '2.2',
  quote: 'endToEndId | string | Sent in the initial checkout request and returned unchanged in the webhook body.',
};
// docs/profile.md: "Dates are ISO 8601 strings." Spec 2.2 types createdDate and
// lastModifiedDate "string" only; the profile's reading is the rule date.iso-8601
// (rules.ts), which `validate` judges bodies by too. Its level is the rule's.
export const DATES: CheckDef = {
  id: 'webhook.body.dates-iso8601', requirements: ['P-webhook-dates-iso8601'],
  title: 'Every body\'s createdDate and lastModifiedDate are ISO 8601 dates', spec: '2.2',
  quote: 'docs/profile.md: Dates are ISO 8601 strings (spec 2.2: createdDate | string; lastModifiedDate | string).',
};
// Spec 4.3: "Method: POST to the URL that the customer registered."
export const METHOD: CheckDef = {
  id: 'webhook.body.method-post', requirements: ['R4.3-post-json-body'], title: 'Every attempt is a POST', spec: '4.3',
  quote: 'Method: POST to the URL that the customer registered.',
};
// Spec 2.2: id is the "Identifier returned when the checkout was created ...
// Used to track updates per checkout"; 2.3: a batch checkout's body has payments.
export const MATCHES: CheckDef = {
  id: 'webhook.body.matches-checkout', requirements: ['R2.2-id', 'R2.3-payments-array'],
  title: 'A body carries the id the control API returned and the kind of checkout asked for', spec: '2.2',
  quote: 'Identifier returned when the checkout was created through the checkout-request endpoint. Unique per checkout. Used to track updates per checkout.',
};

/**
 * Rules other checks judge: abortReason against status (webhook.states.abort-reason),
 * transactionStatus once authorised (webhook.body.transaction-status), the older
 * variant (webhook.body.current-variant), lastModifiedDate before createdDate
 * (webhook.body.last-modified-forward); the value of abortReason (webhook.states.abort-reason-value, by ABORT_REASON_POINTER).
 */
const JUDGED_ELSEWHERE = new Set(['abort-reason.status', 'transaction-status.once-authorised', 'variant.older', 'date.last-modified-after-created']);
const ABORT_REASON_POINTER = '/abortReason';

/** Bodies the sink could judge: not cut off by the sink itself for being too large. */
const judged = (view: RunView) => view.all.filter(a => a.d.probe !== 'too-large');
/** Bodies that were JSON. */
export const readable = (view: RunView) => judged(view).filter(a => a.facts.unreadable === undefined);
export const where = (a: AttemptView) => `attempt ${a.d.seq} (checkout ${a.d.checkoutId}, ${a.status ?? 'no status'})`;

export function checkValid(view: RunView): Outcome {
  const all = judged(view);
  if (!all.length) return notRun('no webhook body arrived');
  const findings: Finding[] = [];
  for (const a of all) {
    const f = a.facts;
    if (f.unreadable !== undefined) { findings.push({ message: `${where(a)}: ${f.unreadable}`, attempts: [a] }); continue; }
    if (f.kind === 'unknown') {
      findings.push({ message: `${where(a)}: the body is neither a normal, a batch nor an older-variant webhook body`, attempts: [a] });
      continue;
    }
    const must = f.violations.filter(v => v.level === 'must' && !JUDGED_ELSEWHERE.has(v.rule) && v.pointer !== ABORT_REASON_POINTER);
    if (must.length) findings.push({
      message: `${where(a)}: ${must.slice(0, 3).map(v => `${v.pointer || '/'} should be ${v.expected}, found ${v.found} (spec ${v.spec})`).join('; ')}`,
      attempts: [a],
    });
  }
  return verdict('JSON bodies valid against spec 2.2 or 2.3', findings, `${all.length} bodies, all valid`);
}

export function checkCurrentVariant(view: RunView): Outcome {
  const all = readable(view);
  if (!all.length) return notRun('no JSON webhook body arrived');
  const older = all.filter(a => a.facts.kind === 'older');
  return verdict('the body of spec 2.2 or 2.3', older.length ? [{
    message: `${older.length} of ${all.length} bodies used the older variant of spec 2.5 (first: ${where(older[0])})`,
    attempts: older, at: older,
  }] : [],
    `none of ${all.length} bodies used the older variant`);
}

export function checkAdvice(view: RunView): Outcome {
  const all = readable(view);
  if (!all.length) return notRun('no JSON webhook body arrived');
  const findings: Finding[] = [];
  for (const a of all) {
    const should = a.facts.violations.filter(v => v.level === 'should' && !JUDGED_ELSEWHERE.has(v.rule));
    if (should.length) findings.push({
      message: `${where(a)}: ${should.slice(0, 2).map(v => `${v.pointer || '/'}: expected ${v.expected}, found ${v.found}`).join('; ')}`,
      attempts: [a],
    });
  }
  return verdict('no should-level finding in any body', findings, `${all.length} bodies follow the advice`);
}

/**
 * Every date of every webhook body (createdDate and lastModifiedDate of each variant), as rule date.iso-8601 judges it
 * for `validate`; read from the body's facts, not from its violations, which keep only the first few. A date that is
 * not a string is webhook.body.valid's.
 */
export function checkDates(view: RunView): Outcome {
  const all = readable(view).filter(a => a.facts.kind !== 'unknown');
  if (!all.length) return notRun('no webhook body arrived that is JSON of a known variant');
  const findings: Finding[] = [];
  let dates = 0;
  for (const a of all) {
    const bad: string[] = [];
    for (const k of ['createdDate', 'lastModifiedDate'] as const) {
      const v = a.facts[k];
      if (typeof v !== 'string') continue;
      dates++;
      if (!isIsoDateTime(v)) bad.push(`${k} ${JSON.stringify(v)}`);
    }
    if (bad.length) findings.push({ message: `${where(a)}: ${bad.join(', ')}, not an ISO 8601 date`, attempts: [a] });
  }
  return verdict('createdDate and lastModifiedDate ISO 8601 in every body', findings, `${dates} dates in ${all.length} bodies, all ISO 8601`);
}

export function checkMatches(view: RunView): Outcome {
  const planned = view.checkouts.filter(c => c.planned?.control?.id && c.planned.plan.request);
  if (!planned.length) return withoutRequests(view, 'no checkout was created through the control API, so there is no id to compare with');
  const findings: Finding[] = [];
  // Spec 2.2: "Unique per checkout": the control API's ids of different checkouts differ.
  const byControlId = new Map<string, string>();
  for (const p of view.plan.values()) {
    const id = p.control?.id;
    if (id === undefined || p.control!.status >= 300) continue;
    const other = byControlId.get(id);
    if (other !== undefined) findings.push({
      message: `the control API returned the id ${JSON.stringify(id)} for both checkout '${other}' and '${p.plan.name}'`,
      attempts: view.byId.get(id)?.attempts.slice(0, 2) ?? [],
    });
    byControlId.set(id, p.plan.name);
  }
  for (const c of planned) for (const a of c.attempts) {
    const f = a.facts;
    if (f.unreadable !== undefined || f.kind === 'unknown') continue; // webhook.body.valid judges it
    if (f.kind === 'older') continue; // the older variant has no id (2.5); webhook.body.current-variant reports it
    if (f.id !== c.id) findings.push({ message: `${where(a)}: id is ${showFact(f.id)}, the control API returned ${JSON.stringify(c.id)}`, attempts: [a] });
    const asked = c.planned!.plan.request!;
    if ((asked.kind === 'batch') !== (f.kind === 'batch'))
      findings.push({ message: `${where(a)}: a ${f.kind} body for a ${asked.kind} checkout`, attempts: [a] });
    else if (asked.kind === 'batch' && asked.payments !== undefined && f.paymentCount !== asked.payments)
      findings.push({ message: `${where(a)}: ${f.paymentCount} payments for a batch checkout of ${asked.payments}`, attempts: [a] });
  }
  return verdict('the id the control API returned, a batch body with as many payments as asked for exactly for batch checkouts', findings,
    `every body of ${planned.length} checkouts carried its checkout's id and kind`);
}

export function checkMethod(view: RunView): Outcome {
  if (!view.all.length) return notRun('no delivery attempt arrived');
  const other = view.all.filter(a => a.d.method !== undefined && a.d.method !== 'POST');
  return verdict('POST', other.length ? [{
    message: `${other.length} of ${view.all.length} attempts were not a POST (first: ${where(other[0])}, ${other[0].d.method})`,
    attempts: other,
  }] : [],
    `all ${view.all.length} attempts were POSTs`);
}
