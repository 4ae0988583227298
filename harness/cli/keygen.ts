// `pis-conformance keygen`: a key pair to sign certificates with (attest,
// run --attest) and to verify them (verify, matrix, cosign, openssl).
import { existsSync, writeFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { generateKeys, KEY_TYPES, type KeyType } from '../attest/keys.ts';
import { parseFlags, type Command } from './command.ts';

const help = `Usage: pis-conformance keygen [--type ed25519|ecdsa-p256] [--out PREFIX]

Writes a new key pair in PEM: PREFIX.key, the private key (PKCS#8, readable by
you only), and PREFIX.pub, the public key (SPKI) to hand to whoever verifies.
openssl makes the same keys:
  openssl genpkey -algorithm ed25519 -out PREFIX.key
  openssl pkey -in PREFIX.key -pubout -out PREFIX.pub

Options:
  --type T      ed25519 (default) or ecdsa-p256 (ECDSA on NIST P-256 with SHA-256)
  --out PREFIX  where to write the two files (default pis-attest); existing files are not overwritten

Exit status 0 when written, 2 when not.`;

export const command: Command = {
  name: 'keygen',
  help,
  async run(argv) {
    const parsed = parseFlags('keygen', help, argv, { type: { type: 'string' }, out: { type: 'string' } });
    if (!parsed) return 0;
    const type = (parsed.values.type ?? 'ed25519') as KeyType;
    if (!KEY_TYPES.includes(type)) throw new HarnessError('PIS_BAD_FLAG', `--type ${type} is not a key type: use ${KEY_TYPES.join(' or ')}.`);
    const prefix = parsed.values.out ?? 'pis-attest';
    // Neither file is written when either exists: a new private key beside an old public one would sign what nobody can verify.
    for (const file of [`${prefix}.key`, `${prefix}.pub`])
      if (existsSync(file)) throw new HarnessError('PIS_BAD_FLAG', `${file} exists already: give --out another prefix, or move the old key away first.`);
    const { privatePem, publicPem } = generateKeys(type);
    for (const [file, text, mode] of [[`${prefix}.key`, privatePem, 0o600], [`${prefix}.pub`, publicPem, 0o644]] as const) {
      try { writeFileSync(file, text, { mode, flag: 'wx' }); } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new HarnessError('PIS_BAD_FLAG', code === 'EEXIST' ? `${file} exists already: give --out another prefix, or move the old key away first.`
          : `${file} cannot be written (${code ?? (e as Error).message}): give --out a prefix in a folder you can write to.`);
      }
    }
    process.stdout.write(`wrote ${prefix}.key (${type} private key: keep it secret) and ${prefix}.pub (public key: give it to verifiers)\n`);
    return 0;
  },
};
