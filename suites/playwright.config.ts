// Playwright's config for the conformance suites. `pis-conformance run` starts
// Playwright with this file and tells it everything in the run context
// (support/context.ts): the workers, the waits, the reporter's options; the
// suites never import the reference. A context of several parts (a batch of
// proof runs, one target each) registers its checks in a describe block per
// part, each with its own selection (support/register.ts) and its own
// reporter, in one project, so that a worker serves every part; the one part
// of `run` has one reporter, its selection comes on Playwright's command line.
import { defineConfig } from '@playwright/test';
import { runContext } from './support/context.ts';

const ctx = runContext();
const REPORTER = '../harness/report/playwright-reporter.ts';
const batch = ctx.runs.length > 1;

export default defineConfig({
  testDir: '.',
  testMatch: /(^|[\\/])(token|session|data|payments|webhook)\.spec\.ts$/,
  // A suite's checks run in order in one worker (they share a token and a
  // consented session); suites run side by side.
  fullyParallel: false,
  workers: ctx.playwright.workers,
  retries: 0,
  // A check that waits (token expiry, consent by hand) sets its own timeout; the
  // default leaves room for a slow target (arbitrary: 30 s beyond the wait budget).
  timeout: (ctx.playwright.maxWaitS + 30) * 1000,
  globalTimeout: ctx.playwright.globalTimeoutS * 1000,
  reporter: ctx.runs.map(r => [REPORTER, batch ? { ...r.report, part: r.name } : r.report] as [string, unknown]),
  outputDir: ctx.playwright.outputDir,
  preserveOutput: 'never',
  use: { trace: 'off', screenshot: 'off', video: 'off' },
});
