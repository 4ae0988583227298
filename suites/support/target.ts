// The target of this Playwright worker and the worker's one redactor. Every
// secret a suite learns (client secret, api-key, each token it is given) is
// registered here before any evidence is recorded, so no report shows it.
import type { TargetConfig } from '../../harness/config/config.ts';
import { Redactor, shortSecretWarning } from '../../harness/report/redact.ts';
import { contextTarget } from './context.ts';

let cached: TargetConfig | undefined;

export function target(): TargetConfig {
  cached ??= contextTarget();
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
