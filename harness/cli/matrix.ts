// `pis-conformance matrix ENVELOPE... --key PUB`: one static page of verified
// certificates, implementations by API version and suite version.
import { writeFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { readPublicKey } from '../attest/keys.ts';
import { openEnvelope, readEnvelope } from '../attest/verify.ts';
import { renderMatrix, type MatrixEntry, type RefusedEntry } from '../attest/matrix-page.ts';
import { CATALOG } from '../../suites/catalog/index.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseCommand, publicKeyOption, type CommandOption } from './option-table.ts';

/** Every option of matrix: its flags, --help rows and docs/options.md come from here. */
const OPTIONS = [
  publicKeyOption('matrix needs --key PUB, the public key of whoever signed the certificates.'),
  { name: 'out', kind: 'value', arg: 'FILE', default: 'matrix.html', help: 'the page to write' },
] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance matrix ENVELOPE... --key PUB [--out FILE]

Writes one self-contained HTML page (no network, filters by result and API
version, a search box) of the certificates given: a row per implementation, a
column per API version and suite version, each cell the result of a
certificate whose signature verified, with its failing requirements and checks
one click away. A certificate that does not verify is listed apart with the
reason, never shown as a result. The page checks signatures only: verify each
certificate against its report folder with 'pis-conformance verify --report'.

Options:
${optionsHelp(OPTIONS)}

Exit status 0 when written, 2 when not.`;

export const command: Command = {
  name: 'matrix',
  help,
  options: OPTIONS,
  async run(argv) {
    const parsed = parseCommand('matrix', help, argv, OPTIONS, { operands: files => {
      if (!files.length)
        throw new HarnessError('PIS_BAD_FLAG',
          'give at least one envelope, e.g. pis-conformance matrix reports/*/attestation.intoto.json --key pis-attest.pub.');
    } });
    if (!parsed) return 0;
    const { values: v, operands: files } = parsed;
    const keys = v.key.map(readPublicKey);
    const entries: MatrixEntry[] = [], refused: RefusedEntry[] = [];
    for (const file of files) {
      const read = readEnvelope(file);
      const opened = 'refused' in read ? read : openEnvelope(read.json, keys);
      if ('refused' in opened) refused.push({ file, why: opened.refused });
      else entries.push({ file, statement: opened.statement });
    }
    const reqs = new Map(CATALOG.map(c => [c.id, c.requirements ?? []]));
    const out = v.out;
    try { writeFileSync(out, renderMatrix(entries, refused, id => reqs.get(id) ?? [])); } catch (e) {
      throw new HarnessError('PIS_BAD_FLAG',
        `${out} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give --out a file you can write.`);
    }
    for (const r of refused) process.stderr.write(`matrix: ${r.file} is listed apart, not as a result: ${r.why}\n`);
    process.stdout.write(`wrote ${out}: ${entries.length} verified certificate${entries.length === 1 ? '' : 's'}, ${refused.length} refused\n`);
    return 0;
  },
};
