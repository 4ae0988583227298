// How the resolved target reaches the Playwright workers: the non-secret part
// as a field of the run context (suites/support/context.ts), the secrets in
// their own variables of docs/cli.md (a child's environment is not shown by
// `ps`, its argv is; no secret is written to a file).
import type { TargetConfig } from './config.ts';
import { TARGET_OPTIONS } from './options.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import type { Redactor } from '../report/redact.ts';

/** The secret options, each in the variable the user would set it in (every secret option has one: test/config/options.test.ts). */
const SECRETS = TARGET_OPTIONS.filter(o => o.secret).map(o => ({ field: o.field, env: o.env! }));

/** The variables that carry a secret, which a process below the target's layer (Playwright's reporter) must hide. */
export const SECRET_VARIABLES: readonly string[] = SECRETS.map(s => s.env);

/** The target of a child process: `open` without any secret, and each secret in its own variable. */
export function splitTarget(cfg: TargetConfig): { open: Record<string, unknown>; env: Record<string, string> } {
  const open: Record<string, unknown> = { ...cfg };
  const env: Record<string, string> = {};
  for (const s of SECRETS) {
    const value = open[s.field];
    delete open[s.field];
    if (typeof value === 'string' && value) env[s.env] = value;
  }
  return { open, env };
}

/** Every secret of `cfg` added to `redactor`, each named by its variable. */
export function redactTargetSecrets(redactor: Redactor, cfg: TargetConfig): Redactor {
  for (const s of SECRETS) redactor.add(cfg[s.field] as string | undefined, s.env);
  return redactor;
}

/** The target back from its open part and the secrets' variables. */
export function joinTarget(open: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const secrets = Object.fromEntries(SECRETS.map(s => [s.field, env[s.env] || undefined]));
  return { ...open, ...secrets } as unknown as TargetConfig;
}

/** The target as results.json shows it: URLs without their userinfo, never a secret. */
export function reportTarget(cfg: TargetConfig): Record<string, string | undefined> {
  const url = (u: string | undefined) => (u === undefined ? undefined : redactUrlUserinfo(u));
  return {
    authUrl: url(cfg.authUrl), realm: cfg.realm, clientId: cfg.clientId, baseUrl: url(cfg.baseUrl), controlUrl: url(cfg.controlUrl),
    ...(cfg.bundledReference ? { implementation: 'bundled reference' } : {}),
  };
}
