// `pis-conformance keygen`: a key pair to sign certificates with (attest,
// run --attest) and to verify them (verify, matrix, cosign, openssl).
import { existsSync, writeFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { generateKeys, KEY_TYPES, type KeyType } from '../attest/keys.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseOptions, type CommandOption } from './option-table.ts';

function keyType(text: string): KeyType {
  if (!(KEY_TYPES as readonly string[]).includes(text))
    throw new HarnessError('PIS_BAD_FLAG', `--type ${text} is not a key type: use ${KEY_TYPES.join(' or ')}.`);
  return text as KeyType;
}

/** Every option of keygen: its flags, --help rows and docs/options.md come from here. */
const OPTIONS = [
  { name: 'type', kind: 'value', arg: 'T', default: 'ed25519', read: keyType,
    help: `${KEY_TYPES.join(' or ')} (ECDSA on NIST P-256 with SHA-256)` },
  { name: 'out', kind: 'value', arg: 'PREFIX', default: 'pis-attest', help: 'where to write the two files; existing files are not overwritten' },
] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance keygen [--type ed25519|ecdsa-p256] [--out PREFIX]

Writes a new key pair in PEM: PREFIX.key, the private key (PKCS#8, readable by
you only), and PREFIX.pub, the public key (SPKI) to hand to whoever verifies.
openssl makes the same keys:
  openssl genpkey -algorithm ed25519 -out PREFIX.key
  openssl pkey -in PREFIX.key -pubout -out PREFIX.pub

Options:
${optionsHelp(OPTIONS)}

Exit status 0 when written, 2 when not.`;

export const command: Command = {
  name: 'keygen',
  help,
  options: OPTIONS,
  async run(argv) {
    const v = parseOptions('keygen', help, argv, OPTIONS);
    if (!v) return 0;
    const { type, out: prefix } = v;
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
