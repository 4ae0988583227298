// The API's error answers, per docs/profile.md "Error body": one shape for every
// error, four-digit string codes, and the production service's HTTP statuses
// (510 for client errors) unless the `api-errors-4xx` quirk asks for the
// 400/404/409 a careless suite might insist on, or the `api-errors-401-403`
// quirk for 400/401/403/404: the consent-link error as 401 and the strong-
// customer-authentication error as 403. 401 (bad access token) and 501
// (confirm-funds unsupported) are fixed by docs/profile.md and spec 7 under all.
import type { CatalogName } from '../catalog-names.ts';

export type ErrorType = 'FATAL' | 'NETWORK' | 'BAD_REQUEST' | 'AUTH' | 'CONSENT';

export interface ErrorLink {
  type: string;
  rel: string;
  href: string;
  meta?: Record<string, string>;
}

/** The status the production service uses for client errors (docs/profile.md). */
const PRODUCTION_CLIENT_ERROR = 510;

/** Statuses under the `api-errors-401-403` quirk, by errorCode; an error not named here keeps its 4xx of the `api-errors-4xx` quirk, 409 as 400. */
const STATUS_401_403: Record<string, number> = { '1426': 401, '1428': 403 };

export class ApiError extends Error {
  constructor(
    readonly errorCode: string,
    message: string,
    readonly type: ErrorType,
    /** The status under the `api-errors-4xx` quirk. */
    readonly status4xx: 400 | 404 | 409,
    readonly links: ErrorLink[] = [],
    /** A status both modes use (401, 501): fixed by the profile or the spec. */
    readonly fixedStatus?: number,
    readonly headers: Record<string, string> = {},
  ) {
    // An answer, not a failure of the reference: no stack trace is captured, the costliest part of making an Error.
    const depth = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = depth;
  }

  status(faults: ReadonlySet<CatalogName>): number {
    if (this.fixedStatus) return this.fixedStatus;
    if (faults.has('api-errors-401-403')) return STATUS_401_403[this.errorCode] ?? (this.status4xx === 409 ? 400 : this.status4xx);
    return faults.has('api-errors-4xx') ? this.status4xx : PRODUCTION_CLIENT_ERROR;
  }

  body(id: string, timestamp: number): Record<string, unknown> {
    return { id, errorCode: this.errorCode, message: this.message, source: 'C', type: this.type, timestamp, links: this.links };
  }

  /**
   * The answer before 3.0.0 reworked error handling (spec 7, 9): a plain 4xx
   * or 5xx with the message and, where there is one, the link to follow
   * (docs/profile.md, API versions). No error codes then.
   */
  before3(): { status: number; body: Record<string, unknown> } {
    const links = this.links.map(l => ({ rel: l.rel, href: l.href }));
    return { status: this.fixedStatus ?? this.status4xx, body: { message: this.message, ...(links.length ? { links } : {}) } };
  }
}

// The codes docs/profile.md names. Codes it does not name (1007, 1008, 1401, 1501) are
// this reference's own choice; no check may assert them.

export const missingHeader = (name: string) =>
  new ApiError('1001', `Missing required header ${name}`, 'BAD_REQUEST', 400);

export const missingParameter = (name: string, why = 'is required') =>
  new ApiError('1002', `Parameter ${name} ${why}`, 'BAD_REQUEST', 400);

export const invalidId = (what: string, id: string) =>
  new ApiError('1003', `Invalid ${what} id '${id}'`, 'BAD_REQUEST', 404);

export const invalidPsuIp = (value: string) =>
  new ApiError('1004', `Invalid x-psu-ip-address '${value}'`, 'BAD_REQUEST', 400);

export const invalidRedirect = (value: string) =>
  new ApiError('1005', `Invalid redirect URL '${value}': give an absolute http or https URL`, 'BAD_REQUEST', 400);

/** Spec 8: "an error code relates to exceeding" a bank account's payment amount limit; which code is not shown. */
export const limitExceeded = (limit: number) =>
  new ApiError('1008', `The amount exceeds the account's payment limit of ${limit.toFixed(2)}`, 'BAD_REQUEST', 400);

export const unsupportedProduct = (product: string, bankId: string) =>
  new ApiError('1007', `Bank ${bankId} does not support ${product}`, 'BAD_REQUEST', 400);

/** The consent-link error of spec 4.4 and 7: errorCode 1426 with a link to the consent request. */
export const consentRequired = (sessionId: string, href: string, why: string) =>
  new ApiError('1426', `Consent required: ${why}`, 'CONSENT', 409,
    [{ type: 'GET', rel: 'consent', href, meta: { id: sessionId } }]);

/** Spec 9 (1.0.1): the payment needs strong customer authentication; the link leads to its authorize call. */
export const scaRequired = (paymentId: string, href: string) =>
  new ApiError('1428', 'Payment requires strong customer authentication', 'AUTH', 409,
    [{ type: 'POST', rel: 'authorize', href, meta: { id: paymentId } }]);

/** docs/profile.md: an expired or wrong access token is 401 (RFC 6750 3.1 for the header). */
export const unauthorized = (why: string) =>
  new ApiError('1401', `Unauthorized: ${why}`, 'AUTH', 400, [], 401,
    { 'www-authenticate': `Bearer realm="pis", error="invalid_token", error_description="${why}"` });

/** Spec 7: providers that do not support confirm-funds return a Not Implemented error. */
export const notImplemented = (what: string) =>
  new ApiError('1501', `Not implemented: ${what}`, 'FATAL', 400, [], 501);

export const notFound = (method: string, path: string) =>
  new ApiError('1404', `No operation ${method} ${path}`, 'BAD_REQUEST', 404, [], 404);

export const methodNotAllowed = (method: string, path: string, allowed: string[]) =>
  new ApiError('1405', `${method} is not allowed on ${path}: use ${allowed.join(' or ')}`, 'BAD_REQUEST', 400, [], 405, { allow: allowed.join(', ') });

/** docs/profile.md: the production service answers 520 for its own errors. */
export const internalError = (why: string) =>
  new ApiError('1500', `Internal error: ${why}`, 'FATAL', 400, [], 520);
