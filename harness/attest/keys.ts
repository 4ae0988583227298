// Signing keys of the attestations: Ed25519 or ECDSA P-256, in PEM, read and
// made with node:crypto only. These are the two key types cosign and openssl
// verify DSSE signatures with; an Ed25519 signature is over the bytes
// themselves, an ECDSA one over their SHA-256, DER-encoded (as cosign writes it).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';

export const KEY_TYPES = ['ed25519', 'ecdsa-p256'] as const;
export type KeyType = typeof KEY_TYPES[number];

/** A new key pair as PEM: PKCS#8 private key, SPKI public key. */
export function generateKeys(type: KeyType): { privatePem: string; publicPem: string } {
  const pair = type === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }) as string,
  };
}

function keyTypeOf(k: KeyObject): KeyType | undefined {
  if (k.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (k.asymmetricKeyType === 'ec' && k.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-p256';
  return undefined;
}

function readPem(file: string, what: string): string {
  try { return readFileSync(file, 'utf8'); } catch (e) {
    throw new HarnessError('PIS_BAD_KEY', `The ${what} ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ` +
      "give a PEM file, e.g. one 'pis-conformance keygen' writes.");
  }
}

function supported(k: KeyObject, file: string, what: string): KeyObject {
  if (keyTypeOf(k)) return k;
  const curve = k.asymmetricKeyDetails?.namedCurve;
  throw new HarnessError('PIS_BAD_KEY', `The ${what} ${file} is ${k.asymmetricKeyType}${curve ? ` on ${curve}` : ''}: ` +
    "give an Ed25519 or ECDSA P-256 key ('pis-conformance keygen' makes one).");
}

/** The private key of a PEM file (PKCS#8, or SEC1 for EC). */
export function readPrivateKey(file: string): KeyObject {
  const pem = readPem(file, 'signing key');
  let k: KeyObject;
  try { k = createPrivateKey(pem); } catch (e) {
    throw new HarnessError('PIS_BAD_KEY', `The signing key ${file} is not an unencrypted PEM private key (${(e as Error).message}): ` +
      "give the .key file 'pis-conformance keygen' writes.");
  }
  return supported(k, file, 'signing key');
}

/** The public key of a PEM file: a public key, or the public half of a private one. */
export function readPublicKey(file: string): KeyObject {
  const pem = readPem(file, 'public key');
  let k: KeyObject;
  try { k = createPublicKey(pem); } catch (e) {
    throw new HarnessError('PIS_BAD_KEY', `The public key ${file} is not a PEM public key (${(e as Error).message}): ` +
      "give the .pub file 'pis-conformance keygen' writes.");
  }
  return supported(k, file, 'public key');
}

/** The key id of a DSSE signature: the SHA-256 of the public key's SPKI DER, in hex. */
export function keyId(k: KeyObject): string {
  const pub = k.type === 'private' ? createPublicKey(k) : k;
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('hex');
}

export function signBytes(key: KeyObject, data: Buffer): Buffer {
  return sign(keyTypeOf(key) === 'ed25519' ? null : 'sha256', data, key);
}

export function verifyBytes(key: KeyObject, data: Buffer, sig: Buffer): boolean {
  try { return verify(keyTypeOf(key) === 'ed25519' ? null : 'sha256', data, key, sig); } catch { return false; }
}
