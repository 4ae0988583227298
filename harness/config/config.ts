// The target of a run and how the suites should treat it (docs/cli.md):
// every value comes from a flag, else an environment variable, else the YAML
// config file, else a default; which options there are, and how each is read,
// is the table of options.ts. Secrets are kept here and passed on only through
// the environment (never argv, which `ps` shows) and never into a report.
import { HarnessError } from '../errors.ts';
import { headersAt, pathsAt } from './profile.ts';
import { LATEST_API_VERSION } from '../contracts/api-versions.ts';
import type { Given } from './kinds.ts';
import { CONFIG_KEYS, TARGET_OPTIONS, type TargetOption } from './options.ts';
import type { PartialConfig, SuiteName, TargetConfig } from './target-config.ts';

export { SUITES, type PartialConfig, type TargetConfig } from './target-config.ts';

type Field = keyof PartialConfig;

/** Where a source's values come from: flags and variables as the user typed them, or a config file. */
type Source = { from: 'flags' } | { from: 'env' } | { from: 'file'; file: string };

function givenAt(o: TargetOption, source: Source, key: string): Given {
  switch (source.from) {
    case 'flags': return { what: `--${o.name}`, code: 'PIS_BAD_FLAG' };
    case 'env': return { what: o.env!, code: 'PIS_BAD_CONFIG' };
    case 'file': return { what: `Config file ${source.file}: '${key}'`, code: 'PIS_BAD_CONFIG', file: source.file };
  }
}

/**
 * Reads one source: each value checked by its option's kind, into the fields
 * of PartialConfig. Two names for one setting in one source (`banks` and
 * `bank-id`, `base-url` and `baseUrl`) are refused: which one should win is a guess.
 */
function readSource(values: [TargetOption, string, unknown][], source: Source): PartialConfig {
  const out: Record<string, unknown> = {};
  const by = new Map<Field, string>();
  for (const [o, key, raw] of values) {
    const at = givenAt(o, source, key);
    const name = source.from === 'file' ? `'${key}'` : at.what;
    const first = by.get(o.field);
    if (first !== undefined) {
      const sentence = `${first} and ${name} both set ${o.field}: give one of them, not both.`;
      throw new HarnessError(at.code, source.from === 'file' ? `Config file ${source.file}: ${sentence}` : sentence);
    }
    by.set(o.field, name);
    out[o.field] = o.kind.read(raw, at);
  }
  for (const [o] of values) for (const [k, v] of Object.entries(o.implies ?? {})) out[k] ??= v;
  return out as PartialConfig;
}

/** The target flags of `run` as a config source. */
export function fromFlags(v: Record<string, unknown>): PartialConfig {
  // A switch that is not given is false or undefined: it leaves the setting to the other sources.
  return readSource(TARGET_OPTIONS.filter(o => o.flag && v[o.name] !== undefined && v[o.name] !== false).map(o => [o, o.name, v[o.name]]), { from: 'flags' });
}

/** The target variables (PIS_AUTH_URL, ...) as a config source; an empty one counts as not set. */
export function fromEnv(env: NodeJS.ProcessEnv): PartialConfig {
  return readSource(TARGET_OPTIONS.filter(o => o.env && env[o.env]).map(o => [o, o.env!, env[o.env!]]), { from: 'env' });
}

/** The settings of a config file, already checked against contracts/target-config.yaml; `file` names it in errors. */
export function fromFile(values: Record<string, unknown>, file: string): PartialConfig {
  return readSource(Object.entries(values).map(([k, v]) => [CONFIG_KEYS.get(k)!, k, v]), { from: 'file', file });
}

/** True when any source names a target; otherwise `run` starts the bundled reference. */
export function namesTarget(...sources: PartialConfig[]): boolean {
  return sources.some(s => s.authUrl !== undefined || s.baseUrl !== undefined);
}

/** Merges sources, first wins (flags, env, file), fills defaults and checks that the target is complete. */
export function resolveTarget(...sources: PartialConfig[]): TargetConfig {
  const pick = <K extends keyof PartialConfig>(k: K): PartialConfig[K] => sources.find(s => s[k] !== undefined)?.[k];
  const cfg: Record<string, unknown> = {};
  for (const o of TARGET_OPTIONS) {
    const v = pick(o.field) ?? cfg[o.field] ?? o.default;
    if (o.required && !v) {
      throw new HarnessError('PIS_MISSING_OPTION',
        `The target's ${o.name} is missing: give --${o.name}${o.env ? `, set ${o.env},` : ''} or put it in the --config file.`);
    }
    if (v !== undefined) cfg[o.field] = v;
  }
  // `detect` is settled by `run` after the pre-flight; until then the latest version's names apply.
  const asked = pick('apiVersion');
  const apiVersion = asked === undefined || asked === 'detect' ? LATEST_API_VERSION : asked;
  const out = {
    ...cfg, apiVersion,
    paths: Object.assign(pathsAt(apiVersion), ...sources.slice().reverse().map(s => s.paths ?? {})),
    headers: Object.assign(headersAt(apiVersion), ...sources.slice().reverse().map(s => s.headers ?? {})),
    bundledReference: pick('bundledReference'),
  } as TargetConfig;
  out.sessionLifetimeS ??= out.description.lifetimes.session;
  if (out.consentDriver === 'browser' && !out.consentScript?.length)
    throw new HarnessError('PIS_MISSING_OPTION', 'The browser consent driver needs a script of clicks and fills: ' +
      'give --consent-script FILE (YAML), or use --consent-driver follow or manual.');
  return out;
}

/**
 * The suites that call the API at {base_url}. The token suite talks to
 * {auth_url} (spec 4.1, 4.2) and only its token.use and token.expiry checks
 * need the API (they skip without it); the webhook suite needs the control
 * API. So an auth-server-only target (a Keycloak realm) runs `--suites token`.
 */
const API_SUITES: readonly SuiteName[] = ['session', 'data', 'payments'];

/** A base URL is required only when a selected suite needs the API. */
export function requireBaseUrl(cfg: TargetConfig, suites: readonly string[]): void {
  if (cfg.baseUrl) return;
  const needing = suites.filter(s => (API_SUITES as readonly string[]).includes(s));
  if (!needing.length) return;
  throw new HarnessError('PIS_MISSING_OPTION', `The target's base-url is missing and the ${needing.join(', ')} suite${needing.length > 1 ? 's' : ''} ` +
    `need${needing.length > 1 ? '' : 's'} it: give --base-url, set PIS_BASE_URL, or put it in the --config file ` +
    `(or run only --suites token${cfg.controlUrl ? ',webhook' : ''}).`);
}
