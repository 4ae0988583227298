// Tells what an item is: a normal, batch or older-variant webhook body, a token
// response or a token error. Classification is by the fields present, and is
// generous on purpose: a broken webhook body must still be judged as a webhook
// body (and get its violations), not turned away as "unknown".
export type WebhookKind = 'normal' | 'batch' | 'older';
export type ItemKind = WebhookKind | 'token-response' | 'token-error';

const WEBHOOK_KEYS = ['id', 'referenceId', 'payment', 'payments', 'creditor', 'debtor', 'status',
  'createdDate', 'lastModifiedDate', 'abortReason', 'endToEndId'];
const TOKEN_KEYS = ['access_token', 'refresh_token', 'token_type', 'expires_in', 'refresh_expires_in', 'session_state'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const given = (v: unknown) => v !== undefined && v !== null;

/**
 * Spec 2.5: the older variant omits id, endToEndId, abortReason and
 * transactionStatus and its payment has amount, currency and remittanceInfo
 * only. A body with any of those (an `id` key even when null, the others with
 * a value) is a normal body, so a normal body that lost its id is judged as a
 * normal body missing its id, not as a valid older one.
 */
function hasNormalMarkers(body: Record<string, unknown>): boolean {
  if ('id' in body || given(body.endToEndId) || given(body.abortReason)) return true;
  const p = body.payment;
  return isObject(p) && (given(p.originalAmount) || given(p.transactionStatus) || given(p.scheduledDate) || given(p.cardPaymentId));
}

/** The kind of webhook body, or 'unknown' when the item has none of a webhook body's fields. */
export function classifyWebhook(body: unknown): WebhookKind | 'unknown' {
  if (!isObject(body)) return 'unknown';
  // A null `payments` (a sender serialising one type for both kinds) does not make a batch body.
  if ('payments' in body && body.payments !== null) return 'batch';
  // One shared name (a record's `id` or `status`) is not enough to call an item a webhook body.
  if (!('payment' in body) && WEBHOOK_KEYS.filter(k => k in body).length < 2) return 'unknown';
  if (hasNormalMarkers(body)) return 'normal';
  return 'payment' in body ? 'older' : 'normal';
}

/** What an input item of `validate` is, or 'unknown' when it has no field of any kind. */
export function classifyItem(item: unknown): ItemKind | 'unknown' {
  if (!isObject(item)) return 'unknown';
  const webhook = classifyWebhook(item) === 'unknown' ? 0 : WEBHOOK_KEYS.filter(k => k in item).length;
  const token = TOKEN_KEYS.filter(k => k in item).length;
  // RFC 6749 5.2: an error answer has `error`; one that also leaks a token is still an error answer.
  const tokenError = 'error' in item && !('token_type' in item) && !('expires_in' in item);
  if (webhook === 0 && token === 0) return tokenError ? 'token-error' : 'unknown';
  if (token > webhook) return tokenError ? 'token-error' : 'token-response';
  return classifyWebhook(item);
}
