// Starts Playwright on the conformance suites as a child process. The target
// and the report folder travel in the child's environment (never its argv,
// which `ps` shows); the reporter prints progress straight to our terminal.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunStatus } from '../report/playwright-reporter.ts';

export const SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));
const CONFIG = join(SUITES_DIR, 'playwright.config.ts');

/** The suites of `run` that exist in this build (the webhook suite joins when its file is there). */
export function availableSuites(all: readonly string[]): string[] {
  return all.filter(s => existsSync(join(SUITES_DIR, `${s}.spec.ts`)));
}

export interface PlaywrightRun {
  suites: string[];
  grep?: string;
  workers: number;
  env: Record<string, string>;
}

export interface PlaywrightOutcome { exitCode: number | null; signal: NodeJS.Signals | null; status?: RunStatus }

export async function runPlaywright(opts: PlaywrightRun): Promise<PlaywrightOutcome> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const scratch = mkdtempSync(join(tmpdir(), 'pis-run-'));
  const statusFile = join(scratch, 'status.json');
  // Anchored file filters: Playwright reads positional arguments as regular expressions over the path.
  const files = opts.suites.map(s => `${s}\\.spec\\.ts`);
  const args = [cli, 'test', '-c', CONFIG, '--workers', String(opts.workers), ...(opts.grep ? ['--grep', opts.grep] : []), ...files];
  const env: NodeJS.ProcessEnv = {
    ...process.env, ...opts.env,
    PIS_RUN_STATUS_FILE: statusFile,
    PIS_PLAYWRIGHT_OUTPUT: join(scratch, 'output'),
  };
  // Set by `node --test` in its children; it would make a nested Node process report to the wrong runner.
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const forward = (sig: NodeJS.Signals) => () => { child.kill(sig); };
  const onInt = forward('SIGINT'), onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, sig) => resolve([code, sig]));
    });
    let status: RunStatus | undefined;
    try { status = JSON.parse(readFileSync(statusFile, 'utf8')) as RunStatus; } catch { /* the reporter never finished */ }
    return { exitCode, signal, status };
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    rmSync(scratch, { recursive: true, force: true });
  }
}
