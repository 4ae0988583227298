// Starts Playwright on the conformance suites as a child process. The target
// and the report folder travel in the child's environment (never its argv,
// which `ps` shows); the reporter prints progress straight to our terminal.
// The runner leads its own process group with its workers: a stop signal
// reaches it once, from here, so its reporter writes what the run found, and
// guard.mjs ends the whole group when this process ends.
import { spawn, type StdioOptions } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { RunStatus } from '../report/playwright-reporter.ts';
import { NOTES_FD_ENV } from '../report/wait.ts';
import { onStop } from '../stop.ts';

const SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));
const CONFIG = join(SUITES_DIR, 'playwright.config.ts');
const GUARD = fileURLToPath(new URL('./guard.mjs', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** The suites of `run` that exist in this build (the webhook suite joins when its file is there). */
export function availableSuites(all: readonly string[]): string[] {
  return all.filter(s => existsSync(join(SUITES_DIR, `${s}.spec.ts`)));
}

/**
 * Whether Playwright's --grep selects the test titled `title` of `file`: its
 * pattern made as Playwright's command line makes it (`/re/flags`, else
 * case-insensitive) and matched against the test's title path joined by spaces
 * (the untitled root and project, the file, the title).
 */
export function grepMatches(grep: string | undefined, file: string, title: string): boolean {
  if (grep === undefined) return true;
  const slashed = /^\/(.*)\/([gi]*)$/.exec(grep);
  return (slashed ? new RegExp(slashed[1]!, slashed[2]) : new RegExp(grep, 'gi')).test(`  ${file} ${title}`);
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

export interface PlaywrightRun {
  suites: string[];
  grep?: string;
  workers: number;
  env: Record<string, string>;
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
  // Anchored file filters: Playwright reads positional arguments as regular expressions over the path.
  const files = opts.suites.map(s => `${s}\\.spec\\.ts`);
  // tsx's loader only for an installed package: Playwright compiles TypeScript
  // only outside node_modules, where an installed package's suites sit. In a
  // checkout Playwright's own compiler does the job, and a second loader on
  // every import cost the runner and each worker about a second of CPU.
  const installed = SUITES_DIR.split(sep).includes('node_modules');
  const args = [...(installed ? ['--import', TSX] : []), '--import', GUARD, cli, 'test', '-c', CONFIG, '--workers', String(opts.workers),
    ...(opts.grep ? ['--grep', opts.grep] : []), ...files];
  const env: NodeJS.ProcessEnv = {
    ...process.env, ...opts.env,
    PIS_RUN_STATUS_FILE: statusFile,
    PIS_PLAYWRIGHT_OUTPUT: join(scratch, 'output'),
    PIS_SCRATCH_DIR: scratch,
    PIS_GUARD_FD: '3',
    ...(opts.notes ? { [NOTES_FD_ENV]: '4' } : {}),
  };
  // Set by `node --test` in its children; it would make a nested Node process report to the wrong runner.
  delete env.NODE_TEST_CONTEXT;
  // fd 3: the pipe guard.mjs watches; fd 4: the wait notes for the reporter; detached: the runner leads a new process group.
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
