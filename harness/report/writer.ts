// Writes a report folder: plan.json when the run begins (its header and every
// selected check, so a killed run's folder still says what was missing),
// results.jsonl as each check finishes (a killed run still leaves what it
// found), then results.json, junit.xml and index.html once at the end.
// Everything passes the redactor first.
import { appendFileSync, mkdirSync, writeFileSync, symlinkSync, rmSync, lstatSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { TOOL } from '../version.ts';
import { Redactor } from './redact.ts';
import type { CheckResult, DeliveryAttempt, RunResults } from './model.ts';
import { assembleResults, PLAN_FILE, type PlanFile, type ReportHeader, type ReportPlan } from './assemble.ts';
import { renderJunit } from './junit.ts';
import { renderPage } from './html/page.ts';

export type { ReportHeader, ReportPlan } from './assemble.ts';

/** `reports/<timestamp>` under the current directory, the default report folder. */
export function defaultReportDir(now = new Date()): string {
  return join('reports', now.toISOString().replace(/[:.]/g, '-'));
}

export class ReportWriter {
  readonly dir: string;
  private readonly checks: CheckResult[] = [];
  private readonly startedAt = new Date().toISOString();

  constructor(dir: string, private readonly header: ReportHeader, private readonly redactor: Redactor, private readonly plan?: ReportPlan) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true });
    const planFile: PlanFile = { tool: { ...TOOL }, ...header, startedAt: this.startedAt, selected: plan?.selected ?? [], ...(plan?.notSelected ? { notSelected: plan.notSelected } : {}) };
    writeFileSync(join(this.dir, PLAN_FILE), JSON.stringify({ ...planFile, target: this.redactor.value(planFile.target) }) + '\n');
    writeFileSync(join(this.dir, 'results.jsonl'), '');
    linkLatest(this.dir);
  }

  get results(): readonly CheckResult[] { return this.checks; }

  /** Records one finished check and appends it to results.jsonl at once. */
  add(check: CheckResult): CheckResult {
    const clean = this.redactor.result(check);
    this.checks.push(clean);
    appendFileSync(join(this.dir, 'results.jsonl'), JSON.stringify(clean) + '\n');
    return clean;
  }

  /**
   * Writes results.json, junit.xml and index.html; returns the results as
   * written. `interrupted`: a signal cut the run, and the selected checks
   * without a result are listed as not run.
   */
  finish(extra: { deliveries?: DeliveryAttempt[]; interrupted?: boolean } = {}): RunResults {
    // The verdict is computed from levels and statuses, which redaction never touches.
    const results: RunResults = this.redactor.results(assembleResults({
      header: this.header, plan: this.plan, checks: this.checks, startedAt: this.startedAt, finishedAt: new Date().toISOString(),
      interrupted: !!extra.interrupted, deliveries: extra.deliveries,
    }));
    writeReportFiles(this.dir, results);
    return results;
  }
}

/** Writes results.json, junit.xml and index.html from finished results (also used by `report DIR`). */
export function writeReportFiles(dir: string, results: RunResults): void {
  writeFileSync(join(dir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(dir, 'junit.xml'), renderJunit(results));
  writeFileSync(join(dir, 'index.html'), renderPage(results));
}

/** Points reports/latest at the newest folder when the folder sits in a `reports` directory. */
function linkLatest(dir: string): void {
  const parent = dirname(dir);
  if (!/(^|[\\/])reports$/.test(parent)) return;
  const latest = join(parent, 'latest');
  try {
    try { lstatSync(latest); rmSync(latest, { force: true, recursive: false }); } catch { /* none yet */ }
    symlinkSync(relative(parent, dir), latest);
  } catch { /* a read-only or racing reports folder is not worth failing a run */ }
}
