// `run --baseline results.json`: a CI gate that known failures do not hold
// hostage. Against an earlier run's results.json, a failed check is new when
// the baseline did not fail it; a baseline failure is fixed when the check
// passed now, and stale when the check did not run now (not selected, not run,
// not applicable, or no longer a check), so the entry proves nothing any more.
import type { RunResults } from '../results/model.ts';
import { isMustFailure } from '../results/model.ts';
import { skipKindOf } from '../report/verdict.ts';

export interface BaselineDiff {
  /** Failed now, not failed in the baseline (every level). */
  new: string[];
  /** The must checks among `new`: they decide the exit status. */
  newMust: string[];
  fixed: string[];
  stale: string[];
}

export function compareBaseline(now: RunResults, baseline: RunResults): BaselineDiff {
  const before = new Set(baseline.checks.filter(c => c.status === 'failed').map(c => c.id));
  const byId = new Map(now.checks.map(c => [c.id, c]));
  const failedNow = now.checks.filter(c => c.status === 'failed' && !before.has(c.id));
  const fixed: string[] = [], stale: string[] = [];
  for (const id of before) {
    const c = byId.get(id);
    if (c?.status === 'passed') fixed.push(id);
    else if (!c || skipKindOf(c)) stale.push(id);
  }
  return { new: failedNow.map(c => c.id), newMust: failedNow.filter(isMustFailure).map(c => c.id), fixed, stale };
}

/**
 * The exit status with a baseline: 2 interrupted, 1 when a must check failed
 * that the baseline did not fail, or (without --allow-incomplete) when a must
 * check did not run; else 0.
 */
export function baselineExit(now: RunResults, diff: BaselineDiff, allowIncomplete: boolean): 0 | 1 | 2 {
  if (now.summary.verdict === 'interrupted') return 2;
  if (diff.newMust.length) return 1;
  const mustNotRun = now.checks.some(c => c.level === 'must' && skipKindOf(c) === 'not-run');
  return mustNotRun && !allowIncomplete ? 1 : 0;
}

export function baselineLines(d: BaselineDiff): string[] {
  const list = (ids: string[]) => ids.length > 10 ? `${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more` : ids.join(', ');
  return [
    d.new.length ? `Baseline: ${d.new.length} new failure${d.new.length === 1 ? '' : 's'} (${list(d.new)})${d.newMust.length < d.new.length
      ? `, ${d.newMust.length} of them must` : ''}.` : 'Baseline: no new failure.',
    ...(d.fixed.length ? [`Baseline: ${d.fixed.length} fixed (${list(d.fixed)}): remove them from the baseline.`] : []),
    ...(d.stale.length
      ? [`Baseline: ${d.stale.length} stale entr${d.stale.length === 1 ? 'y' : 'ies'} (${list(d.stale)}): these checks did not run now.`] : []),
  ];
}
