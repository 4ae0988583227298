// Declared deviations (contracts/deviations.yaml): rules an implementation
// knowingly breaks. A deviation never changes a check's status or the verdict;
// it is matched against the failed checks and listed. A deviation that matches
// no failed check (unused) or whose day is past (expired) is reported itself,
// as ajv reports the entries of its skip list that no longer skip anything.
import { HarnessError } from '../errors.ts';
import type { CheckResult, DeclaredDeviation, RunResults } from '../results/model.ts';
import { writeReportFiles } from '../report/writer.ts';
import { VERDICT_LABEL } from '../report/verdict.ts';
import { requirementWindows } from '../requirements/versions.ts';
import { readYamlFile } from './yaml-file.ts';

export interface Deviation { requirement?: string; check?: string; justification: string; expires: string; link: string }

/** A deviation as judged against one run; this is what the certificate, results.json and index.html list. */
export type DeviationStatus = DeclaredDeviation;

export interface DeviationsFile { deviations: Deviation[]; sha256: string; file: string }

export function loadDeviations(file: string): DeviationsFile {
  const { doc, sha256 } = readYamlFile<{ deviations: Deviation[] }>(file, 'deviations.yaml', '--deviations');
  const windows = requirementWindows();
  doc.deviations.forEach((d, i) => {
    if (d.requirement && !windows.has(d.requirement))
      throw new HarnessError('PIS_BAD_CONFIG', `The --deviations file ${file} names requirement ${d.requirement} (entry ${i + 1}), ` +
        "which contracts/requirements.yaml does not have: give an id 'pis-conformance coverage' prints.");
  });
  return { deviations: doc.deviations, sha256, file };
}

/** The deviations against a run's checks; an unknown check id is refused (a typo would otherwise pass as merely unused). */
export function judgeDeviations(devs: readonly Deviation[], results: RunResults): DeviationStatus[] {
  const known = new Set([...results.checks, ...(results.notSelected ?? [])].map(c => c.id));
  const failed = results.checks.filter(c => c.status === 'failed');
  const day = results.finishedAt.slice(0, 10);
  return devs.map(d => {
    if (d.check && !known.has(d.check))
      throw new HarnessError('PIS_BAD_CONFIG', `A declared deviation names check ${d.check}, which this tool does not have: ` +
        "give an id 'pis-conformance run --list' prints.");
    const covers = failed.filter(c => covered(d, c)).map(c => c.id);
    return { ...d, covers, expired: d.expires < day };
  });
}

function covered(d: Deviation, c: CheckResult): boolean {
  return d.check ? c.id === d.check : !!d.requirement && !!c.requirements?.includes(d.requirement);
}

/**
 * Writes the judged deviations into the report folder's results.json and
 * index.html (junit.xml is rewritten unchanged), before a certificate digests
 * the files. Returns the names of the renderers that failed.
 */
export function recordDeviations(dir: string, results: RunResults, devs: readonly DeviationStatus[]): string[] {
  return writeReportFiles(dir, { ...results, deviations: [...devs] });
}

/** "Not conformant (2 declared deviations)": the verdict's label, never changed by a deviation, with their count. */
export function labelWithDeviations(results: RunResults, devs: readonly DeviationStatus[]): string {
  const label = VERDICT_LABEL[results.summary.verdict];
  return devs.length ? `${label} (${devs.length} declared deviation${devs.length === 1 ? '' : 's'})` : label;
}

/** One sentence per deviation: what it covers, and whether it has expired or covers nothing. */
export function deviationLines(devs: readonly DeviationStatus[]): string[] {
  return devs.map(d => {
    const what = d.check ? `check ${d.check}` : `requirement ${d.requirement}`;
    const state = d.expired ? `expired on ${d.expires}` : `until ${d.expires}`;
    if (!d.covers.length) return `Unused deviation: ${what} (${state}) covers no failed check of this run; remove it from the deviations file.`;
    if (d.expired) return `Expired deviation: ${what} expired on ${d.expires} and covers the failed ${d.covers.join(', ')}; renew it or fix the target.`;
    return `Declared deviation: ${what} (${state}) covers the failed ${d.covers.join(', ')} (${d.link}).`;
  });
}
