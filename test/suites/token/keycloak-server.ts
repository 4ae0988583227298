// A token endpoint that answers like Keycloak (17+, no /auth prefix) set up to
// issue refresh tokens for the client credentials grant: what outsiders will
// point `run --suites token` at. Every option is an answer RFC 6749 servers
// really give; the `fault` options are rule breaks the checks must still catch.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface KeycloakOptions {
  /** Real seconds per spec second, as the run's --time-scale. */
  timeScale: number;
  /** Keycloak's offline tokens say 0 ("no fixed expiry"); default 1800. */
  refreshExpiresIn?: number;
  /** Keycloak's "Revoke Refresh Token" off (default): an exchanged refresh token still works. */
  reusableRefresh?: boolean;
  /** error_description and error_uri beside `error` (default), or `error` alone. */
  errorDetails?: boolean;
  /** The Cache-Control of every answer; Pragma: no-cache is always sent beside it. */
  cacheControl?: string;
  /** Fault: a refresh answers expires_in counted down from the first grant (spec 4.2). */
  faultCountdown?: boolean;
  /** expires_in of access tokens in spec seconds (default 300, Keycloak's default). */
  accessLifetimeS?: number;
  /** Serve GET /api/banks (a resource server validating the tokens) with this clock-skew leeway past expiry, spec s; Infinity never expires. */
  apiLeewayS?: number;
  /** Fault: GET /api/banks answers this status to every call instead of serving or refusing (a failing API). */
  apiStatus?: number;
  /** GET /api/banks judges its token this many spec seconds after the call arrived (a machine that holds calls). */
  apiHoldS?: number;
}

export const REALM = 'acme';
export const CLIENT_ID = 'pis-conformance-client';
export const CLIENT_SECRET = 'kc-secret-0123456789';
/** Keycloak 17+ dropped the /auth prefix of spec 4.1's path: a `paths: token:` override is needed. */
export const TOKEN_PATH = '/realms/{realm}/protocol/openid-connect/token';


/** Looks like a JWT; nothing parses it. */
const jwt = () => ['eyJhbGciOiJSUzI1NiJ9', randomBytes(24).toString('base64url'), randomBytes(32).toString('base64url')].join('.');

export interface KeycloakServer { authUrl: string; issued: string[]; close(): Promise<void> }

export async function startKeycloak(opts: KeycloakOptions): Promise<KeycloakServer> {
  const ACCESS_S = opts.accessLifetimeS ?? 300;
  const refresh = new Map<string, { used: boolean; grantedAt: number; issuedAt: number }>();
  /** access token -> real ms when the API stops taking it. */
  const access = new Map<string, number>();
  const issued: string[] = [];
  const specS = (since: number) => (performance.now() - since) / 1000 / opts.timeScale;

  function send(res: ServerResponse, status: number, body: object, extra: Record<string, string> = {}) {
    res.writeHead(status, {
      'content-type': 'application/json;charset=UTF-8',
      'cache-control': opts.cacheControl ?? 'no-store, no-cache',
      pragma: 'no-cache',
      ...extra,
    });
    res.end(JSON.stringify(body));
  }
  function error(res: ServerResponse, status: number, code: string, description: string, extra: Record<string, string> = {}) {
    const details = opts.errorDetails === false ? {} : { error_description: description, error_uri: 'https://www.keycloak.org/docs/' };
    send(res, status, { error: code, ...details }, extra);
  }
  function grant(res: ServerResponse, grantedAt: number, first: boolean) {
    const tokens = { access: jwt(), refresh: jwt(), id: jwt() };
    issued.push(tokens.access, tokens.refresh, tokens.id);
    refresh.set(tokens.refresh, { used: false, grantedAt, issuedAt: performance.now() });
    const expiresIn = opts.faultCountdown && !first ? Math.floor(ACCESS_S - specS(grantedAt)) : ACCESS_S;
    access.set(tokens.access, performance.now() + (expiresIn + (opts.apiLeewayS ?? 0)) * 1000 * opts.timeScale);
    // Keycloak's client-credentials answer: no session_state, several scopes, id_token and not-before-policy besides 2.1.
    send(res, 200, {
      access_token: tokens.access, expires_in: expiresIn, refresh_expires_in: opts.refreshExpiresIn ?? 1800,
      refresh_token: tokens.refresh, token_type: 'Bearer', id_token: tokens.id, 'not-before-policy': 0,
      scope: 'openid profile email',
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (opts.apiLeewayS !== undefined && req.method === 'GET' && req.url?.split('?')[0] === '/api/banks') {
      if (opts.apiStatus) return send(res, opts.apiStatus, { error: 'server_error' });
      if (opts.apiHoldS) await new Promise(r => setTimeout(r, opts.apiHoldS! * 1000 * opts.timeScale));
      const until = access.get((req.headers.authorization ?? '').replace(/^Bearer /i, ''));
      if (until === undefined || performance.now() >= until)
        return send(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return send(res, 200, []);
    }
    if (req.method !== 'POST' || req.url !== TOKEN_PATH.replace('{realm}', REALM))
      return error(res, 404, 'not_found', 'Unable to find matching target resource method');
    const form = new URLSearchParams(text);
    const grantType = form.get('grant_type');
    if (!grantType) return error(res, 400, 'invalid_request', 'Missing form parameter: grant_type');
    const id = form.get('client_id'), secret = form.get('client_secret');
    const www = { 'www-authenticate': `Bearer realm="${REALM}"` };
    if (id !== CLIENT_ID) return error(res, 401, 'invalid_client', 'Invalid client or Invalid client credentials', www);
    if (!secret) return error(res, 400, 'invalid_client', 'Client secret not provided in request');
    if (secret !== CLIENT_SECRET) return error(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials', www);
    if (grantType === 'client_credentials') return grant(res, performance.now(), true);
    if (grantType !== 'refresh_token') return error(res, 400, 'unsupported_grant_type', 'Unsupported grant_type');
    const old = refresh.get(form.get('refresh_token') ?? '');
    if (!old || (old.used && !opts.reusableRefresh)) return error(res, 400, 'invalid_grant', old ? 'Stale token' : 'Invalid refresh token');
    // refresh_expires_in 0 is Keycloak's offline token: no fixed expiry.
    const life = opts.refreshExpiresIn ?? 1800;
    if (life > 0 && specS(old.issuedAt) >= life) return error(res, 400, 'invalid_grant', 'Token is not active');
    old.used = true;
    // The countdown fault keeps the first grant's clock; a conformant server starts a new one.
    grant(res, opts.faultCountdown ? old.grantedAt : performance.now(), false);
  }

  const server = createServer((req, res) => { handle(req, res).catch(() => res.destroy()); });
  server.keepAliveTimeout = 65_000; // the client closes idle connections first, as with the reference (harness/reference/index.ts)
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    authUrl: `http://127.0.0.1:${port}`, issued,
    close: () => new Promise<void>(r => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
