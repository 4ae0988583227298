// `pis-conformance verify ENVELOPE --key PUB`: whether a certificate holds.
// Checks the DSSE signature, the statement, and with --report the files and
// the judgement recomputed from results.json, and with --policy what a
// relying party requires. One sentence per finding; exit 0 accepted, 1 refused.
import { HarnessError } from '../errors.ts';
import { readPublicKey } from '../attest/keys.ts';
import { openEnvelope, readEnvelope, recomputedFindings, subjectFindings } from '../attest/verify.ts';
import { loadPolicy, policyFindings } from '../attest/policy.ts';
import { CATALOG } from '../../suites/catalog/index.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseCommand, publicKeyOption, type CommandOption } from './option-table.ts';

/** Every option of verify: its flags, --help rows and docs/options.md come from here. */
const OPTIONS = [
  publicKeyOption('verify needs --key PUB, the public key of whoever signed the certificate.'),
  { name: 'report', kind: 'value', arg: 'DIR', help: 'the report folder the certificate is for' },
  { name: 'policy', kind: 'value', arg: 'FILE', help: 'the policy to apply' },
] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance verify ENVELOPE --key PUB [--report DIR] [--policy FILE]

Verifies a certificate that attest or run --attest wrote:
  - a signature of the DSSE envelope verifies with the public key (over DSSE's
    pre-authentication encoding) and the payload is an in-toto Statement v1 with
    the test-result predicate v0.1;
  - with --report DIR: every file the statement names is in DIR with the same
    SHA-256, no report file is left out, and the result and the lists of checks
    computed again from DIR/results.json are the statement's;
  - with --policy FILE (YAML, contracts/attest-policy.yaml): nothing failed or
    failed to run, every must requirement of the certificate's API version
    (contracts/requirements.yaml) is among the passed checks, declared
    deviations only if the policy accepts them and they have not expired.

Options:
${optionsHelp(OPTIONS)}

Exit status 0 accepted, 1 refused (each reason on its own line), 2 could not verify.`;

export const command: Command = {
  name: 'verify',
  help,
  options: OPTIONS,
  async run(argv) {
    const parsed = parseCommand('verify', help, argv, OPTIONS, { operands: files => {
      if (files.length !== 1)
        throw new HarnessError('PIS_BAD_FLAG',
          'give exactly one envelope, e.g. pis-conformance verify reports/latest/attestation.intoto.json --key pis-attest.pub.');
    } });
    if (!parsed) return 0;
    const { values: v, operands: [file] } = parsed;
    const keys = v.key.map(readPublicKey);
    const policy = v.policy ? loadPolicy(v.policy) : undefined;
    const read = readEnvelope(file!);
    const opened = 'refused' in read ? read : openEnvelope(read.json, keys);
    const findings = 'refused' in opened ? [opened.refused] : [
      ...(v.report ? [...subjectFindings(opened.statement, v.report), ...recomputedFindings(opened.statement, v.report)] : []),
      ...(policy ? policyFindings(opened.statement, policy, CATALOG, new Date().toISOString().slice(0, 10)) : []),
    ];
    if (findings.length) {
      process.stdout.write(`${findings.join('\n')}\nRefused: ${file} (${findings.length} finding${findings.length === 1 ? '' : 's'}).\n`);
      return 1;
    }
    const s = (opened as Exclude<typeof opened, { refused: string }>).statement;
    const c = s.predicate.conformance;
    const scope = [v.report ? `the files of ${v.report}` : 'the signature only (give --report DIR to check the files)', ...(policy ? ['the policy'] : [])];
    process.stdout.write(`Verified: ${file}: ${c?.implementation ?? 'an implementation'}, API version ${c?.apiVersion ?? '?'}, ` +
      `${s.predicate.result} (${c?.verdictLine ?? 'no verdict line'}); checked ${scope.join(' and ')}.\n`);
    return 0;
  },
};
