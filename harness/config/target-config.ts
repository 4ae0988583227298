// The shape of a target's configuration: every setting resolved (TargetConfig)
// and what one source says (PartialConfig). Its own module, below both the
// options table (options.ts, which names a field of PartialConfig per option)
// and the resolver (config.ts, which reads sources through that table), so
// neither imports the other back.
import type { ApiVersion } from '../contracts/api-versions.ts';
import type { BankChoice } from './banks.ts';
import type { ConsentStep } from './consent-script.ts';
import type { TargetDescription } from './description.ts';
import type { Headers, Paths } from './profile.ts';

export const CONSENT_DRIVERS = ['follow', 'browser', 'manual'] as const;
type ConsentDriverName = typeof CONSENT_DRIVERS[number];

export const SUITES = ['token', 'session', 'data', 'payments', 'webhook'] as const;
export type SuiteName = typeof SUITES[number];

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
  /** Spec seconds the webhook drive waits for a sender's next attempt (spec 6.5 sets no maximum delay). */
  retryWaitS: number;
  /** Drive the long chain of the webhook suite too (--long-chains): 6 failures of one event, about 630 spec s. */
  longChains: boolean;
  /** Spec seconds a consented session lasts on the target (the spec does not say); known, a check waits to see one expire. */
  sessionLifetimeS?: number;
  /** Run `profile` checks (off with --no-profile). */
  profile: boolean;
  consentDriver: ConsentDriverName;
  consentScript?: ConsentStep[];
  /** Origins besides the target's own (auth, base and control URL) the consent drivers may follow links to. */
  consentOrigins?: string[];
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
  /** Where the values the checks need live in the target's bodies, its products and lifetimes (docs/profile.md); default the profile's. */
  description: TargetDescription;
  /** True when the run started the bundled reference (the report says so). */
  bundledReference?: boolean;
  /** True when the time scale is the target's own, from its control API's /health: no flag can change its clock. */
  timeScaleFromTarget?: boolean;
}

/** What one source (flags, env or file) says; every field optional. */
export type PartialConfig = Partial<Omit<TargetConfig, 'paths' | 'headers' | 'apiVersion'>> & {
  paths?: Partial<Paths>;
  headers?: Partial<Headers>;
  /** `detect`: `run` probes the target for the highest version it answers to (harness/config/detect.ts). */
  apiVersion?: ApiVersion | 'detect';
};
