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
import { isMustFailure, isWarning, type CheckResult, type SkipKind } from './model.ts';

export type Verdict = 'conformant' | 'not-conformant' | 'incomplete' | 'interrupted';

export const VERDICT_LABEL: Record<Verdict, string> = {
  'conformant': 'Conformant',
  'not-conformant': 'Not conformant',
  'incomplete': 'Incomplete',
  'interrupted': 'Interrupted',
};

export interface VerdictCounts {
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
