// The bundled reference implementation as the default target of `run` (and of
// `npm start`): started on a free loopback port, its URLs and credentials as a
// config source. The suites still reach it over HTTP only.
import type { PartialConfig } from '../config/config.ts';
import type { Lifetimes } from '../reference/lifetimes.ts';
import type { ApiVersion } from '../contracts/api-versions.ts';
import { specClock } from '../clock.ts';

/**
 * The default time scale for the bundled reference only: 1 spec second = 0.1
 * real seconds. The webhook suite's backoff and timeout checks then take
 * seconds instead of minutes, and 0.1 keeps the shortest timed spec duration
 * (the 5 s webhook timeout, 500 ms real) far above timer noise on a busy machine.
 */
export const BUNDLED_TIME_SCALE = 0.1;

/**
 * Lifetimes of the bundled reference in spec seconds, chosen so that a run sees
 * every token and consent expire without lasting longer. Spec 8 gives lifetimes
 * by expires_in and refresh_expires_in (3600 and 7200 are the values of the
 * shown response), so shorter stated lifetimes are conformant.
 * - 25 spec s for the access token and twice that for the refresh token and
 *   the consent: both expiry waits (at most 50 spec s plus margins) end before
 *   the webhook backoff chain of 10 + 20 + 40 = 70 spec s at every time scale,
 *   and at time scale 1 the longest (51 s) fits the default --max-wait of 60 s.
 * - At least 2 real seconds for the access token (arbitrary: a loaded machine
 *   can hold a request for tenths of a second; a token must outlive that), so
 *   on a strongly compressed clock the lifetimes grow, up to the shown 3600.
 */
export function bundledLifetimes(timeScale: number): Lifetimes {
  const accessS = Math.min(3600, Math.max(25, Math.ceil(specClock(timeScale).toSpec(2))));
  return { accessS, refreshS: 2 * accessS, consentS: 2 * accessS };
}

export interface Bundled { config: PartialConfig; close(): Promise<void> }

export async function startBundled(opts: {
  timeScale: number; faults: string[]; webhookApiKey: string; lifetimes?: Lifetimes; apiVersion?: ApiVersion;
}): Promise<Bundled> {
  const { startReference } = await import('../reference/index.ts');
  const lifetimes = opts.lifetimes ?? bundledLifetimes(opts.timeScale);
  const ref = await startReference({
    host: '127.0.0.1', port: 0, timeScale: opts.timeScale, faults: opts.faults, webhookApiKey: opts.webhookApiKey, lifetimes, apiVersion: opts.apiVersion,
  });
  return {
    config: {
      authUrl: ref.authUrl, realm: ref.realm, clientId: ref.clientId, clientSecret: ref.clientSecret,
      baseUrl: ref.baseUrl, controlUrl: ref.controlUrl, webhookApiKey: opts.webhookApiKey, timeScale: ref.timeScale,
      sessionLifetimeS: ref.lifetimes.consentS, bundledReference: true,
    },
    close: () => ref.close(),
  };
}
