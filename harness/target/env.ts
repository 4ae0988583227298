// How the resolved target reaches the Playwright workers: the non-secret part as
// one JSON variable, the secrets in their own variables of docs/cli.md
// (a child's environment is not shown by `ps`, its argv is).
import { HarnessError } from '../errors.ts';
import type { TargetConfig } from './config.ts';
import { redactUrlUserinfo } from '../http/url.ts';

export const TARGET_ENV = 'PIS_TARGET_JSON';

const SECRET_FIELDS = { clientSecret: 'PIS_CLIENT_SECRET', webhookApiKey: 'PIS_WEBHOOK_API_KEY' } as const;

/** The environment variables that carry `cfg` to a child process. */
export function targetToEnv(cfg: TargetConfig): Record<string, string> {
  const { clientSecret, webhookApiKey, ...open } = cfg;
  const env: Record<string, string> = { [TARGET_ENV]: JSON.stringify(open), [SECRET_FIELDS.clientSecret]: clientSecret };
  if (webhookApiKey) env[SECRET_FIELDS.webhookApiKey] = webhookApiKey;
  return env;
}

/** The target a worker runs against; a missing variable means the suites were started without `run`. */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): TargetConfig {
  const json = env[TARGET_ENV];
  if (!json) throw new HarnessError('PIS_MISSING_OPTION', `${TARGET_ENV} is not set: start the suites with 'pis-conformance run', which sets it.`);
  const open = JSON.parse(json) as Omit<TargetConfig, 'clientSecret' | 'webhookApiKey'>;
  return { ...open, clientSecret: env[SECRET_FIELDS.clientSecret] ?? '', webhookApiKey: env[SECRET_FIELDS.webhookApiKey] || undefined };
}

/** The target as results.json shows it: URLs without their userinfo, never a secret. */
export function reportTarget(cfg: TargetConfig): Record<string, string | undefined> {
  const url = (u: string | undefined) => (u === undefined ? undefined : redactUrlUserinfo(u));
  return {
    authUrl: url(cfg.authUrl), realm: cfg.realm, clientId: cfg.clientId, baseUrl: url(cfg.baseUrl), controlUrl: url(cfg.controlUrl),
    ...(cfg.bundledReference ? { implementation: 'bundled reference' } : {}),
  };
}
