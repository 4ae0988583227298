// The target of the part running now (part.ts) and the worker's one redactor. Every
// secret a suite learns (client secret, api-key, each token it is given) is
// registered here before any evidence is recorded, so no report shows it.
import type { TargetConfig } from '../../harness/config/config.ts';
import { Redactor, shortSecretWarning } from '../../harness/report/redact.ts';
import { contextTarget, runContext } from './context.ts';
import { collecting, partNow, thisPart } from './part.ts';

const cached = new Map<string, TargetConfig>();

/**
 * The target of the part running now (part.ts). In a batch, while Playwright
 * collects the tests outside any part (the runner lists them, a worker loads
 * the suites), the first part serves, not kept, for what collection reads
 * there: the API version and the profile switch, which runPlaywright holds
 * equal across a batch's parts. Each part registers its own checks inside
 * its part, where its own target answers.
 */
export function target(): TargetConfig {
  const name = collecting() ? partNow() : thisPart();
  if (name === undefined) return contextTarget(() => runContext().runs[0]!.name);
  let t = cached.get(name);
  if (!t) cached.set(name, t = contextTarget(() => name));
  return t;
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
