// The bundled reference implementation as the default target of `run` (and of
// `npm start`): started on a free loopback port, its URLs and credentials as a
// config source. The suites still reach it over HTTP only.
import type { PartialConfig } from '../target/config.ts';

/**
 * The default time scale for the bundled reference only: 1 spec second = 0.1
 * real seconds. The webhook suite's backoff and timeout checks then take
 * seconds instead of minutes, and 0.1 keeps the shortest timed spec duration
 * (the 5 s webhook timeout, 500 ms real) far above timer noise on a busy machine.
 */
export const BUNDLED_TIME_SCALE = 0.1;

export interface Bundled { config: PartialConfig; close(): Promise<void> }

export async function startBundled(opts: { timeScale: number; faults: string[]; webhookApiKey: string }): Promise<Bundled> {
  const { startReference } = await import('../reference/index.ts');
  const ref = await startReference({ host: '127.0.0.1', port: 0, timeScale: opts.timeScale, faults: opts.faults, webhookApiKey: opts.webhookApiKey });
  return {
    config: {
      authUrl: ref.authUrl, realm: ref.realm, clientId: ref.clientId, clientSecret: ref.clientSecret,
      baseUrl: ref.baseUrl, controlUrl: ref.controlUrl, webhookApiKey: opts.webhookApiKey, timeScale: ref.timeScale,
      bundledReference: true,
    },
    close: () => ref.close(),
  };
}
