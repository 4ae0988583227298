// Starts Playwright on the conformance suites as a child process, on the
// selection `run` computed (its spec files and a --grep of its check ids; in a
// batch of several targets, each part's own, which the suites' registration
// reads: suites/support/register.ts). The run
// context and the target's secrets travel in the child's environment (never
// its argv, which `ps` shows); the reporter prints progress straight to our
// terminal, or the caller keeps it (a batch).
// The runner leads its own process group with its workers: a stop signal
// reaches it once, from here, so its reporter writes what the run found, and
// guard.mjs ends the whole group when this process ends.
import { spawn, type StdioOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ReporterOptions, RunStatus } from '../report/playwright-reporter.ts';
import type { NotSelected } from '../report/assemble.ts';
import type { Registered } from '../check/def.ts';
import { onStop } from '../stop.ts';
import { encodeRunContext, selectionGrep, type RunContext, type TargetRun } from '../../suites/support/context.ts';
import { HarnessError } from '../errors.ts';

const SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));
const CONFIG = join(SUITES_DIR, 'playwright.config.ts');
const GUARD = fileURLToPath(new URL('./guard.mjs', import.meta.url));
const TSX = import.meta.resolve('tsx');
/** The runner's fds beyond stdio (the order of `stdio` below): the pipe guard.mjs watches, and the wait notes for the reporter. */
const GUARD_FD = 3;
const NOTES_FD = 4;

/** The suites of `run` that exist in this build (the webhook suite joins when its file is there). */
export function availableSuites(all: readonly string[]): string[] {
  return all.filter(s => existsSync(join(SUITES_DIR, `${s}.spec.ts`)));
}

/** The spec file of a check's suite, as Playwright names it relative to suites/. */
export const specFile = (c: Pick<Registered, 'suite'>): string => `${c.suite}.spec.ts`;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The run's private temp folder (mkdtemp: mode 0700, a random name): the
 * status file, Playwright's output, and the webhook drive's outcome, which
 * holds every body. Removed in every outcome: by remove(), on a hard exit, and
 * by guard.mjs when this process is killed.
 */
export function makeScratch(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pis-run-'));
  const drop = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', drop);
  return { dir, remove: () => { process.off('exit', drop); drop(); } };
}

/** One target's part of what the caller asks: this module adds the selection's patterns and the files it keeps in the scratch folder. */
export interface TargetRunRequest {
  /** Its name in a batch (its describe block's, suites/support/part.ts); '' for the one run of `run`. */
  name: string;
  /** The selected checks (harness/cli/selection.ts): Playwright runs these and no other. */
  checks: readonly Registered[];
  /** The checks left out, each with the option that did, for the report. */
  notSelected: readonly NotSelected[];
  target: TargetRun['target'];
  webhookRunFile?: string;
  report: Omit<ReporterOptions, 'statusFile' | 'notesFd' | 'candidatesFile' | 'part'>;
}

export interface PlaywrightRun {
  /** One part per target: `run` asks one; a batch of proof runs several, which then share the runner and the secrets. */
  runs: readonly TargetRunRequest[];
  requirementWindows: RunContext['requirementWindows'];
  playwright: Omit<RunContext['playwright'], 'outputDir'>;
  /** The target's secrets, each in its user-facing variable (harness/config/env.ts splitTarget): the same for every part. */
  secrets: Record<string, string>;
  /** The run's private temp folder (makeScratch()). */
  scratch: string;
  /** Wait notes of the run's own process for the reporter's status line (harness/report/wait.ts), piped to it (one part only). */
  notes?: Readable;
  /** Keep what the runner prints (the first MAX_CAPTURED bytes) instead of passing it to this process's terminal. */
  capture?: boolean;
}

/** What a captured runner may print before the rest is dropped (arbitrary: a few hundred runs' progress lines). */
const MAX_CAPTURED = 4 * 1024 * 1024;

/** How Playwright ended, and what each part's reporter told (in the order of the parts; absent: it never finished). */
export interface PlaywrightOutcome {
  exitCode: number | null; signal: NodeJS.Signals | null; statuses: (RunStatus | undefined)[];
  /** What the runner printed, stdout and stderr as they came, when asked to capture it. */
  output?: string;
}

export async function runPlaywright(opts: PlaywrightRun): Promise<PlaywrightOutcome> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const { scratch } = opts;
  if (!opts.runs.length) throw new HarnessError('PIS_INTERNAL', 'runPlaywright was asked no run: this is a bug of the harness, please report it.');
  const batch = opts.runs.length > 1;
  if (batch && new Set(opts.runs.map(r => r.name)).size !== opts.runs.length)
    throw new HarnessError('PIS_INTERNAL', 'The parts of a batch need distinct names: this is a bug of the harness, please report it.');
  // What Playwright's collection of the tests reads of the target, before any part is known (suites/support/target.ts).
  const collected = (r: TargetRunRequest) => JSON.stringify([r.target.apiVersion, r.target.profile]);
  if (batch && new Set(opts.runs.map(collected)).size !== 1)
    throw new HarnessError('PIS_INTERNAL', 'The parts of a batch need one API version and one profile switch: this is a bug of the harness, please report it.');
  const runs: TargetRun[] = opts.runs.map((r, i) => {
    const candidatesFile = join(scratch, `candidates-${i}.json`);
    writeFileSync(candidatesFile, JSON.stringify(r.notSelected));
    return {
      name: r.name, target: r.target, selected: r.checks.map(c => c.id), ...(r.webhookRunFile ? { webhookRunFile: r.webhookRunFile } : {}),
      // The selection, exactly: the files of its suites (anchored: Playwright reads them as regular expressions over the path), its tests by id.
      files: [...new Set(r.checks.map(c => `${escape(specFile(c))}$`))],
      report: { ...r.report, statusFile: join(scratch, `status-${i}.json`), candidatesFile, ...(opts.notes && !batch ? { notesFd: NOTES_FD } : {}) },
    };
  });
  const ctx: RunContext = {
    runPid: process.pid, scratchDir: scratch, guardFd: GUARD_FD, requirementWindows: opts.requirementWindows, runs,
    playwright: { ...opts.playwright, outputDir: join(scratch, 'output') },
  };
  // One part: its selection on the command line. Several: each part registers its own checks only, the command line names every file.
  const files = [...new Set(runs.flatMap(r => r.files))];
  // tsx's loader only for an installed package: Playwright compiles TypeScript
  // only outside node_modules, where an installed package's suites sit. In a
  // checkout Playwright's own compiler does the job, and a second loader on
  // every import cost the runner and each worker about a second of CPU.
  const installed = SUITES_DIR.split(sep).includes('node_modules');
  const grep = batch ? [] : ['--grep', selectionGrep(runs[0]!.selected)];
  const args = [...(installed ? ['--import', TSX] : []), '--import', GUARD, cli, 'test', '-c', CONFIG, ...grep, ...files];
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.secrets, ...encodeRunContext(ctx) };
  // Set by `node --test` in its children; it would make a nested Node process report to the wrong runner.
  delete env.NODE_TEST_CONTEXT;
  // GUARD_FD: the pipe guard.mjs watches; NOTES_FD: the wait notes for the reporter; detached: the runner leads a new process group.
  const out = opts.capture ? 'pipe' : 'inherit';
  const stdio: StdioOptions = ['ignore', out, out, 'pipe', ...(opts.notes ? ['pipe' as const] : [])];
  const child = spawn(process.execPath, args, { env, stdio, detached: true });
  let output = '';
  const keep = (d: Buffer) => { if (output.length < MAX_CAPTURED) output += d.toString('utf8'); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const notesPipe = child.stdio[4] as Writable | null | undefined;
  if (opts.notes && notesPipe) {
    // A runner that ended, or never read them, loses the notes and nothing else.
    notesPipe.on('error', () => {});
    opts.notes.pipe(notesPipe);
  }
  // Any stop signal becomes SIGINT, the one Playwright answers by stopping the
  // workers and still calling its reporters' onEnd (it dies on a bare SIGTERM).
  const off = onStop(() => { child.kill('SIGINT'); });
  try {
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, sig) => resolve([code, sig]));
    });
    const statuses = runs.map(r => {
      try { return JSON.parse(readFileSync(r.report.statusFile, 'utf8')) as RunStatus; } catch { return undefined; /* the reporter never finished */ }
    });
    return { exitCode, signal, statuses, ...(opts.capture ? { output } : {}) };
  } finally {
    off();
    if (opts.notes && notesPipe) opts.notes.unpipe(notesPipe);
  }
}
