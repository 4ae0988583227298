// webhook.body: every body against its variant of spec 2.2, 2.3 and 2.5.
import { checkWebhookBody } from '../../contracts/index.ts';
import { skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import type { AttemptView, RunView } from './view.ts';

// Spec 4.3: "Body: webhook body (2.2 or 2.3)." The tables of 2.2 and 2.3 give
// the fields and their types; unknown extra fields are allowed (profile.md:
// "A receiver accepts ... fields it does not know"), so they never fail.
export const VALID: CheckDef = {
  id: 'webhook.body.valid', requirements: ['R2.2-id', 'R2.2-reference-id', 'R2.2-parties', 'R2.2-status', 'R2.2-dates', 'R2.2-amount', 'R2.2-original-amount', 'R2.2-scheduled-date', 'R2.2-currency', 'R2.2-remittance-info', 'R2.2-transaction-status-values', 'R2.3-payments-array', 'R2.3-no-top-level-creditor', 'R2.3-payment-elements', 'R2.4-abort-reason-values', 'R4.3-post-json-body', 'R4.3-https', 'P-webhook-dates-iso8601'], title: 'Every webhook body is JSON and valid as a normal (2.2) or batch (2.3) body', spec: '2.2',
  quote: 'Body: webhook body (2.2 or 2.3).',
};
// Spec 2.5: "An earlier form of the body omits id, endToEndId, abortReason and
// transactionStatus ... Receivers should accept it." A sender still using it is
// behind the current form: a warning, not a failure.
export const CURRENT: CheckDef = {
  id: 'webhook.body.current-variant', requirements: ['R2.5-older-variant-superseded'], title: 'Bodies use the current form, not the older variant of 2.5', spec: '2.5',
  quote: 'An earlier form of the body omits id, endToEndId, abortReason and transactionStatus, and has payment with amount, currency, remittanceInfo only (plus creditor, debtor, referenceId, status, createdDate, lastModifiedDate). Receivers should accept it.',
};
// Spec 6.1 and 2.2: transactionStatus "once the end user has authorized";
// endToEndId "returned unchanged in the webhook body" (rules.ts, level should).
export const ADVICE: CheckDef = {
  id: 'webhook.body.advice', requirements: ['R2.2-end-to-end-id', 'R6.1-transaction-status-once-authorized'], title: 'Bodies follow the advice of spec 2.2 and 6.1 (transactionStatus once authorised, endToEndId)', spec: '6.1',
  quote: 'Its body carries the current status and, once the end user has authorized, transactionStatus.',
};
// Spec 2.2: id is the "Identifier returned when the checkout was created ...
// Used to track updates per checkout"; 2.3: a batch checkout's body has payments.
export const MATCHES: CheckDef = {
  id: 'webhook.body.matches-checkout', requirements: ['R2.2-id', 'R2.3-payments-array'], title: 'A body carries the id the control API returned and the kind of checkout asked for', spec: '2.2',
  quote: 'Identifier returned when the checkout was created through the checkout-request endpoint. Unique per checkout. Used to track updates per checkout.',
};

/** Rules another check judges (abortReason against status: webhook.states.abort-reason). */
const JUDGED_ELSEWHERE = new Set(['abort-reason.status']);

const judged = (view: RunView) => view.all.filter(a => a.d.probe !== 'too-large');
const where = (a: AttemptView) => `attempt ${a.d.seq} (checkout ${a.d.checkoutId}, ${a.status ?? 'no status'})`;

export function checkValid(view: RunView): Judged {
  const all = judged(view);
  if (!all.length) return skipped(VALID, 'no webhook body arrived');
  const findings: Finding[] = [];
  for (const a of all) {
    if (a.jsonError !== undefined) { findings.push({ message: `${where(a)}: the body is not JSON (${a.jsonError})`, attempts: [a] }); continue; }
    const { kind, violations } = checkWebhookBody(a.json);
    if (kind === 'unknown') { findings.push({ message: `${where(a)}: the body is neither a normal, a batch nor an older-variant webhook body`, attempts: [a] }); continue; }
    const must = violations.filter(v => v.level === 'must' && !JUDGED_ELSEWHERE.has(v.rule));
    if (must.length) findings.push({
      message: `${where(a)}: ${must.slice(0, 3).map(v => `${v.pointer || '/'} should be ${v.expected}, found ${v.found} (spec ${v.spec})`).join('; ')}`,
      attempts: [a],
    });
  }
  return verdict(VALID, 'JSON bodies valid against spec 2.2 or 2.3', findings, `${all.length} bodies, all valid`);
}

export function checkCurrentVariant(view: RunView): Judged {
  const all = judged(view).filter(a => a.jsonError === undefined);
  if (!all.length) return skipped(CURRENT, 'no JSON webhook body arrived');
  const older = all.filter(a => checkWebhookBody(a.json).kind === 'older');
  return verdict(CURRENT, 'the body of spec 2.2 or 2.3', older.length ? [{ message: `${older.length} of ${all.length} bodies used the older variant of spec 2.5 (first: ${where(older[0])})`, attempts: older, at: older }] : [],
    `none of ${all.length} bodies used the older variant`);
}

export function checkAdvice(view: RunView): Judged {
  const all = judged(view).filter(a => a.jsonError === undefined);
  if (!all.length) return skipped(ADVICE, 'no JSON webhook body arrived');
  const findings: Finding[] = [];
  for (const a of all) {
    const should = checkWebhookBody(a.json).violations.filter(v => v.level === 'should' && !JUDGED_ELSEWHERE.has(v.rule));
    if (should.length) findings.push({ message: `${where(a)}: ${should.slice(0, 2).map(v => `${v.pointer || '/'}: expected ${v.expected}, found ${v.found}`).join('; ')}`, attempts: [a] });
  }
  return verdict(ADVICE, 'no should-level finding in any body', findings, `${all.length} bodies follow the advice`);
}

export function checkMatches(view: RunView): Judged {
  const planned = view.checkouts.filter(c => c.planned?.control?.id && c.planned.plan.request);
  if (!planned.length) return skipped(MATCHES, 'no checkout was created through the control API, so there is no id to compare with');
  const findings: Finding[] = [];
  for (const c of planned) for (const a of c.attempts) {
    const body = a.json as { id?: unknown; payments?: unknown; payment?: unknown } | undefined;
    if (!body || typeof body !== 'object') continue;
    const kind = checkWebhookBody(body).kind;
    if (kind === 'older') continue; // the older variant has no id (2.5); webhook.body.current-variant reports it
    if (body.id !== c.id) findings.push({ message: `${where(a)}: id is ${JSON.stringify(body.id)}, the control API returned ${JSON.stringify(c.id)}`, attempts: [a] });
    const asked = c.planned!.plan.request!.kind;
    if ((asked === 'batch') !== (kind === 'batch') && kind !== 'unknown')
      findings.push({ message: `${where(a)}: a ${kind} body for a ${asked} checkout`, attempts: [a] });
  }
  return verdict(MATCHES, 'the id the control API returned, and a batch body exactly for batch checkouts', findings,
    `every body of ${planned.length} checkouts carried its checkout's id and kind`);
}
