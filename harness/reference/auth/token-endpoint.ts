// The token endpoint: POST {auth_url}/auth/realms/<realm>/protocol/openid-connect/token
// with the client_credentials (spec 4.1) and refresh_token (spec 4.2) grants in
// form bodies. Errors follow docs/profile.md's table (RFC 6749 5.2); every answer
// carries Cache-Control: no-store (RFC 6749 5.1) unless the token-cacheable fault is on.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header, readBody, sendJson } from '../api/http.ts';
import type { IssuedTokens, TokenStore } from './token-store.ts';
import { randomBase64url } from '../random.ts';
import type { CatalogName } from '../catalog-names.ts';

export interface TokenEndpointOptions {
  clientId: string;
  clientSecret: string;
  tokens: TokenStore;
  faults: ReadonlySet<CatalogName>;
}

interface TokenError { status: number; error: string; description: string; headers?: Record<string, string> }

/** The scope the reference grants; the spec says only "for future use". */
const SCOPE = 'pis';

interface ClientAuth { clientId?: string; clientSecret?: string; basic: boolean }

/** RFC 6749 2.3.1: credentials in an HTTP Basic header or in the form. Both are accepted. */
function clientAuth(req: IncomingMessage, form: URLSearchParams): ClientAuth {
  const auth = header(req, 'authorization');
  const m = auth && /^Basic\s+(\S+)$/i.exec(auth);
  if (m) {
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) return { clientId: decodeURIComponent(decoded.slice(0, i)), clientSecret: decodeURIComponent(decoded.slice(i + 1)), basic: true };
  }
  return { clientId: form.get('client_id') ?? undefined, clientSecret: form.get('client_secret') ?? undefined, basic: false };
}

export function createTokenEndpoint(opts: TokenEndpointOptions) {
  const { faults } = opts;

  function authenticate(c: ClientAuth, grant: string | null): TokenError | null {
    // Fault token-client-id-optional: without a client_id, the right secret alone names the client.
    const known = c.clientId === opts.clientId || (!c.clientId && c.clientSecret === opts.clientSecret && faults.has('token-client-id-optional'));
    // Fault token-wrong-secret-accepted: a wrong (but present) secret of a known client is not compared;
    // fault token-refresh-no-client-auth: the refresh grant does not compare it at all.
    const secretOk = c.clientSecret === opts.clientSecret || (!!c.clientSecret && faults.has('token-wrong-secret-accepted'))
      || (grant === 'refresh_token' && faults.has('token-refresh-no-client-auth'));
    if (known && secretOk) return null;
    const description = !c.clientId ? 'client_id is missing' : !known ? 'client is not known' :
      !c.clientSecret ? 'client_secret is missing' : 'client secret is wrong';
    // Quirk token-keycloak-errors: Keycloak answers a wrong secret or an unknown client with 401 unauthorized_client.
    const wrongOrUnknown = !!c.clientId && (!known || !!c.clientSecret);
    if (wrongOrUnknown && faults.has('token-keycloak-errors'))
      return { status: 401, error: 'unauthorized_client', description: 'Invalid client or Invalid client credentials' };
    // RFC 6749 5.2: 401 with WWW-Authenticate when the client used the Authorization header, else 400.
    return c.basic
      ? { status: 401, error: 'invalid_client', description, headers: { 'www-authenticate': 'Basic realm="pis"' } }
      : { status: 400, error: 'invalid_client', description };
  }

  function noStore(): Record<string, string> {
    return faults.has('token-cacheable') ? {} : { 'cache-control': 'no-store', pragma: 'no-cache' };
  }

  function sendError(res: ServerResponse, e: TokenError): void {
    const body: Record<string, unknown> = { error: e.error, error_description: e.description };
    // Fault token-error-leaks-token: an error answer carries a (useless) access token.
    if (faults.has('token-error-leaks-token')) body.access_token = randomBase64url(32);
    sendJson(res, e.status, body, { ...noStore(), ...e.headers });
  }

  function answer(t: IssuedTokens, grant: 'client_credentials' | 'refresh_token'): Record<string, unknown> {
    const first = grant === 'client_credentials';
    const tokenType = faults.has('token-type-mac') ? 'mac' : faults.has('token-type-capitalized') ? 'Bearer' : 'bearer';
    const body: Record<string, unknown> = { access_token: t.accessToken, expires_in: t.expiresIn, refresh_expires_in: t.refreshExpiresIn };
    // Fault token-no-refresh-token: the client-credentials answer lacks refresh_token (nothing else changes).
    if (!(first && faults.has('token-no-refresh-token'))) body.refresh_token = t.refreshToken;
    body.token_type = tokenType;
    // Quirk extra-fields: what Keycloak adds beyond spec 2.1.
    if (faults.has('extra-fields')) body['not-before-policy'] = 0;
    // Quirk token-scope-absent: the first answer has neither; spec 2.1 requires scope only in the refresh answer.
    if (!(first && faults.has('token-scope-absent'))) Object.assign(body, { session_state: t.sessionState, scope: SCOPE });
    return body;
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST', ...noStore() });
      return;
    }
    const type = (header(req, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    const text = await readBody(req);
    if (type !== 'application/x-www-form-urlencoded')
      return sendError(res, { status: 400, error: 'invalid_request', description: 'the body must be application/x-www-form-urlencoded (spec 4.1)' });
    const form = new URLSearchParams(text);
    const grant = form.get('grant_type');
    const denied = authenticate(clientAuth(req, form), grant);
    if (denied) return sendError(res, denied);
    if (!grant) return sendError(res, { status: 400, error: 'invalid_request', description: 'grant_type is missing' });
    if (grant === 'client_credentials') {
      sendJson(res, 200, answer(opts.tokens.issue(opts.clientId), grant), noStore());
      return;
    }
    if (grant === 'refresh_token') {
      const refreshToken = form.get('refresh_token');
      // Fault token-refresh-token-optional: a refresh grant without refresh_token is served like the client credentials grant.
      if (!refreshToken && faults.has('token-refresh-token-optional'))
        return void sendJson(res, 200, answer(opts.tokens.issue(opts.clientId), grant), noStore());
      if (!refreshToken) return sendError(res, { status: 400, error: 'invalid_request', description: 'refresh_token is missing' });
      const r = opts.tokens.exchange(refreshToken, opts.clientId);
      if (!r.ok) return sendError(res, { status: 400, error: 'invalid_grant', description: r.why });
      sendJson(res, 200, answer(r.tokens, grant), noStore());
      return;
    }
    sendError(res, { status: 400, error: 'unsupported_grant_type', description: `grant_type '${grant}' is not supported` });
  };
}
