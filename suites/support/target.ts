// The target of this Playwright worker and the worker's one redactor. Every
// secret a suite learns (client secret, api-key, each token it is given) is
// registered here before any evidence is recorded, so no report shows it.
import type { TargetConfig } from '../../harness/config/config.ts';
import { Redactor, shortSecretWarning } from '../../harness/report/redact.ts';
import { contextTarget, runContext } from './context.ts';

let cached: TargetConfig | undefined;

/**
 * How to name the Playwright project of the test running now. The suites'
 * registration (register.ts, which every spec file imports first) gives it when
 * Playwright loads them: this module, which the check catalog reaches, then
 * loads no part of Playwright, and neither does a process that only lists the
 * checks (`run` before it starts Playwright, `run --list`, coverage: 0.3 CPU s
 * each).
 */
let projectOf: (() => string) | undefined;
export function nameProjectsBy(f: () => string): void { projectOf = f; }

/**
 * The Playwright project of the test running now; undefined while Playwright
 * collects the tests. Asked before the registration said how (a spec file
 * that does not import register.ts), it throws: every part of a batch would
 * otherwise be served the first part's target.
 */
function projectNow(): string | undefined {
  if (!projectOf) throw new Error('suites/support/register.ts was not loaded: a spec file must import it before it asks for the target');
  try { return projectOf(); } catch { return undefined; }
}

/**
 * The target of this worker. In a batch (several parts, one Playwright
 * project each) a worker runs one project's tests: its part, once a test or
 * hook runs. While Playwright collects the tests (the runner, and each worker
 * as it loads the suites) there is no project yet: the first part serves, not
 * kept, for what collection reads, the API version and the profile switch,
 * which runPlaywright holds equal across a batch's parts.
 */
export function target(): TargetConfig {
  if (cached) return cached;
  const { runs } = runContext();
  const name = runs.length === 1 ? runs[0]!.name : projectNow();
  if (name === undefined) return contextTarget(() => runs[0]!.name);
  cached = contextTarget(() => name);
  return cached;
}

/** Redacts known secrets; curl lines show them as $PIS_CLIENT_SECRET, $PIS_ACCESS_TOKEN, $PIS_REFRESH_TOKEN, $PIS_WEBHOOK_API_KEY. */
export const redactor = new Redactor();

let seeded = false;
export function seedRedactor(): Redactor {
  if (!seeded) {
    seeded = true;
    const t = target();
    redactor.add(t.clientSecret, 'PIS_CLIENT_SECRET');
    redactor.add(t.webhookApiKey, 'PIS_WEBHOOK_API_KEY');
  }
  return redactor;
}

const warned = new Set<string>();

/** Registers tokens the moment they arrive; says once per kind when the target issues one too short to hide cleanly. */
export function registerTokens(access: unknown, refresh: unknown): void {
  if (typeof access === 'string') redactor.add(access, 'PIS_ACCESS_TOKEN');
  if (typeof refresh === 'string') redactor.add(refresh, 'PIS_REFRESH_TOKEN');
  for (const p of redactor.shortSecrets) {
    if (warned.has(p) || !p.endsWith('_TOKEN')) continue;
    warned.add(p);
    process.stderr.write(shortSecretWarning(p) + '\n');
  }
}
