// token.issue: the client credentials grant and its answer (spec 2.1, 4.1).
import type { Check } from '../../support/register.ts';
import { isInt, issue, issuePair } from './common.ts';
import { forbidsStore } from './cache-control.ts';

export const accessToken: Check = {
  id: 'token.issue.access-token', requirements: ['R2.1-access-token', 'R4.1-obtain-token'], spec: '4.1',
  title: 'The client credentials grant answers 200 with an access_token',
  quote: 'The client posts to the token endpoint (4.1) and receives access_token and refresh_token.',
  async run(c) {
    const { res, body } = await issue(c);
    c.expect(res.status === 200, 'the client credentials grant was not answered with success', '200', String(res.status));
    c.expect(typeof body.access_token === 'string' && body.access_token.length > 0, 'the answer has no access_token',
      'access_token: a non-empty string', typeof body.access_token);
  },
};

export const expiresIn: Check = {
  id: 'token.issue.expires-in', requirements: ['R2.1-expires-in'], spec: '2.1',
  title: 'expires_in is a whole number of seconds',
  quote: 'expires_in | integer | Lifetime of access_token in seconds.',
  async run(c) {
    const { body } = await issuePair(c, false);
    c.expect(isInt(body.expires_in) && body.expires_in > 0, 'expires_in is not a positive integer',
      'a positive integer', JSON.stringify(body.expires_in) ?? 'absent');
  },
};

/**
 * refresh_expires_in 0 is Keycloak's "no fixed expiry" (offline tokens without
 * an offline-session limit). Spec 2.1 says only "integer | Lifetime of
 * refresh_token in seconds"; read literally, 0 would be a refresh token dead on
 * arrival, which no server means when it hands one out, and a refresh token that
 * really does not work fails token.refresh.answers-tokens anyway. So 0 is no
 * violation of 2.1 at any level (a false alarm costs more than this miss): the
 * check passes and says how it read the value. Negative, fractional or missing
 * is no lifetime at all and fails.
 */
export const refreshToken: Check = {
  id: 'token.issue.refresh-token', requirements: ['R2.1-refresh-token', 'R2.1-refresh-expires-in'], spec: '2.1',
  title: 'The answer carries a refresh_token and its lifetime',
  quote: 'Clients authenticate with the OAuth 2.0 client credentials grant and receive a bearer access token and a refresh token.',
  async run(c) {
    const { body } = await issuePair(c, false);
    c.expect(typeof body.refresh_token === 'string' && body.refresh_token.length > 0, 'the answer has no refresh_token',
      'refresh_token: a non-empty string', body.refresh_token === undefined ? 'absent' : typeof body.refresh_token);
    const life = body.refresh_expires_in;
    c.expect(isInt(life) && life >= 0, 'refresh_expires_in is not a lifetime in whole seconds',
      'an integer >= 0 (0: no fixed expiry)', JSON.stringify(life) ?? 'absent');
    if (life === 0) c.summary = 'refresh_expires_in is 0, read as "no fixed expiry" (Keycloak\'s value for offline tokens).';
  },
};

export const tokenType: Check = {
  id: 'token.issue.token-type', requirements: ['R2.1-token-type-bearer'], spec: '2.1',
  title: 'token_type is bearer, in any letter case',
  quote: 'token_type | string | Always bearer for these calls. Case-insensitive.',
  async run(c) {
    const { body } = await issuePair(c, false);
    c.expect(typeof body.token_type === 'string' && body.token_type.toLowerCase() === 'bearer', 'token_type is not bearer',
      '"bearer" in any letter case', JSON.stringify(body.token_type) ?? 'absent');
  },
};

export const optionalFields: Check = {
  id: 'token.issue.optional-fields', requirements: ['R2.1-session-state', 'R2.1-scope'], spec: '2.1',
  title: 'session_state and scope, when present, are strings (null is not a string)',
  quote: 'session_state | string | ... For future use. scope | string | For future use.',
  async run(c) {
    const { body } = await issuePair(c, false);
    // Spec 2.1 types both string; a field sent as null is present without being one. Leaving it out is not ruled out ("for future use").
    for (const k of ['session_state', 'scope']) {
      const v = body[k];
      c.expect(v === undefined || typeof v === 'string', `${k} is not a string`, 'a string or absent', JSON.stringify(v));
    }
  },
};

export const noStore: Check = {
  id: 'token.issue.no-store', requirements: ['P-token-no-store'], spec: '4.1',
  title: 'Token answers are not cacheable (Cache-Control: no-store)',
  quote: 'docs/profile.md, after RFC 6749 5.1: the token answer carries Cache-Control: no-store (the spec says nothing; a cached token is a leaked token).',
  async run(c) {
    const { res } = await issue(c);
    const cc = res.headers['cache-control'];
    // Directives, not a string compare: `no-store, no-cache` or `no-store` beside `Pragma: no-cache` pass.
    // Pragma alone does not: RFC 6749 5.1 names Cache-Control: no-store.
    const pragma = res.headers.pragma ? `; Pragma: ${res.headers.pragma}` : '';
    c.expect(forbidsStore(cc), 'the token answer may be cached', 'Cache-Control with the no-store directive',
      (cc ? `Cache-Control: ${cc}` : 'no Cache-Control header') + pragma);
  },
};
