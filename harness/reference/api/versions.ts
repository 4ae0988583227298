// What the reference serves at each API version (spec 9), in one table: a
// feature is there from the version that added it. The reference at version V
// serves V's operations under V's names and nothing newer, so a suite at V
// that leans on a later feature fails against it.
import { atLeast, type ApiVersion } from '../../contracts/api-versions.ts';

const SINCE = {
  /** 1.0.1: "Payment strong customer authentication with redirect". */
  'authorize': '1.0.1',
  /** 1.0.2: "Confirm available funds added" (POST /fundsconfirmations). */
  'confirm-funds': '1.0.2',
  /** 2.0.0: domestic payments, consent status and delete, bank by id, bank list filters, x-redirect-url, optional x-psu-ip-address. */
  'domestic-transfer': '2.0.0',
  'consent-status': '2.0.0',
  'bank-by-id': '2.0.0',
  'bank-filters': '2.0.0',
  'redirect-url': '2.0.0',
  'psu-ip-address': '2.0.0',
  /** 3.0.0: sessions, the renames, reworked errors, x-redirect-url on POST /authorize, endToEndIdentification. */
  'sessions': '3.0.0',
  'error-body': '3.0.0',
  'authorize-redirect-url': '3.0.0',
  'end-to-end-id': '3.0.0',
  'domestic-scheduled-transfer': '3.1.0',
  'sepa-scheduled-credit': '3.2.0',
  'consent-psu-ip-address': '3.2.0',
  /**
   * The later changes section 9 lists without a number (account names,
   * counterparty fields, the Nordic status codes, instant payments): at the
   * latest version only (docs/profile.md, API versions).
   */
  'later-changes': '3.2.0',
} as const satisfies Record<string, ApiVersion>;

export type Feature = keyof typeof SINCE;

/** The features the reference has at `version`: two versions with the same features are served alike. */
export function featuresAt(version: ApiVersion): Feature[] {
  return (Object.keys(SINCE) as Feature[]).filter(f => atLeast(version, SINCE[f]));
}

/** True when the reference at `version` has the feature. */
export function has(ctx: { version: ApiVersion }, f: Feature): boolean {
  return atLeast(ctx.version, SINCE[f]);
}

/** The supportedServices values that exist at the version (spec 9: 3.1.0, 3.2.0, and a later change). */
export function servicesAt(ctx: { version: ApiVersion }, services: readonly string[]): string[] {
  const value: Record<string, Feature> = {
    'domestic-scheduled-transfer': 'domestic-scheduled-transfer',
    'sepa-scheduled-credit': 'sepa-scheduled-credit',
    'instant-domestic-transfer': 'later-changes',
  };
  return services.filter(s => !value[s] || has(ctx, value[s]!));
}
