// How the suites call a target: URLs from docs/profile.md's paths (or the config's
// overrides), the headers docs/profile.md names, the access token. A call made for a
// check is recorded as its evidence; a call made to set something up (c = null)
// that gets no answer is a Prerequisite, so the checks that depend on it skip.
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { READ_LIMIT_BYTES } from '../../harness/http/body.ts';
import { UnencodableValue, fillPath, joinUrl, type PathName } from '../../harness/target/profile.ts';
import { type CheckContext, Prerequisite, send } from './check.ts';
import { target } from './target.ts';
import { accessToken, refusedEarly, sharedToken } from './tokens.ts';

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
  // Before 3.0.0 a consent plays the session's part: its path names it {consentId} (harness/target/profile.ts).
  const values = params.sessionId !== undefined && params.consentId === undefined ? { ...params, consentId: params.sessionId } : params;
  let url: string;
  try { url = joinUrl(t.baseUrl, fillPath(t.paths[path], values)); } catch (e) {
    if (e instanceof UnencodableValue) throw new Prerequisite(e.message);
    throw e;
  }
  const q = query && Object.keys(query).length ? '?' + new URLSearchParams(query).toString() : '';
  return url + q;
}

/** Calls an API operation of docs/profile.md with the device, session and authorization headers. */
export function call(c: CheckContext | null, method: string, path: PathName, params: Record<string, string> = {},
  opts: CallOptions = {}): Promise<ExchangeResponse> {
  return callUrl(c, method, apiUrl(path, params, opts.query), opts);
}

/** The same for an absolute URL the target handed out (a link of an answer). */
export async function callUrl(c: CheckContext | null, method: string, url: string, opts: CallOptions = {}): Promise<ExchangeResponse> {
  const t = target();
  const shared = opts.token === undefined ? await sharedToken() : undefined;
  const token = shared ? shared.token : opts.token!;
  const headers: Record<string, string> = { accept: 'application/json', [t.headers.device]: t.deviceId };
  if (token !== null) headers.authorization = `${t.headers.authScheme} ${token}`;
  if (opts.session) headers[t.headers.session] = opts.session;
  Object.assign(headers, opts.headers ?? {});
  // An empty value removes a default header (a check that sends a call without it).
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  // Answers are kept whole up to the read limit: a list (the bank list of a large bank group) may pass the 1 MiB other calls keep.
  const res = await send(c, { method, url, headers, body: opts.body, label: opts.label, wholeBytes: READ_LIMIT_BYTES });
  // The worker's shared token may run out between its renewal and its use on a compressed clock: renew once and
  // repeat, and say so in the check's evidence, with whether the token was refused before its stated end.
  if (res.status === 401 && shared) {
    const early = refusedEarly(shared, performance.now());
    const age = ((performance.now() - shared.sentAt) / 1000).toFixed(2);
    c?.note(`the target refused the worker's access token (401) ${age} s (real) after it was asked for, ${early
      ? `before the end of its expires_in of ${shared.lifeS} s: a live token was refused (token.use.until-expires-in judges this)`
      : 'at or after the end of its expires_in'}; a new token was asked for and the call repeated`);
    headers.authorization = `${t.headers.authScheme} ${await accessToken(true)}`;
    return send(c, { method, url, headers, body: opts.body, label: opts.label && `${opts.label} (with a renewed token)`, wholeBytes: READ_LIMIT_BYTES });
  }
  return res;
}

/** 2xx. */
export const ok = (r: ExchangeResponse) => r.status >= 200 && r.status < 300;
/** Any 4xx or 5xx: docs/profile.md lets a `must` check accept every error status. */
export const isError = (r: ExchangeResponse) => r.status >= 400 && r.status < 600;

/** A JSON object body, or undefined. */
export function obj(r: ExchangeResponse): Record<string, unknown> | undefined {
  return r.json && typeof r.json === 'object' && !Array.isArray(r.json) ? r.json as Record<string, unknown> : undefined;
}

/** The `links` of a body (docs/profile.md's error and consent bodies): every {rel, href} found. */
export function links(body: unknown): { rel?: string; href?: string }[] {
  const l = (body as { links?: unknown } | undefined)?.links;
  return Array.isArray(l) ? l.filter(x => x && typeof x === 'object') as { rel?: string; href?: string }[] : [];
}

export function isAbsoluteUrl(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  try { const u = new URL(s); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; }
}
