// The target of a run and how the suites should treat it (docs/cli.md):
// every value comes from a flag, else an environment variable, else the YAML
// config file, else a default. Secrets are kept here and passed on only through
// the environment (never argv, which `ps` shows) and never into a report.
import { HarnessError } from '../errors.ts';
import { headersAt, pathsAt, type Headers, type Paths } from './profile.ts';
import { LATEST_API_VERSION, parseApiVersion, type ApiVersion } from '../contracts/api-versions.ts';
import type { BankChoice } from './banks.ts';

export const SUITES = ['token', 'session', 'data', 'payments', 'webhook'] as const;
type SuiteName = typeof SUITES[number];
export const CONSENT_DRIVERS = ['follow', 'browser', 'manual'] as const;
export type ConsentDriverName = typeof CONSENT_DRIVERS[number];

/** One step of the `browser` consent driver's YAML script. */
export type ConsentStep =
  | { goto: string }
  | { click: string }
  | { fill: string; value: string }
  | { press: string; key: string }
  | { waitFor: string }
  | { waitForUrl: string };

export interface TargetConfig {
  authUrl: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  /** Absent when only suites that never call the API run (`--suites token`, webhook): see requireBaseUrl. */
  baseUrl?: string;
  controlUrl?: string;
  webhookApiKey?: string;
  sinkHost: string;
  sinkPort: number;
  publicSinkUrl?: string;
  /** Real seconds per spec second (docs/report.md, time scale). */
  timeScale: number;
  /** Real seconds a check may wait for something to happen (token expiry), compressed clock counted. */
  maxWaitS: number;
  /** Spec seconds a consented session lasts on the target (the spec does not say); known, a check waits to see one expire. */
  sessionLifetimeS?: number;
  /** Run `profile` checks (off with --no-profile). */
  profile: boolean;
  consentDriver: ConsentDriverName;
  consentScript?: ConsentStep[];
  /** Chromium for the browser driver; default Debian's /usr/bin/chromium when it exists. */
  browserPath?: string;
  /** Sent in `x-device-id` (docs/profile.md); any stable string. */
  deviceId: string;
  /** Sent in `x-psu-ip-address` where the suites exercise that header. */
  psuIpAddress: string;
  /** Where the bank sends the end user after consent or authorisation (x-redirect-url). */
  redirectUrl: string;
  /** The banks the data and payments suites visit (--banks, --bank-id); default every listed bank up to DEFAULT_BANK_CAP. */
  banks?: BankChoice;
  /** The API version the target is tested at (spec 9): which checks exist, and the default paths and headers. */
  apiVersion: ApiVersion;
  paths: Paths;
  headers: Headers;
  /** True when the run started the bundled reference (the report says so). */
  bundledReference?: boolean;
}

/** What one source (flags, env or file) says; every field optional. */
export type PartialConfig = Partial<Omit<TargetConfig, 'paths' | 'headers' | 'apiVersion'>> & {
  paths?: Partial<Paths>;
  headers?: Partial<Headers>;
  /** `detect`: `run` probes the target for the highest version it answers to (harness/target/detect.ts). */
  apiVersion?: ApiVersion | 'detect';
};

/** `--api-version`, PIS_API_VERSION or `apiVersion:` as given: a version of spec 9, or `detect`. */
export function apiVersionSetting(value: string, what: string, code: 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG' = 'PIS_BAD_FLAG'): ApiVersion | 'detect' {
  return value.trim().toLowerCase() === 'detect' ? 'detect' : parseApiVersion(value, what, code, true);
}

const DEFAULTS = {
  realm: 'pis',
  sinkHost: '127.0.0.1',
  sinkPort: 0,
  timeScale: 1,
  maxWaitS: 60,
  profile: true,
  consentDriver: 'follow' as ConsentDriverName,
  deviceId: 'pis-conformance',
  psuIpAddress: '127.0.0.1',
  redirectUrl: 'http://127.0.0.1/pis-conformance/callback',
};

/** Environment variables of docs/cli.md. */
const ENV_NAMES = {
  authUrl: 'PIS_AUTH_URL',
  realm: 'PIS_REALM',
  clientId: 'PIS_CLIENT_ID',
  clientSecret: 'PIS_CLIENT_SECRET',
  baseUrl: 'PIS_BASE_URL',
  controlUrl: 'PIS_CONTROL_URL',
  webhookApiKey: 'PIS_WEBHOOK_API_KEY',
  timeScale: 'PIS_TIME_SCALE',
  apiVersion: 'PIS_API_VERSION',
} as const;

export function fromEnv(env: NodeJS.ProcessEnv): PartialConfig {
  const out: PartialConfig = {};
  for (const [key, name] of Object.entries(ENV_NAMES)) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (key === 'timeScale') out.timeScale = positive(v, `${name}`, 'PIS_BAD_CONFIG');
    else if (key === 'apiVersion') out.apiVersion = apiVersionSetting(v, name, 'PIS_BAD_CONFIG');
    else (out as Record<string, unknown>)[key] = v;
  }
  return out;
}

/** True when any source names a target; otherwise `run` starts the bundled reference. */
export function namesTarget(...sources: PartialConfig[]): boolean {
  return sources.some(s => s.authUrl !== undefined || s.baseUrl !== undefined);
}

/** Merges sources, first wins (flags, env, file), fills defaults and checks that the target is complete. */
export function resolveTarget(...sources: PartialConfig[]): TargetConfig {
  const pick = <K extends keyof PartialConfig>(k: K): PartialConfig[K] => sources.find(s => s[k] !== undefined)?.[k];
  const need = (k: 'authUrl' | 'clientId' | 'clientSecret', flag: string, env: string): string => {
    const v = pick(k);
    if (!v) throw new HarnessError('PIS_MISSING_OPTION', `The target's ${flag.replace(/^--/, '')} is missing: give --${flag.replace(/^--/, '')}, set ${env}, or put it in the --config file.`);
    return v as string;
  };
  // `detect` is settled by `run` after the pre-flight; until then the latest version's names apply.
  const asked = pick('apiVersion');
  const apiVersion = asked === undefined || asked === 'detect' ? LATEST_API_VERSION : asked;
  const cfg: TargetConfig = {
    authUrl: url(need('authUrl', 'auth-url', 'PIS_AUTH_URL'), 'auth-url'),
    realm: pick('realm') ?? DEFAULTS.realm,
    clientId: need('clientId', 'client-id', 'PIS_CLIENT_ID'),
    clientSecret: need('clientSecret', 'client-secret', 'PIS_CLIENT_SECRET'),
    baseUrl: optionalUrl(pick('baseUrl'), 'base-url'),
    controlUrl: optionalUrl(pick('controlUrl'), 'control-url'),
    webhookApiKey: pick('webhookApiKey'),
    sinkHost: pick('sinkHost') ?? DEFAULTS.sinkHost,
    sinkPort: pick('sinkPort') ?? DEFAULTS.sinkPort,
    publicSinkUrl: optionalUrl(pick('publicSinkUrl'), 'public-sink-url'),
    timeScale: pick('timeScale') ?? DEFAULTS.timeScale,
    maxWaitS: pick('maxWaitS') ?? DEFAULTS.maxWaitS,
    sessionLifetimeS: pick('sessionLifetimeS'),
    profile: pick('profile') ?? DEFAULTS.profile,
    consentDriver: pick('consentDriver') ?? DEFAULTS.consentDriver,
    consentScript: pick('consentScript'),
    browserPath: pick('browserPath'),
    deviceId: pick('deviceId') ?? DEFAULTS.deviceId,
    psuIpAddress: pick('psuIpAddress') ?? DEFAULTS.psuIpAddress,
    redirectUrl: url(pick('redirectUrl') ?? DEFAULTS.redirectUrl, "the --config file's redirectUrl"),
    banks: pick('banks'),
    apiVersion,
    paths: Object.assign(pathsAt(apiVersion), ...sources.slice().reverse().map(s => s.paths ?? {})),
    headers: Object.assign(headersAt(apiVersion), ...sources.slice().reverse().map(s => s.headers ?? {})),
    bundledReference: pick('bundledReference'),
  };
  if (cfg.consentDriver === 'browser' && !cfg.consentScript?.length)
    throw new HarnessError('PIS_MISSING_OPTION', 'The browser consent driver needs a script of clicks and fills: give --consent-script FILE (YAML), or use --consent-driver follow or manual.');
  return cfg;
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
  throw new HarnessError('PIS_MISSING_OPTION', `The target's base-url is missing and the ${needing.join(', ')} suite${needing.length > 1 ? 's' : ''} need${needing.length > 1 ? '' : 's'} it: give --base-url, set PIS_BASE_URL, or put it in the --config file (or run only --suites token${cfg.controlUrl ? ',webhook' : ''}).`);
}

export function positive(v: string, what: string, code: 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG' = 'PIS_BAD_FLAG'): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new HarnessError(code, `${what} must be a positive number, not '${v}'.`);
  return n;
}

/** `flag` is a flag's name (auth-url), or how to name a setting that has none (a config key). */
function url(v: string, flag: string): string {
  const what = /^[a-z-]+$/.test(flag) ? `--${flag}` : flag;
  let u: URL;
  try { u = new URL(v); } catch {
    throw new HarnessError('PIS_BAD_FLAG', `${what} '${v}' is not a URL: give an absolute http:// or https:// address.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new HarnessError('PIS_BAD_FLAG', `${what} '${v}' must start with http:// or https://.`);
  return v.replace(/\/+$/, '');
}

function optionalUrl(v: string | undefined, flag: string): string | undefined {
  return v === undefined ? undefined : url(v, flag);
}
