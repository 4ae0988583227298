// Writes a report folder: plan.json when the run begins (its header and every
// selected check, so a killed run's folder still says what was missing),
// results.jsonl as each check finishes (a killed run still leaves what it
// found), then at the end results.json first and the renderers (junit.xml,
// index.html) each on its own, so a renderer that fails costs only its file
// (after Playwright's reporter multiplexer). Everything passes the redactor
// first. A folder a run reuses loses the files of the report before it.
import { appendFileSync, mkdirSync, writeFileSync, symlinkSync, rmSync, lstatSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { TOOL } from '../version.ts';
import { Redactor } from './redact.ts';
import type { CheckResult, DeliveryAttempt, RunResults } from '../results/model.ts';
import { assembleResults, PLAN_FILE, type PlanFile, type ReportHeader, type ReportPlan } from './assemble.ts';
import { REPORT_FILES } from './folder.ts';
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
  /** The redactor's revision when each check was added: finish() redacts again only those added before a secret was. */
  private readonly redactedAt = new Map<CheckResult, number>();
  private readonly startedAt = new Date().toISOString();
  /** The renderers that failed in finish() (each already said so on stderr). */
  failedRenderers: string[] = [];

  /**
   * `resultsOnly`: the folder gets plan.json and results.json alone (a proof part of the tests' batches, which reads
   * nothing else); results.json is the same either way.
   */
  constructor(dir: string, private readonly header: ReportHeader, private readonly redactor: Redactor, private readonly plan?: ReportPlan,
    private readonly o: { resultsOnly?: boolean } = {}) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true });
    for (const f of REPORT_FILES) rmSync(join(this.dir, f), { force: true });
    const planFile: PlanFile = { tool: { ...TOOL }, ...header, startedAt: this.startedAt, selected: plan?.selected ?? [],
      ...(plan?.notSelected ? { notSelected: plan.notSelected } : {}) };
    writeFileSync(join(this.dir, PLAN_FILE), JSON.stringify({ ...planFile, target: this.redactor.value(planFile.target) }) + '\n');
    if (!o.resultsOnly) writeFileSync(join(this.dir, 'results.jsonl'), '');
    linkLatest(this.dir);
  }

  get results(): readonly CheckResult[] { return this.checks; }

  /** Records one finished check and appends it to results.jsonl at once. */
  add(check: CheckResult): CheckResult {
    const clean = this.redactor.result(check);
    this.checks.push(clean);
    this.redactedAt.set(clean, this.redactor.revision);
    if (!this.o.resultsOnly) appendFileSync(join(this.dir, 'results.jsonl'), JSON.stringify(clean) + '\n');
    return clean;
  }

  /**
   * Writes results.json, junit.xml and index.html; returns the results as
   * written. `interrupted`: a signal cut the run, and the selected checks
   * without a result are listed as not run.
   */
  finish(extra: { deliveries?: DeliveryAttempt[]; interrupted?: boolean } = {}): RunResults {
    // The verdict is computed from levels and statuses, which redaction never touches. The checks add() redacted
    // are redacted again only when a secret was registered since (a sink's or a receiver's key learned later):
    // a second pass with the same secrets finds nothing, and it was half of this step's CPU in a run of the
    // four API suites (0.145 CPU s, now 0.069).
    const now = this.redactor.revision;
    const clean = new Set(this.checks.filter(c => this.redactedAt.get(c) === now));
    const results: RunResults = this.redactor.results(assembleResults({
      header: this.header, plan: this.plan, checks: this.checks, startedAt: this.startedAt, finishedAt: new Date().toISOString(),
      interrupted: !!extra.interrupted, deliveries: extra.deliveries,
    }), clean);
    this.failedRenderers = writeReportFiles(this.dir, results, this.o.resultsOnly ? [] : RENDERERS);
    return results;
  }
}

/** A renderer: one file of the report folder, drawn from finished results alone. */
export interface Renderer { name: string; file: string; render(r: RunResults): string }

export const RENDERERS: readonly Renderer[] = [
  { name: 'JUnit', file: 'junit.xml', render: renderJunit },
  { name: 'HTML', file: 'index.html', render: renderPage },
];

/**
 * Writes results.json, then each renderer's file on its own: a renderer that
 * throws is named on stderr and costs only its file; results.json and the
 * verdict stand. Returns the names of the renderers that failed (also used by
 * `report DIR`).
 */
export function writeReportFiles(dir: string, results: RunResults, renderers: readonly Renderer[] = RENDERERS): string[] {
  writeFileSync(join(dir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  const failed: string[] = [];
  for (const r of renderers) {
    try {
      writeFileSync(join(dir, r.file), r.render(results));
    } catch (e) {
      failed.push(r.name);
      rmSync(join(dir, r.file), { force: true });
      process.stderr.write(`pis-conformance: the ${r.name} report (${r.file}) could not be written (${(e as Error)?.message ?? e}); `
        + 'results.json holds every result: '
        + `rebuild it with 'pis-conformance report ${dir}', and please report this bug.\n`);
    }
  }
  return failed;
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
