// Reads the control API's checkout request (docs/control-api.md) into a
// typed value, or the reason it is refused with 400. Forbidden status sequences
// are judged by the contracts' one reading of spec 3.1 (sequenceFinding).
import { ABORT_REASONS, ABORT_REASON_STATUSES } from '../../contracts/enums.ts';
import { validateContract } from '../../contracts/index.ts';
import { isCalendarDate, sequenceFinding } from '../../contracts/rules.ts';
import type { ControlCheckoutRequest } from '../../contracts/types.ts';
import type { WebhookTarget } from './types.ts';

/** A checkout request as the reference understood it: the contract's, with the webhook resolved. */
export interface CheckoutRequest extends Omit<ControlCheckoutRequest, 'webhook'> {
  webhook: WebhookTarget;
}

export type Refusal = { error: 'invalid-request' | 'forbidden-sequence' | 'no-webhook'; reason: string; spec?: string; rule?: string };

/** Arbitrary cap that keeps one request from building a huge body; the spec names no batch size. */
const MAX_BATCH_PAYMENTS = 100;
/** Arbitrary cap on statuses per checkout (spec 3.1 has ten statuses; repeats are allowed as duplicates). */
const MAX_STATUSES = 50;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function webhookTarget(v: unknown, fallback: WebhookTarget | undefined): WebhookTarget | Refusal {
  if (v === undefined) return fallback ?? { error: 'no-webhook',
    reason: 'the request names no "webhook" and no organisation webhook is configured: add "webhook": {"url", "apiKey"}' };
  if (!isObject(v) || typeof v.url !== 'string' || typeof v.apiKey !== 'string' || !v.apiKey)
    return { error: 'invalid-request',
      reason: '"webhook" must be an object with a "url" string and a non-empty "apiKey" string (spec 5.4: the key is mandatory)' };
  // Spec 4.3 and 5.4: the URL is registered "without the https:// part" and called over HTTPS.
  const given = /^[a-z][a-z0-9+.-]*:\/\//i.test(v.url) ? v.url : `https://${v.url}`;
  let url: URL;
  try { url = new URL(given); } catch { return { error: 'invalid-request', reason: `"webhook.url" ${JSON.stringify(v.url)} is not an absolute URL` }; }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: 'invalid-request', reason: `"webhook.url" must be http or https, not ${url.protocol}` };
  return { url: url.href, apiKey: v.apiKey };
}

/**
 * The checkout request, or why it is refused. `allowForbiddenSequences` is the
 * `webhook-forbidden-sequence` fault: it lets the ordering rules of 3.1 pass,
 * while unknown statuses are still refused (the fault names only the order).
 */
export function parseCheckoutRequest(body: unknown, opts: { defaultWebhook?: WebhookTarget; allowForbiddenSequences?: boolean }): CheckoutRequest | Refusal {
  if (!isObject(body)) return { error: 'invalid-request', reason: 'the body must be a JSON object' };
  // The contract first (contracts/control-request.yaml), so the reason names its pointer; the
  // checks below add what it leaves open (the mandatory api-key, batch-only payments, 2.4, 3.1).
  const violation = validateContract('control-request', body).find(v => v.level === 'must');
  if (violation)
    return { error: 'invalid-request', spec: violation.spec,
      reason: `${violation.pointer || 'the body'}: expected ${violation.expected}, found ${violation.found}` };
  const kind = body.kind;
  if (kind !== 'normal' && kind !== 'batch') return { error: 'invalid-request', reason: `"kind" must be "normal" or "batch", not ${JSON.stringify(kind)}` };
  const payments = body.payments ?? 2;
  if (!Number.isInteger(payments) || (payments as number) < 1 || (payments as number) > MAX_BATCH_PAYMENTS)
    return { error: 'invalid-request', reason: `"payments" must be an integer from 1 to ${MAX_BATCH_PAYMENTS}` };
  const statuses = body.statuses;
  if (!Array.isArray(statuses) || !statuses.every(s => typeof s === 'string') || !statuses.length || statuses.length > MAX_STATUSES)
    return { error: 'invalid-request', reason: `"statuses" must be an array of 1 to ${MAX_STATUSES} CheckoutStatus strings, starting with STARTED (spec 3.1)` };
  const finding = sequenceFinding(statuses);
  if (finding && !(opts.allowForbiddenSequences && finding.rule.id !== 'sequence.known-statuses'))
    return { error: 'forbidden-sequence', reason: finding.reason, spec: finding.rule.spec, rule: finding.rule.id };
  const { abortReason, scheduledDate, referenceId, endToEndId, sca } = body;
  if (sca !== undefined && typeof sca !== 'boolean') return { error: 'invalid-request', reason: '"sca" must be true or false' };
  if (abortReason !== undefined) {
    if (typeof abortReason !== 'string' || !ABORT_REASONS.includes(abortReason))
      return { error: 'invalid-request', reason: `"abortReason" must be one of ${ABORT_REASONS.join(', ')} (spec 2.4)` };
    const last = statuses[statuses.length - 1];
    if (!ABORT_REASON_STATUSES.includes(last))
      return { error: 'invalid-request', spec: '2.4',
        reason: `"abortReason" goes with a final ${ABORT_REASON_STATUSES.join(', ')} (spec 2.4), but the last status is ${last}` };
  }
  if (scheduledDate !== undefined && (typeof scheduledDate !== 'string' || !isCalendarDate(scheduledDate)))
    return { error: 'invalid-request', reason: '"scheduledDate" must be a calendar date YYYY-MM-DD (spec 2.2)' };
  for (const [name, v] of Object.entries({ referenceId, endToEndId }))
    if (v !== undefined && (typeof v !== 'string' || !v)) return { error: 'invalid-request', reason: `"${name}" must be a non-empty string` };
  const webhook = webhookTarget(body.webhook, opts.defaultWebhook);
  if ('error' in webhook) return webhook;
  return {
    kind, statuses: statuses as string[], webhook,
    // docs/control-api.md says "batch only": on a normal checkout it is ignored, not refused.
    ...(kind === 'batch' ? { payments: payments as number } : {}),
    ...(abortReason !== undefined ? { abortReason: abortReason as string } : {}),
    ...(scheduledDate !== undefined ? { scheduledDate: scheduledDate as string } : {}),
    ...(sca === true ? { sca: true } : {}),
    ...(referenceId !== undefined ? { referenceId: referenceId as string } : {}),
    ...(endToEndId !== undefined ? { endToEndId: endToEndId as string } : {}),
  };
}
