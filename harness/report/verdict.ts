// The verdict of a run, computed once from its check results (and whether a
// signal cut the run short). Renderers and commands only read what this returns.
//
//   conformant      every selected must check ran and passed
//   not-conformant  a must check failed
//   incomplete      no must check failed, but some must checks did not run
//   interrupted     a signal cut the run; what it found is kept, nothing is judged
//
// A skipped check without a skipKind counts as not-run: a skip must say that it
// does not matter (not-applicable, not-selected) to keep a run complete.
import { isMustFailure, isWarning, type CheckResult, type RunSummary, type SkipKind, type Verdict } from '../results/model.ts';

export type { Verdict } from '../results/model.ts';

/** "1 check", "2 checks": a count with its noun in the right number. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export const VERDICT_LABEL: Record<Verdict, string> = {
  'conformant': 'Conformant',
  'not-conformant': 'Not conformant',
  'incomplete': 'Incomplete',
  'interrupted': 'Interrupted',
};

interface VerdictCounts {
  passed: number;
  /** Every failed check, must or not. */
  failed: number;
  /** Failed checks that do not decide the verdict (should, profile). */
  warnings: number;
  /** Skipped checks that were selected: not-run plus not-applicable. */
  skipped: number;
  notRun: number;
  notApplicable: number;
  /** Checks left out by --suites, --grep or --no-profile: listed, not counted above. */
  notSelected: number;
}

export interface Judgement extends VerdictCounts {
  verdict: Verdict;
  /** The must checks that did not run, in result order: what keeps the run from a verdict. */
  mustNotRun: CheckResult[];
}

export function skipKindOf(c: Pick<CheckResult, 'status' | 'skipKind'>): SkipKind | undefined {
  return c.status === 'skipped' ? c.skipKind ?? 'not-run' : undefined;
}

export function judge(checks: readonly CheckResult[], opts: { interrupted?: boolean } = {}): Judgement {
  const counts: VerdictCounts = { passed: 0, failed: 0, warnings: 0, skipped: 0, notRun: 0, notApplicable: 0, notSelected: 0 };
  const mustNotRun: CheckResult[] = [];
  let mustFailed = false;
  for (const c of checks) {
    if (c.status === 'passed') counts.passed++;
    else if (c.status === 'failed') {
      counts.failed++;
      if (isWarning(c)) counts.warnings++;
      if (isMustFailure(c)) mustFailed = true;
    } else {
      const kind = skipKindOf(c);
      if (kind === 'not-selected') { counts.notSelected++; continue; }
      counts.skipped++;
      if (kind === 'not-applicable') counts.notApplicable++;
      else {
        counts.notRun++;
        if (c.level === 'must') mustNotRun.push(c);
      }
    }
  }
  const verdict: Verdict = opts.interrupted ? 'interrupted'
    : mustFailed ? 'not-conformant'
    : mustNotRun.length ? 'incomplete'
    : 'conformant';
  return { verdict, ...counts, mustNotRun };
}

/**
 * Exit status of run, certify-receiver and sink: 0 conformant, 1 not
 * conformant or incomplete (0 with --allow-incomplete), 2 interrupted.
 */
export function verdictExit(verdict: Verdict, opts: { allowIncomplete?: boolean } = {}): 0 | 1 | 2 {
  switch (verdict) {
    case 'conformant': return 0;
    case 'incomplete': return opts.allowIncomplete ? 0 : 1;
    case 'not-conformant': return 1;
    case 'interrupted': return 2;
  }
}

/** The summary of results.json: the verdict and its counts. `conformant` is true for Conformant only. */
export function summarize(checks: readonly CheckResult[], opts: { interrupted?: boolean } = {}): RunSummary {
  const { mustNotRun: _, ...j } = judge(checks, opts);
  return {
    passed: j.passed, failed: j.failed, skipped: j.skipped, conformant: j.verdict === 'conformant',
    verdict: j.verdict, warnings: j.warnings, notRun: j.notRun, notApplicable: j.notApplicable, notSelected: j.notSelected,
  };
}

/** Checks that did not run and share one remedy (none: each says why in its message). */
interface NotRunGroup { remedy?: string; checks: CheckResult[] }

/**
 * The checks that did not run, grouped by what the user can do about them, in
 * order of first appearance; only groups with a must check (those keep the
 * run from a verdict). A group lists its should and profile checks too, since
 * the same remedy runs them.
 */
function notRunGroups(checks: readonly CheckResult[]): NotRunGroup[] {
  const groups = new Map<string | undefined, CheckResult[]>();
  for (const c of checks) if (skipKindOf(c) === 'not-run') groups.set(c.remedy, [...(groups.get(c.remedy) ?? []), c]);
  return [...groups].filter(([, cs]) => cs.some(c => c.level === 'must')).map(([remedy, cs]) => ({ ...(remedy ? { remedy } : {}), checks: cs }));
}

/** "token.expiry.old-token-refused", "the 21 webhook checks", "3 checks (a, b, c)". */
function which(cs: readonly CheckResult[]): string {
  if (cs.length === 1) return cs[0].id;
  const suites = new Set(cs.map(c => c.suite));
  if (suites.size === 1) return `${cs.length} ${cs[0].suite} checks`;
  const ids = cs.slice(0, 3).map(c => c.id).join(', ');
  return `${cs.length} checks (${ids}${cs.length > 3 ? ', ...' : ''})`;
}

/** One sentence per group: what to do, and which must checks it would run. */
export function notRunLines(checks: readonly CheckResult[]): string[] {
  return notRunGroups(checks).map(g => g.remedy ? `${g.remedy} to run ${which(g.checks)}`
    : g.checks.length === 1 ? `${g.checks[0].id} did not run: ${g.checks[0].message ?? 'no reason given'}`
    : `${which(g.checks)} did not run: see each one's reason in the report`);
}

/**
 * The counts after the verdict's label: "93 passed, 0 failed, 1 warning, 2 skipped (2 not run), 40 not selected".
 * `failed` counts the must failures (they decide the verdict); a failed should or profile check is a warning, counted apart.
 */
export function countsLine(s: RunSummary): string {
  const skipped = s.skipped
    ? ` (${[s.notRun ? `${s.notRun} not run` : '', s.notApplicable ? `${s.notApplicable} not applicable` : ''].filter(Boolean).join(', ')})` : '';
  return `${s.passed} passed, ${s.failed - s.warnings} failed${s.warnings ? `, ${counted(s.warnings, 'warning')}` : ''}, `
    + `${s.skipped} skipped${skipped}${s.notSelected ? `, ${s.notSelected} not selected` : ''}`;
}

/**
 * The verdict line shared by run, certify-receiver, sink and the HTML header:
 * the label, the counts, and for every verdict but Conformant what did not run
 * and what to do about it.
 */
export function verdictLines(s: RunSummary, checks: readonly CheckResult[]): string[] {
  const head = `${VERDICT_LABEL[s.verdict]}: ${countsLine(s)}.`;
  if (s.verdict === 'interrupted') {
    const missing = checks.filter(c => skipKindOf(c) === 'not-run').length;
    const none = missing ? `; ${counted(missing, 'check has', 'checks have')} no result` : '';
    return [head, `The run was stopped before it finished${none}: run it again to get a verdict.`];
  }
  if (s.verdict === 'conformant') return [head];
  // Not conformant with must checks not run too: what would run them is said as for Incomplete.
  return [head, ...notRunLines(checks).map(l => `Not run: ${l}.`)];
}
