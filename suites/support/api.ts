// How the suites call a target: URLs from docs/profile.md's paths (or the config's
// overrides), the headers docs/profile.md names, the access token. A call made for a
// check is recorded as its evidence; a call made to set something up (c = null)
// that gets no answer is a Prerequisite, so the checks that depend on it skip.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { READ_LIMIT_BYTES } from '../../harness/http/body.ts';
import { UnencodableValue, fillPath, joinUrl, type PathName } from '../../harness/config/profile.ts';
import { type CheckContext, Prerequisite, send } from './check.ts';
import { target } from './target.ts';
import { refusedEarly, sharedToken, SLOW_CALL_REMEDY } from './tokens.ts';
import { isConsentError } from './describe.ts';
import { isAbsoluteUrl } from '../../harness/http/url.ts';

export { isAbsoluteUrl };

export interface CallOptions {
  query?: Record<string, string>;
  body?: unknown;
  /** Extra headers; an empty value leaves a default header out. */
  headers?: Record<string, string>;
  /** Sent in the session header (x-session-id). */
  session?: string;
  /** The bearer token to send; default the worker's current token; null sends none. */
  token?: string | null;
  label?: string;
}

export function apiUrl(path: PathName, params: Record<string, string> = {}, query?: Record<string, string>): string {
  const t = target();
  // `run` asks for a base URL whenever a suite that needs the API is chosen; this is the net for any other check.
  if (!t.baseUrl) throw new Prerequisite(`this check calls the API and no base URL was given (--base-url or PIS_BASE_URL)`);
  // Before 3.0.0 a consent plays the session's part: its path names it {consentId} (harness/config/profile.ts).
  const values = params.sessionId !== undefined && params.consentId === undefined ? { ...params, consentId: params.sessionId } : params;
  let url: string;
  try { url = joinUrl(t.baseUrl, fillPath(t.paths[path], values)); } catch (e) {
    if (e instanceof UnencodableValue) throw new Prerequisite(e.message);
    throw e;
  }
  const q = query && Object.keys(query).length ? '?' + new URLSearchParams(query).toString() : '';
  return url + q;
}

/** The token the calls inside withToken() send instead of the worker's. */
const tokenInUse = new AsyncLocalStorage<{ token: string | null }>();

/**
 * Runs `body` with every API call made inside it sending `token` (null: none)
 * in place of the worker's shared token: the same request a helper of the
 * suites makes, with another token. A call that names its own token keeps it.
 */
export function withToken<T>(token: string | null, body: () => Promise<T>): Promise<T> {
  return tokenInUse.run({ token }, body);
}

/**
 * Runs `body` with the worker's shared token, even inside withToken: what a
 * call under test builds on (a consented session, consent given again) is made
 * as the suites make it elsewhere, so a token a check chose (an expired one, or
 * none) is sent only by the call it judges.
 */
export function withWorkerToken<T>(body: () => Promise<T>): Promise<T> {
  return tokenInUse.exit(body);
}

/** Calls an API operation of docs/profile.md with the device, session and authorization headers. */
export function call(c: CheckContext | null, method: string, path: PathName, params: Record<string, string> = {},
  opts: CallOptions = {}): Promise<ExchangeResponse> {
  return callUrl(c, method, apiUrl(path, params, opts.query), opts);
}

/** The same for an absolute URL the target handed out (a link of an answer). */
export async function callUrl(c: CheckContext | null, method: string, url: string, opts: CallOptions = {}): Promise<ExchangeResponse> {
  const t = target();
  const chosen = opts.token !== undefined ? { token: opts.token } : tokenInUse.getStore();
  const shared = chosen ? undefined : await sharedToken();
  const token = shared ? shared.token : chosen!.token;
  const headers: Record<string, string> = { accept: 'application/json', [t.headers.device]: t.deviceId };
  if (token !== null) headers.authorization = `${t.headers.authScheme} ${token}`;
  if (opts.session) headers[t.headers.session] = opts.session;
  Object.assign(headers, opts.headers ?? {});
  // An empty value removes a default header (a check that sends a call without it).
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  // Answers are kept whole up to the read limit: a list (the bank list of a large bank group) may pass the 1 MiB other calls keep.
  const res = await send(c, { method, url, headers, body: opts.body, label: opts.label, wholeBytes: READ_LIMIT_BYTES });
  if (!isTokenRefusal(res) || !shared) return res;
  // A 401 to the worker's token before the end its expires_in stated is never repaired: the call's check does not run,
  // and says why (token.use.until-expires-in judges whether the target serves a token until its stated end).
  const age = ((performance.now() - shared.sentAt) / 1000).toFixed(2);
  if (refusedEarly(shared, performance.now())) {
    c?.note(`the target refused the worker's access token (401) ${age} s (real) after it was asked for, before the end of its ` +
      `expires_in of ${shared.lifeS} s: a live token was refused; the call was not repeated`);
    throw new Prerequisite(`the target refused a live access token (401) ${age} s (real) after it was asked for, before the end of its ` +
      `expires_in of ${shared.lifeS} s (${method} ${url}; token.use.until-expires-in judges this)`);
  }
  // A token whose stated lifetime had passed when the answer came (a slow call on a compressed clock): renewed, up to
  // RENEWALS times while each new token too is refused only at or after its stated end. A clean-clone CI run at load
  // 11 saw a renewed token of 2 real seconds refused 2.94 s after it was asked for, at four operations of one run.
  c?.note(`the target refused the worker's access token (401) ${age} s (real) after it was asked for, ${shared.lifeS === undefined
    ? 'a token whose answer stated no expires_in' : `at or after the end of its expires_in of ${shared.lifeS} s`}; ` +
    'a new token was asked for and the call repeated');
  for (let n = 1; ; n++) {
    const renewed = await sharedToken(true);
    headers.authorization = `${t.headers.authScheme} ${renewed.token}`;
    const again = await send(c, { method, url, headers, body: opts.body, label: opts.label && `${opts.label} (with a renewed token${n > 1 ? `, ${n}` : ''})`,
      wholeBytes: READ_LIMIT_BYTES });
    if (!isTokenRefusal(again)) return again;
    // Refused again: the answer says nothing of what the call's check asks, so the check does not run, and says why.
    const renewedAge = ((performance.now() - renewed.sentAt) / 1000).toFixed(2);
    if (refusedEarly(renewed, performance.now()))
      throw new Prerequisite(`the target refused a live access token (401) ${renewedAge} s (real) after it was asked for, before the end of its ` +
        `expires_in of ${renewed.lifeS} s (${method} ${url}, with a renewed token; token.use.until-expires-in judges this)`);
    if (n === RENEWALS)
      throw new Prerequisite(`the target refused the renewed access token too (401), ${RENEWALS} times, the last ${renewedAge} s (real) after it was ` +
        `asked for, at or after the end of its expires_in${renewed.lifeS === undefined ? '' : ` of ${renewed.lifeS} s`} (${method} ${url}): the call ` +
        'outlasted the token\'s lifetime at this time scale', SLOW_CALL_REMEDY);
    c?.note(`the renewed access token was refused too (401), ${renewedAge} s (real) after it was asked for, at or after the end of its ` +
      'expires_in; another was asked for and the call repeated');
  }
}

/** New tokens asked for when the worker's is refused at or after its stated end (arbitrary: a few, for a machine's load spikes). */
const RENEWALS = 3;

/**
 * A 401 without a link to the consent request: the access token was refused.
 * A 401 that carries one is the consent-link error of spec 4.4 (a target may
 * answer it with 401), not a refused token.
 */
const isTokenRefusal = (r: ExchangeResponse) => r.status === 401 && !isConsentError(r);

/** 2xx. */
export const ok = (r: ExchangeResponse) => r.status >= 200 && r.status < 300;
/** Any 4xx or 5xx: docs/profile.md lets a `must` check accept every error status. */
export const isError = (r: ExchangeResponse) => r.status >= 400 && r.status < 600;

/** A JSON object body, or undefined. */
export function obj(r: ExchangeResponse): Record<string, unknown> | undefined {
  return r.json && typeof r.json === 'object' && !Array.isArray(r.json) ? r.json as Record<string, unknown> : undefined;
}


