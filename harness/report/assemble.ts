// Builds the results of a run from what it recorded: the header and plan
// written when it began (plan.json), the checks that finished (results.jsonl),
// and whether it was cut short. The writer at the end of a run and `report DIR`
// on a killed run's folder both build results here, so they agree.
import { TOOL } from '../version.ts';
import type { CheckMeta } from '../check/def.ts';
import { notRun, notSelected as leftOut, toResult } from '../check/outcome.ts';
import type { CheckResult, DeliveryAttempt, RunResults, Selection } from '../results/model.ts';
import { summarize } from './verdict.ts';

export interface ReportHeader {
  command: string;
  target: Record<string, string | undefined>;
  timeScale: number;
  selection?: Selection;
}

/** A check the selection left out, and the option that left it out (e.g. "--grep 'token.refresh'"). */
export interface NotSelected extends CheckMeta { reason: string }

/** What a run set out to do: every selected check, and the checks its options left out. */
export interface ReportPlan {
  selected: CheckMeta[];
  notSelected?: NotSelected[];
}

/** The content of plan.json, written when a run begins. */
export interface PlanFile extends ReportHeader, ReportPlan {
  tool: { name: string; version: string };
  startedAt: string;
}

export const PLAN_FILE = 'plan.json';

/** The result of a selected check that has none: it did not run, and the run is incomplete or interrupted. */
function missing(meta: CheckMeta, interrupted: boolean): CheckResult {
  const why = interrupted ? 'no result: the run was stopped before this check finished' : 'no result: the run ended before this check ran';
  return toResult(meta, notRun(why), 0);
}

function notSelected(n: NotSelected): CheckResult {
  const { reason, ...meta } = n;
  return toResult(meta, leftOut(`not selected: ${reason}`), 0);
}

/**
 * The checks of a run in plan order (each selected check's result, or a
 * not-run entry when it has none, then results the plan did not name), and
 * the checks the selection left out.
 */
function planChecks(plan: ReportPlan | undefined, results: readonly CheckResult[],
  interrupted: boolean): { checks: CheckResult[]; notSelected: CheckResult[] } {
  if (!plan) return { checks: [...results], notSelected: [] };
  const byId = new Map(results.map(c => [c.id, c]));
  const named = new Set(plan.selected.map(m => m.id));
  return {
    checks: [...plan.selected.map(m => byId.get(m.id) ?? missing(m, interrupted)), ...results.filter(c => !named.has(c.id))],
    notSelected: (plan.notSelected ?? []).filter(n => !byId.has(n.id)).map(notSelected),
  };
}

export function assembleResults(o: {
  header: ReportHeader; plan?: ReportPlan; checks: readonly CheckResult[]; startedAt: string; finishedAt: string;
  interrupted: boolean; deliveries?: DeliveryAttempt[];
}): RunResults {
  const { checks, notSelected } = planChecks(o.plan, o.checks, o.interrupted);
  return {
    tool: { ...TOOL },
    command: o.header.command,
    target: o.header.target,
    timeScale: o.header.timeScale,
    startedAt: o.startedAt,
    finishedAt: o.finishedAt,
    ...(o.header.selection ? { selection: o.header.selection } : {}),
    ...(o.interrupted ? { interrupted: true } : {}),
    summary: summarize([...checks, ...notSelected], { interrupted: o.interrupted }),
    checks,
    ...(notSelected.length ? { notSelected } : {}),
    ...(o.deliveries ? { deliveries: o.deliveries } : {}),
  };
}
