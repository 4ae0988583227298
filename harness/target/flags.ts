// The target flags of `run` (docs/cli.md) as a config source.
import { HarnessError } from '../errors.ts';
import { numberFlag, PORT } from '../flag-values.ts';
import { apiVersionSetting, CONSENT_DRIVERS, positive, type ConsentDriverName, type PartialConfig } from './config.ts';
import { loadConsentScript } from './file.ts';
import { parseBanks } from './banks.ts';

export const TARGET_FLAGS = {
  'auth-url': { type: 'string' },
  'realm': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'base-url': { type: 'string' },
  'control-url': { type: 'string' },
  'webhook-api-key': { type: 'string' },
  'sink-host': { type: 'string' },
  'sink-port': { type: 'string' },
  'public-sink-url': { type: 'string' },
  'time-scale': { type: 'string' },
  'max-wait': { type: 'string' },
  'session-lifetime': { type: 'string' },
  'no-profile': { type: 'boolean' },
  'consent-driver': { type: 'string' },
  'consent-script': { type: 'string' },
  'bank-id': { type: 'string' },
  'banks': { type: 'string' },
  'api-version': { type: 'string' },
} as const;

export type TargetFlagValues = { [K in keyof typeof TARGET_FLAGS]?: (typeof TARGET_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

export function fromFlags(v: TargetFlagValues): PartialConfig {
  const out: PartialConfig = {};
  const str = { 'auth-url': 'authUrl', 'realm': 'realm', 'client-id': 'clientId', 'client-secret': 'clientSecret', 'base-url': 'baseUrl',
    'control-url': 'controlUrl', 'webhook-api-key': 'webhookApiKey', 'sink-host': 'sinkHost', 'public-sink-url': 'publicSinkUrl' } as const;
  for (const [flag, key] of Object.entries(str)) {
    const x = v[flag as keyof typeof str];
    if (x !== undefined) (out as Record<string, unknown>)[key] = x;
  }
  if (v['sink-port'] !== undefined) out.sinkPort = numberFlag('sink-port', v['sink-port'], 0, PORT);
  if (v['time-scale'] !== undefined) out.timeScale = positive(v['time-scale'], '--time-scale');
  if (v['max-wait'] !== undefined) out.maxWaitS = numberFlag('max-wait', v['max-wait'], 60, { min: 0 });
  if (v['session-lifetime'] !== undefined) out.sessionLifetimeS = positive(v['session-lifetime'], '--session-lifetime');
  if (v['no-profile']) out.profile = false;
  if (v['api-version'] !== undefined) out.apiVersion = apiVersionSetting(v['api-version'], '--api-version');
  if (v.banks !== undefined && v['bank-id'] !== undefined) throw new HarnessError('PIS_BAD_FLAG', '--bank-id is short for --banks ID: give one of them, not both.');
  if (v.banks !== undefined) out.banks = parseBanks(v.banks, '--banks');
  if (v['bank-id'] !== undefined) out.banks = parseBanks(v['bank-id'], '--bank-id');
  if (v['consent-driver'] !== undefined) {
    if (!(CONSENT_DRIVERS as readonly string[]).includes(v['consent-driver']))
      throw new HarnessError('PIS_BAD_FLAG', `--consent-driver must be one of ${CONSENT_DRIVERS.join(', ')}, not '${v['consent-driver']}'.`);
    out.consentDriver = v['consent-driver'] as ConsentDriverName;
  }
  if (v['consent-script'] !== undefined) {
    out.consentScript = loadConsentScript(v['consent-script']);
    out.consentDriver ??= 'browser';
  }
  return out;
}
