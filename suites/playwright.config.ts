// Playwright's config for the conformance suites. `pis-conformance run` starts
// Playwright with this file and passes the target and the report folder through
// the environment (harness/target/env.ts); the suites never import the reference.
import { defineConfig } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = process.env;
const maxWaitS = Number(env.PIS_MAX_WAIT_S ?? 60);

export default defineConfig({
  testDir: '.',
  testMatch: /(^|[\\/])(token|session|data|payments|webhook)\.spec\.ts$/,
  // A suite's checks run in order in one worker (they share a token and a
  // consented session); suites run side by side.
  fullyParallel: false,
  workers: Number(env.PIS_WORKERS ?? 4),
  retries: 0,
  // A check that waits (token expiry, consent by hand) sets its own timeout; the
  // default leaves room for a slow target (arbitrary: 30 s beyond the wait budget).
  timeout: (maxWaitS + 30) * 1000,
  globalTimeout: Number(env.PIS_GLOBAL_TIMEOUT_S ?? 0) * 1000,
  reporter: [[env.PIS_REPORTER ?? '../harness/report/playwright-reporter.ts']],
  outputDir: env.PIS_PLAYWRIGHT_OUTPUT ?? join(tmpdir(), 'pis-conformance-playwright'),
  preserveOutput: 'never',
  use: { trace: 'off', screenshot: 'off', video: 'off' },
});
