// Paths and header names of docs/profile.md: defaults that a target's YAML
// config overrides one by one (docs/profile.md: "Every path and header name below is
// a default that a target's config can override"), at the API version under
// test: names changed in 3.0.0 (spec 9).
import { atLeast, type ApiVersion } from '../contracts/api-versions.ts';

/** Paths relative to {base_url} (the token path is relative to {auth_url}); `{name}` is filled in by `fillPath`. */
export const DEFAULT_PATHS = {
  token: '/auth/realms/{realm}/protocol/openid-connect/token',
  banks: '/banks',
  bank: '/banks/{bankId}',
  sessions: '/session',
  session: '/session/{sessionId}',
  consent: '/consent/{sessionId}',
  accounts: '/accounts',
  transactions: '/accounts/{accountId}/transactions',
  confirmFunds: '/confirm-funds',
  payments: '/payments/{product}',
  payment: '/payments/{product}/{paymentId}',
  authorize: '/payments/{product}/{paymentId}/authorize',
} as const;

export type PathName = keyof typeof DEFAULT_PATHS;
export type Paths = Record<PathName, string>;

/**
 * The names before 3.0.0 (spec 9: "POST /fundsconfirmations became POST
 * /confirm-funds, GET /consent became GET /session, DELETE /consent became
 * DELETE /session, POST /consent became GET /consent"). There were no
 * sessions: a consent stands alone (docs/profile.md, API versions). POST
 * /consent starts one at a bank (`sessions`) and, given its id, asks for its
 * consent URL again (`consent`); GET and DELETE /consent/{consentId} read and
 * end it (2.0.0).
 */
const BEFORE_SESSIONS: Partial<Paths> = {
  sessions: '/consent',
  session: '/consent/{consentId}',
  consent: '/consent',
  confirmFunds: '/fundsconfirmations',
};

/** The default paths at an API version: the names of that version. */
export function pathsAt(v: ApiVersion): Paths {
  return atLeast(v, '3.0.0') ? { ...DEFAULT_PATHS } : { ...DEFAULT_PATHS, ...BEFORE_SESSIONS };
}

/** Header names of docs/profile.md; `authScheme` is the word before the token in Authorization. */
export const DEFAULT_HEADERS = {
  authScheme: 'Bearer',
  device: 'x-device-id',
  session: 'x-session-id',
  psuIpAddress: 'x-psu-ip-address',
  redirectUrl: 'x-redirect-url',
  requestId: 'x-request-id',
} as const;

type HeaderName = keyof typeof DEFAULT_HEADERS;
export type Headers = Record<HeaderName, string>;

/** The default header names at an API version: before 3.0.0 a call names its consent, not a session (docs/profile.md, API versions). */
export function headersAt(v: ApiVersion): Headers {
  return atLeast(v, '3.0.0') ? { ...DEFAULT_HEADERS } : { ...DEFAULT_HEADERS, session: 'x-consent-id' };
}

/** Replaces `{name}` placeholders with URL-encoded values; a missing value is a bug of the caller. */
/** A lone UTF-16 surrogate: text a JSON string may hold but UTF-8, and so a URL, cannot carry. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a value can go into a URL path as it is (percent-encoded UTF-8). */
export const urlEncodable = (v: string): boolean => !LONE_SURROGATE.test(v);

/** A path value no URL can carry: the call cannot be made as asked, which says nothing about the target. */
export class UnencodableValue extends Error {
  constructor(readonly param: string, readonly value: string) {
    super(`the value ${JSON.stringify(value)} for {${param}} holds a lone UTF-16 surrogate, which no URL can carry (UTF-8 has no form for it)`);
  }
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) throw new Error(`path ${template} needs a value for {${k}}`);
    if (!urlEncodable(v)) throw new UnencodableValue(k, v);
    return encodeURIComponent(v);
  });
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}
