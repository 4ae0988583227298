// Writes a report folder (CONTRACT.md section 2): results.jsonl as each check
// finishes (a killed run still leaves what it found), then results.json,
// junit.xml and index.html once at the end. Everything passes the redactor first.
import { appendFileSync, mkdirSync, writeFileSync, symlinkSync, rmSync, lstatSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { TOOL } from '../version.ts';
import { Redactor } from './redact.ts';
import { summarize, type CheckResult, type DeliveryAttempt, type RunResults } from './model.ts';
import { renderJunit } from './junit.ts';
import { renderPage } from './html/page.ts';

export interface ReportHeader {
  command: string;
  target: Record<string, string | undefined>;
  timeScale: number;
}

/** `reports/<timestamp>` under the current directory, the default report folder. */
export function defaultReportDir(now = new Date()): string {
  return join('reports', now.toISOString().replace(/[:.]/g, '-'));
}

export class ReportWriter {
  readonly dir: string;
  private readonly checks: CheckResult[] = [];
  private readonly startedAt = new Date().toISOString();

  constructor(dir: string, private readonly header: ReportHeader, private readonly redactor: Redactor) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, 'results.jsonl'), '');
    linkLatest(this.dir);
  }

  get results(): readonly CheckResult[] { return this.checks; }

  /** Records one finished check and appends it to results.jsonl at once. */
  add(check: CheckResult): CheckResult {
    const clean = this.redactor.value(check);
    this.checks.push(clean);
    appendFileSync(join(this.dir, 'results.jsonl'), JSON.stringify(clean) + '\n');
    return clean;
  }

  /** Writes results.json, junit.xml and index.html; returns the results as written. */
  finish(extra: { deliveries?: DeliveryAttempt[] } = {}): RunResults {
    const results: RunResults = this.redactor.value({
      tool: { ...TOOL },
      command: this.header.command,
      target: this.header.target,
      timeScale: this.header.timeScale,
      startedAt: this.startedAt,
      finishedAt: new Date().toISOString(),
      summary: summarize(this.checks),
      checks: this.checks,
      ...(extra.deliveries ? { deliveries: extra.deliveries } : {}),
    });
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
