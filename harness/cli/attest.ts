// `pis-conformance attest DIR --key KEY`: signs a report folder. The
// certificate is an in-toto Statement (test-result predicate) in a DSSE
// envelope, verifiable with `verify`, cosign or openssl (docs/report.md).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { readPrivateKey } from '../attest/keys.ts';
import { attestFolder } from '../attest/attest.ts';
import { deviationLines, loadDeviations } from '../attest/deviations.ts';
import type { Command } from './command.ts';
import { nonEmpty, optionsHelp, parseCommand, type CommandOption } from './option-table.ts';

const NO_KEY = "attest needs --key KEY, a private key in PEM ('pis-conformance keygen' makes one).";

/** Every option of attest: its flags, --help rows and docs/options.md come from here. */
const OPTIONS = [
  { name: 'key', kind: 'value', arg: 'KEY', required: NO_KEY, read: nonEmpty(NO_KEY),
    help: "the private key (PEM, Ed25519 or ECDSA P-256; 'pis-conformance keygen' makes one)" },
  { name: 'deviations', kind: 'value', arg: 'FILE', help: 'declared deviations (YAML, contracts/deviations.yaml)', more: [
    'listed in the certificate, never turning a failed check into a pass;', 'expired and unused ones are reported'] },
  { name: 'config', kind: 'value', arg: 'FILE', help: "the run's --config file, recorded by its SHA-256" },
  { name: 'name', kind: 'value', arg: 'NAME', shownDefault: "'bundled reference', or the API's origin",
    help: "the implementation's name in the certificate and the matrix" },
  { name: 'url', kind: 'value', arg: 'URL', read: urlFlag, help: "a link to the run (e.g. the CI job), the predicate's url" },
  { name: 'out', kind: 'value', arg: 'FILE', shownDefault: 'DIR/attestation.intoto.json', help: 'where to write the envelope' },
] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance attest DIR --key KEY [options]

Signs the report folder DIR of a finished run: writes DIR/attestation.intoto.json,
a DSSE envelope of an in-toto Statement v1 whose subjects are the SHA-256 of the
report's files and whose predicate is the in-toto test-result predicate v0.1
(result PASSED, WARNED or FAILED; the check ids that passed, warned and failed).
Incomplete and Interrupted runs are FAILED, their must checks that did not run
listed in failedTests. Verify it with 'pis-conformance verify'.

Options:
${optionsHelp(OPTIONS)}

Exit status 0 when signed, 2 when not.`;

/** The SHA-256 of the --config file a certificate records. */
export function configDigest(file: string): { file: string; sha256: string } {
  try { return { file, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') }; } catch (e) {
    throw new HarnessError('PIS_BAD_CONFIG', `The config file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
}

function urlFlag(url: string): string {
  try { new URL(url); } catch { throw new HarnessError('PIS_BAD_FLAG', `--url ${url} is not a URL: give an absolute one such as https://ci.example/run/1.`); }
  return url;
}

export const command: Command = {
  name: 'attest',
  help,
  options: OPTIONS,
  async run(argv) {
    const parsed = parseCommand('attest', help, argv, OPTIONS, { operands: dirs => {
      if (dirs.length !== 1)
        throw new HarnessError('PIS_BAD_FLAG', 'give exactly one report folder, e.g. pis-conformance attest reports/latest --key pis-attest.key.');
    } });
    if (!parsed) return 0;
    const { values: v, operands: [dir] } = parsed;
    const key = readPrivateKey(v.key);
    const deviations = v.deviations ? loadDeviations(v.deviations) : undefined;
    const out = attestFolder({ dir: dir!, key, ...(deviations ? { deviations } : {}), ...(v.config ? { targetConfig: configDigest(v.config) } : {}),
      ...(v.url ? { url: v.url } : {}), ...(v.name ? { name: v.name } : {}), ...(v.out ? { out: v.out } : {}) });
    const p = out.statement.predicate;
    const signed = `${p.conformance.verdictLine}: signed ${out.statement.subject.length} files of ${dir}, result ${p.result}.`;
    process.stdout.write([...deviationLines(out.deviations), signed, `Certificate: ${out.file}`].join('\n') + '\n');
    return 0;
  },
};
