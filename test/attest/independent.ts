// A DSSE and in-toto check written from the specs alone, sharing no code with
// harness/attest: the pre-authentication encoding rebuilt here, the signature
// checked by the openssl command line, the subjects by node:crypto's SHA-256.
// The attest tests hold our envelopes to it, so a bug our own verify shares
// with our signer cannot hide.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Env { payloadType: string; payload: string; signatures: { keyid?: string; sig: string }[] }

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body (github.com/secure-systems-lab/dsse, its protocol page). */
function preAuth(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from('DSSEv1 ' + Buffer.from(type).length + ' ' + type + ' ' + body.length + ' '), body]);
}

/** Whether openssl verifies a signature of the envelope with the PEM public key (Ed25519: pkeyutl -rawin; ECDSA: dgst -sha256). */
export function opensslAccepts(envelopeText: string, publicKeyPem: string): boolean {
  let env: Env;
  try { env = JSON.parse(envelopeText) as Env; } catch { return false; }
  if (env.payloadType !== 'application/vnd.in-toto+json') return false;
  const dir = mkdtempSync(join(tmpdir(), 'pis-dsse-'));
  try {
    const pub = join(dir, 'pub.pem'), data = join(dir, 'pae.bin'), sig = join(dir, 'sig.bin');
    writeFileSync(pub, publicKeyPem);
    writeFileSync(data, preAuth(env.payloadType, Buffer.from(env.payload, 'base64')));
    const ed = /ED25519/i.test(execFileSync('openssl', ['pkey', '-pubin', '-in', pub, '-noout', '-text'], { encoding: 'utf8' }));
    return env.signatures.some(s => {
      writeFileSync(sig, Buffer.from(s.sig, 'base64'));
      const args = ed ? ['pkeyutl', '-verify', '-pubin', '-inkey', pub, '-rawin', '-in', data, '-sigfile', sig]
        : ['dgst', '-sha256', '-verify', pub, '-signature', sig, data];
      try { execFileSync('openssl', args, { stdio: 'pipe' }); return true; } catch { return false; }
    });
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

/** The statement of an envelope, read as in-toto Statement v1 defines it. */
export function statementOf(envelopeText: string): { _type: string; predicateType: string; subject: { name: string; digest: { sha256: string } }[];
  predicate: { result: string; passedTests: string[]; warnedTests: string[]; failedTests: string[]; [k: string]: unknown } } {
  return JSON.parse(Buffer.from((JSON.parse(envelopeText) as Env).payload, 'base64').toString('utf8'));
}

/** Every subject's SHA-256 against the file of that name in `dir`, and nothing missing. */
export function subjectsMatch(envelopeText: string, dir: string): boolean {
  return statementOf(envelopeText).subject.every(s => {
    try { return createHash('sha256').update(readFileSync(join(dir, s.name))).digest('hex') === s.digest.sha256; } catch { return false; }
  });
}

/** The envelope with one byte of its payload (the statement) or of its first signature flipped. */
export function flipped(envelopeText: string, part: 'payload' | 'sig', at: number): string {
  const env = JSON.parse(envelopeText) as Env;
  const bytes = Buffer.from(part === 'payload' ? env.payload : env.signatures[0]!.sig, 'base64');
  bytes[at % bytes.length] ^= 0x01;
  if (part === 'payload') env.payload = bytes.toString('base64');
  else env.signatures[0]!.sig = bytes.toString('base64');
  return JSON.stringify(env);
}
