// Webhook api-keys of many shapes. Spec 5.4: "The key may have any format." When
// the harness registers the webhooks itself (no --webhook-api-key), each
// checkout gets a key of another shape, so a sender that trims, re-encodes or
// truncates keys, or accepts only hex, shows it on the checkouts whose key it broke.
import { randomBytes, randomUUID } from 'node:crypto';

/**
 * One key per shape, fresh for each run. Every character is one an HTTP header
 * value may carry (visible ASCII and inner spaces, RFC 9110 field-value); none
 * has a leading or trailing space, which a header cannot keep.
 */
export function webhookKeys(): string[] {
  const b64 = randomBytes(30).toString('base64');
  return [
    `pis-${randomBytes(12).toString('hex')}`,
    // Base64 with all three of its non-alphanumeric characters.
    `${b64.slice(0, 10)}+${b64.slice(10, 20)}/${b64.slice(20)}==`,
    randomUUID(),
    // Long: 512 characters.
    randomBytes(384).toString('base64').replace(/[+/=]/g, 'x'),
    // Punctuation, quotes, a backslash and inner spaces.
    `k!#$%&'*+-.^_\`|~ "q" \\ (p) [b] {c} <t> ;:,?@= ${randomBytes(6).toString('hex')}`,
  ];
}

/** The forms a key takes in text the redactor reads: itself, and inside a JSON string. */
export function keyForms(key: string): string[] {
  const json = JSON.stringify(key).slice(1, -1);
  return json === key ? [key] : [key, json];
}
