// Starts Playwright on the conformance suites as a child process, on the
// selection `run` computed (a --test-list file). The run context and the
// target's secrets travel in the child's environment (never its argv, which
// `ps` shows); the reporter prints progress straight to our terminal.
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
import { encodeRunContext, type RunContext } from '../../suites/support/context.ts';

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
 * The selection as Playwright's --grep: a test's title path reads
 * "<file> <id> <title> <tags>", and the file followed by one of the selected
 * ids (then a space) is that test and no other. (--test-list cannot say it:
 * it matches the file where test() is called, and every check's test() is
 * called in support/register.ts.)
 */
function selectionGrep(checks: readonly Pick<Registered, 'id'>[]): string {
  return `\\.spec\\.ts (?:${checks.map(c => escape(c.id)).join('|')}) `;
}

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

/** What `run` puts in the run context; this module adds the runner's fds and the files it keeps in the scratch folder. */
type RunRequest = Omit<RunContext, 'runPid' | 'scratchDir' | 'guardFd' | 'selected' | 'report' | 'playwright'> & {
  report: Omit<ReporterOptions, 'statusFile' | 'notesFd' | 'candidatesFile'>;
  playwright: Omit<RunContext['playwright'], 'outputDir'>;
};

export interface PlaywrightRun {
  /** The selected checks (harness/cli/selection.ts): Playwright runs these and no other. */
  checks: readonly Registered[];
  /** The checks left out, each with the option that did, for the report. */
  notSelected: readonly NotSelected[];
  context: RunRequest;
  /** The target's secrets, each in its user-facing variable (harness/config/env.ts splitTarget). */
  secrets: Record<string, string>;
  /** The run's private temp folder (makeScratch()). */
  scratch: string;
  /** Wait notes of the run's own process for the reporter's status line (harness/report/wait.ts), piped to it. */
  notes?: Readable;
}

export interface PlaywrightOutcome { exitCode: number | null; signal: NodeJS.Signals | null; status?: RunStatus }

export async function runPlaywright(opts: PlaywrightRun): Promise<PlaywrightOutcome> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const { scratch } = opts;
  const statusFile = join(scratch, 'status.json');
  // The selection, exactly: the files of its suites (anchored: Playwright reads them as regular expressions over the path), its tests by id.
  const files = [...new Set(opts.checks.map(c => `${escape(specFile(c))}$`))];
  const candidatesFile = join(scratch, 'candidates.json');
  writeFileSync(candidatesFile, JSON.stringify(opts.notSelected));
  const { context } = opts;
  const ctx: RunContext = {
    ...context, runPid: process.pid, scratchDir: scratch, guardFd: GUARD_FD, selected: opts.checks.map(c => c.id),
    report: { ...context.report, statusFile, candidatesFile, ...(opts.notes ? { notesFd: NOTES_FD } : {}) },
    playwright: { ...context.playwright, outputDir: join(scratch, 'output') },
  };
  // tsx's loader only for an installed package: Playwright compiles TypeScript
  // only outside node_modules, where an installed package's suites sit. In a
  // checkout Playwright's own compiler does the job, and a second loader on
  // every import cost the runner and each worker about a second of CPU.
  const installed = SUITES_DIR.split(sep).includes('node_modules');
  const args = [...(installed ? ['--import', TSX] : []), '--import', GUARD, cli, 'test', '-c', CONFIG, '--grep', selectionGrep(opts.checks), ...files];
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.secrets, ...encodeRunContext(ctx) };
  // Set by `node --test` in its children; it would make a nested Node process report to the wrong runner.
  delete env.NODE_TEST_CONTEXT;
  // GUARD_FD: the pipe guard.mjs watches; NOTES_FD: the wait notes for the reporter; detached: the runner leads a new process group.
  const stdio: StdioOptions = ['ignore', 'inherit', 'inherit', 'pipe', ...(opts.notes ? ['pipe' as const] : [])];
  const child = spawn(process.execPath, args, { env, stdio, detached: true });
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
    let status: RunStatus | undefined;
    try { status = JSON.parse(readFileSync(statusFile, 'utf8')) as RunStatus; } catch { /* the reporter never finished */ }
    return { exitCode, signal, status };
  } finally {
    off();
    if (opts.notes && notesPipe) opts.notes.unpipe(notesPipe);
  }
}
