// How the resolved target reaches the Playwright workers: the non-secret part as
// one JSON variable, the secrets in their own variables of docs/cli.md
// (a child's environment is not shown by `ps`, its argv is).
import { HarnessError } from '../errors.ts';
import type { TargetConfig } from './config.ts';
import { TARGET_OPTIONS } from './options.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import type { Redactor } from '../report/redact.ts';

export const TARGET_ENV = 'PIS_TARGET_JSON';

/** The secret options, each in the variable the user would set it in (every secret option has one: test/target/options.test.ts). */
const SECRETS = TARGET_OPTIONS.filter(o => o.secret).map(o => ({ field: o.field, env: o.env! }));

/**
 * Names the variables that carry a secret, for a process below the target's
 * layer (Playwright's reporter) that must hide their values: it reads this
 * list rather than a copy of its own.
 */
export const SECRET_VARIABLES_ENV = 'PIS_SECRET_VARIABLES';

/** The environment variables that carry `cfg` to a child process. */
export function targetToEnv(cfg: TargetConfig): Record<string, string> {
  const open: Record<string, unknown> = { ...cfg };
  const env: Record<string, string> = {};
  for (const s of SECRETS) {
    const value = open[s.field];
    delete open[s.field];
    if (typeof value === 'string' && value) env[s.env] = value;
  }
  return { [TARGET_ENV]: JSON.stringify(open), [SECRET_VARIABLES_ENV]: SECRETS.map(s => s.env).join(','), ...env };
}

/** Every secret of `cfg` added to `redactor`, each named by its variable. */
export function redactTargetSecrets(redactor: Redactor, cfg: TargetConfig): Redactor {
  for (const s of SECRETS) redactor.add(cfg[s.field] as string | undefined, s.env);
  return redactor;
}

/** The target a worker runs against; a missing variable means the suites were started without `run`. */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const json = env[TARGET_ENV];
  if (!json) throw new HarnessError('PIS_MISSING_OPTION', `${TARGET_ENV} is not set: start the suites with 'pis-conformance run', which sets it.`);
  const secrets = Object.fromEntries(SECRETS.map(s => [s.field, env[s.env] || undefined]));
  return { ...JSON.parse(json), ...secrets } as TargetConfig;
}

/** The target as results.json shows it: URLs without their userinfo, never a secret. */
export function reportTarget(cfg: TargetConfig): Record<string, string | undefined> {
  const url = (u: string | undefined) => (u === undefined ? undefined : redactUrlUserinfo(u));
  return {
    authUrl: url(cfg.authUrl), realm: cfg.realm, clientId: cfg.clientId, baseUrl: url(cfg.baseUrl), controlUrl: url(cfg.controlUrl),
    ...(cfg.bundledReference ? { implementation: 'bundled reference' } : {}),
  };
}
