// What `run` does after the verdict when asked: the declared deviations
// (--deviations), the certificate (--attest) and the CI baseline (--baseline).
// Their files are read before the run starts, so a bad one stops it at once.
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { readPrivateKey } from '../attest/keys.ts';
import { attestFolder } from '../attest/attest.ts';
import { deviationLines, judgeDeviations, labelWithDeviations, loadDeviations, recordDeviations, type DeviationsFile } from '../attest/deviations.ts';
import { baselineExit, baselineLines, compareBaseline } from '../attest/baseline.ts';
import { readResults, readResultsFile } from '../attest/results-file.ts';
import type { RunResults } from '../results/model.ts';
import { humanStream, type StdoutReporter } from '../report/terminal.ts';
import { configDigest } from './attest.ts';
import type { CommandOption } from './option-table.ts';

/** The flags of the gates, in run's table (run-options.ts). */
export const GATE_OPTIONS = [
  { name: 'attest', kind: 'value', arg: 'KEY', help: 'sign the report folder with this private key (PEM, Ed25519 or ECDSA P-256)',
    more: ["writes attestation.intoto.json, as 'pis-conformance attest' does"] },
  { name: 'deviations', kind: 'value', arg: 'FILE', help: 'declared deviations (YAML, contracts/deviations.yaml)', more: [
    'listed here, in results.json, index.html and the certificate; they never turn a failed check',
    'into a pass; expired and unused ones are reported'] },
  { name: 'baseline', kind: 'value', arg: 'FILE', help: 'the results.json of an earlier run', more: [
    'exit 0 when every failed must check failed there too;', 'new, fixed and stale entries are listed'] },
] as const satisfies readonly CommandOption[];

export interface Gates { key?: KeyObject; deviations?: DeviationsFile; baseline?: RunResults; config?: string }

export async function readGates(v: { attest?: string; deviations?: string; baseline?: string; config?: string }): Promise<Gates> {
  const deviations = v.deviations ? loadDeviations(v.deviations) : undefined;
  // The catalog loads every check's module (about 0.8 CPU s): only a deviations file that names checks needs it.
  const named = (deviations?.deviations ?? []).filter(d => d.check);
  const ids = new Set(named.length ? (await import('../../suites/catalog/index.ts')).CATALOG.map(c => c.id) : []);
  for (const d of named)
    if (d.check && !ids.has(d.check))
      throw new HarnessError('PIS_BAD_CONFIG', `The --deviations file ${v.deviations} names check ${d.check}, which this tool does not have: ` +
        "give an id 'pis-conformance run --list' prints.");
  return {
    ...(v.attest ? { key: readPrivateKey(v.attest) } : {}), ...(deviations ? { deviations } : {}),
    ...(v.baseline ? { baseline: readResultsFile(v.baseline) } : {}), ...(v.config ? { config: v.config } : {}),
  };
}

/** Prints what each gate found and returns the exit status: the run's own, or the baseline's when one was given. */
export function applyGates(dir: string, exit: number, g: Gates, allowIncomplete: boolean, mode: StdoutReporter): number {
  if (!g.key && !g.deviations && !g.baseline) return exit;
  if (!existsSync(join(dir, 'results.json'))) return exit;
  const out = humanStream(mode);
  const results = readResults(dir);
  if (g.deviations) {
    const statuses = judgeDeviations(g.deviations.deviations, results);
    recordDeviations(dir, results, statuses);
    out.write([...deviationLines(statuses), `${labelWithDeviations(results, statuses)}.`].join('\n') + '\n');
  }
  if (g.key) {
    const signed = attestFolder({ dir, key: g.key, ...(g.deviations ? { deviations: g.deviations } : {}),
      ...(g.config ? { targetConfig: configDigest(g.config) } : {}) });
    out.write(`Certificate: ${signed.file} (${signed.statement.predicate.result})\n`);
  }
  if (!g.baseline) return exit;
  const diff = compareBaseline(results, g.baseline);
  out.write(baselineLines(diff).join('\n') + '\n');
  return exit === 2 ? 2 : baselineExit(results, diff, allowIncomplete);
}
