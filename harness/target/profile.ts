// Paths and header names of docs/profile.md: defaults that a target's YAML
// config overrides one by one (docs/profile.md: "Every path and header name below is
// a default that a target's config can override").

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

/** Replaces `{name}` placeholders with URL-encoded values; a missing value is a bug of the caller. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) throw new Error(`path ${template} needs a value for {${k}}`);
    return encodeURIComponent(v);
  });
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}
