// The API versions of the spec's change history (spec 9), oldest first, and
// what each one added: the one list the command line, the reference, the
// suites and the requirement table read. A run tests a target at one version
// (`run --api-version V`, default the latest); the README's table says what
// each version added.
import { HarnessError } from '../errors.ts';

export const API_VERSIONS = ['1.0.0', '1.0.1', '1.0.2', '2.0.0', '3.0.0', '3.0.1', '3.1.0', '3.2.0'] as const;
export type ApiVersion = typeof API_VERSIONS[number];

/** The newest version of the change history, the default of every command that takes one. */
export const LATEST_API_VERSION: ApiVersion = '3.2.0';

export function isApiVersion(v: unknown): v is ApiVersion {
  return (API_VERSIONS as readonly unknown[]).includes(v);
}

/** Negative when a is older than b, 0 when equal, positive when newer. */
function compareVersions(a: ApiVersion, b: ApiVersion): number {
  return API_VERSIONS.indexOf(a) - API_VERSIONS.indexOf(b);
}

/** True when `v` is `since` or newer. */
export function atLeast(v: ApiVersion, since: ApiVersion): boolean {
  return compareVersions(v, since) >= 0;
}

/**
 * A version as a flag, variable or config key gives it (`3.1.0` or `v3.1.0`);
 * anything else is a harness error that lists the versions (and `detect` where
 * the caller takes it).
 */
export function parseApiVersion(value: string, what: string, code: 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG' = 'PIS_BAD_FLAG', orDetect = false): ApiVersion {
  const v = value.trim().replace(/^v/i, '');
  if (isApiVersion(v)) return v;
  const choices = `${API_VERSIONS.join(', ')}${orDetect ? ', or detect' : ''}`;
  throw new HarnessError(code, `${what} '${value}' is not an API version of the spec's change history: give one of ${choices}.`);
}
