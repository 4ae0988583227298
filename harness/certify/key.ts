// The api-key a receiver was registered with. Spec 5.4: "The key may have any
// format", so any length and alphabet is sent; only what no HTTP header can
// carry is refused (line breaks, control characters, spaces at either end).
// A short key is sent too; the redactor warns about it (shortSecretWarning).
import { HarnessError } from '../errors.ts';

/**
 * The key as a header value. A key beyond ASCII goes out as its UTF-8 bytes
 * (HTTP carries bytes; a Node header string carries one byte per character),
 * so a receiver that compares the header's bytes with its UTF-8 key matches.
 */
export function headerValue(key: string): string {
  return /^[\x20-\x7e\t]*$/.test(key) ? key : Buffer.from(key, 'utf8').toString('latin1');
}

/** Throws a harness error when the key cannot be sent; returns a note for a key beyond ASCII. */
export function checkKey(key: string): string | undefined {
  if (/[\x00-\x08\x0a-\x1f\x7f]/.test(key) || key.trim() !== key)
    throw new HarnessError('PIS_BAD_FLAG',
      'The api-key has characters an HTTP header cannot carry (line breaks, control characters, or spaces at either end): check --api-key.');
  return /^[\x20-\x7e]*$/.test(key) ? undefined
    : 'the api-key has characters beyond ASCII: it is sent as its UTF-8 bytes, so the receiver compares the header\'s bytes with its key\'s UTF-8 bytes';
}
