// DSSE envelopes (github.com/secure-systems-lab/dsse, its protocol page): the
// signature is over the pre-authentication encoding
//   PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
// (LEN: the byte length in ASCII decimal), never over the JSON of the envelope,
// so the envelope's whitespace and the payload's base64 are not signed and
// cannot be used to smuggle another reading of the payload.
import type { KeyObject } from 'node:crypto';
import { keyId, signBytes, verifyBytes } from './keys.ts';

/** The payload type of an in-toto Statement in DSSE. */
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface Envelope {
  payloadType: string;
  /** The statement's bytes, base64. */
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

export function pae(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);
}

export function signEnvelope(payload: Buffer, key: KeyObject, payloadType = PAYLOAD_TYPE): Envelope {
  const sig = signBytes(key, pae(payloadType, payload));
  return { payloadType, payload: payload.toString('base64'), signatures: [{ keyid: keyId(key), sig: sig.toString('base64') }] };
}

/**
 * Base64 (standard or URL-safe, as DSSE allows) decoded only when it is the
 * one canonical spelling of its bytes: Buffer.from() skips characters it does
 * not know, so a changed byte could otherwise decode to the same bytes.
 */
export function strictBase64(s: unknown): Buffer | undefined {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(s)) return undefined;
  const std = s.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Buffer.from(std, 'base64');
  const again = bytes.toString('base64');
  return again === std || again.replace(/=+$/, '') === std ? bytes : undefined;
}

/** The envelope's shape, or the sentence that says what is wrong with it. */
export function envelopeProblem(e: unknown): string | undefined {
  if (!e || typeof e !== 'object' || Array.isArray(e)) return 'it is not a JSON object';
  const env = e as Partial<Envelope>;
  if (typeof env.payloadType !== 'string') return 'it has no payloadType';
  if (strictBase64(env.payload) === undefined) return 'its payload is not base64';
  if (!Array.isArray(env.signatures) || !env.signatures.length) return 'it has no signatures';
  if (env.signatures.some(s => !s || typeof s !== 'object' || strictBase64(s.sig) === undefined)) return 'a signature is not base64';
  return undefined;
}

/**
 * The payload when one of the envelope's signatures verifies with one of the
 * keys; undefined when none does. The envelope must have passed envelopeProblem().
 */
export function verifiedPayload(env: Envelope, keys: readonly KeyObject[]): Buffer | undefined {
  const payload = strictBase64(env.payload)!;
  const signed = pae(env.payloadType, payload);
  for (const s of env.signatures)
    for (const k of keys) if (verifyBytes(k, signed, strictBase64(s.sig)!)) return payload;
  return undefined;
}
