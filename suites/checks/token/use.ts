// token.use: the API takes the tokens the endpoint issues, for as long as they
// are said to live, and nothing else (spec 2.1, 5). How the token is presented
// is "not shown" (spec 5); docs/profile.md's `Authorization: Bearer` is the
// default, overridable in the config.
import type { Check } from '../../support/register.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { type CheckContext, describeAnswer, Prerequisite } from '../../support/check.ts';
import { lifetimeOf, refreshForm, refusedEarly, SLOW_CALL_REMEDY, tokenRequest } from '../../support/tokens.ts';
import { obj } from '../../support/api.ts';
import { registerTokens, target } from '../../support/target.ts';
import { requireApi, issuePair } from './common.ts';
import { accessWatch, apiRefused, apiServed, judgeNearEnd, pastTokenCheck } from './lifetimes.ts';
import { isNotImplemented } from '../../support/payment-banks.ts';
import { operationPlaces } from './operations.ts';
import { realMs } from '../../support/waits.ts';

/** The expected side of a refusal: a 5xx is the server failing, not refusing (docs/profile.md: 401; 510 is the production service's client-error status). */
const REFUSAL = 'a refusal: 401 (or another 4xx, or 510)';

/** What an answer that is no refusal did with `token`: a 5xx failed on it, unless it is the answer of a call past the token check. */
const tookOrFailed = (res: ExchangeResponse, token: string) =>
  res.status >= 500 && !pastTokenCheck(res) ? `failed on ${token} instead of refusing it` : `accepted ${token}`;

/** A token the endpoint never issued. */
const MADE_UP_TOKEN = 'pis-conformance-made-up-token';

/**
 * Calls every operation of the version under test with `token` (the call the
 * suites make there, with its session, ids and body) and judges each answer:
 * the rule holds only where every operation keeps it.
 */
async function atEveryOperation(c: CheckContext, token: string | null, label: string, judge: (res: ExchangeResponse) => void): Promise<void> {
  requireApi(c, 'using a token');
  const { places, notOffered } = await operationPlaces();
  if (notOffered.length) c.note(`operations of the version that this target does not offer, so not bound: ${notOffered.join('; ')}`);
  await c.everyPlace('operation', places, async p => {
    if (p instanceof Prerequisite) throw p;
    judge(await p.send(c, token, label));
  });
}

/** The error code of an error body, when it names one (errorCode, docs/profile.md; error, RFC 6750). */
const codeOf = (res: ExchangeResponse) => { const b = obj(res); return b ? String(b.errorCode ?? b.error ?? '') : ''; };

/**
 * The token check refused a live token: the answer is 401 (RFC 6750's
 * invalid_token; docs/profile.md), or the very refusal (status and error
 * code) the same operation gives a made-up token. Any other answer got past
 * the token check: a 2xx, the consent-link or authorisation error, Not
 * Implemented, or an error about the request itself.
 */
const refusedLive = (res: ExchangeResponse, madeUp: ExchangeResponse) =>
  !apiServed(res) && !pastTokenCheck(res) && !isNotImplemented(res)
  && (res.status === 401 || (res.status === madeUp.status && codeOf(res) === codeOf(madeUp)));

/** A token as the endpoint gave it: asked for at `sentAt` (performance.now()), living `lifeS` spec seconds when its answer said so. */
interface Fresh { token: string; sentAt: number; lifeS?: number }

/**
 * Calls every operation of the version under test with a token `fresh` gets
 * just before the call (a compressed clock gives a token seconds of life),
 * after a made-up one to learn the operation's refusal, and fails each place
 * that refuses the fresh token. A refusal answered at or after the end the
 * token's expires_in stated, less a spec second of rounding, refused a token
 * that may have expired: the call is made once more with a new token, and a
 * place that meets that twice is not judged, with the figures.
 */
async function takenAtEveryOperation(c: CheckContext, what: string, fresh: () => Promise<Fresh>): Promise<void> {
  requireApi(c, 'using a token');
  const { places, notOffered } = await operationPlaces();
  if (notOffered.length) c.note(`operations of the version that this target does not offer, so not bound: ${notOffered.join('; ')}`);
  await c.everyPlace('operation', places, async p => {
    if (p instanceof Prerequisite) throw p;
    const madeUp = await p.send(c, MADE_UP_TOKEN, 'a made-up token, to tell the refusal of a token apart');
    for (let attempt = 1; ; attempt++) {
      const t = await fresh();
      const res = await p.send(c, t.token, what);
      const late = t.lifeS !== undefined && !refusedEarly(t, performance.now());
      if (refusedLive(res, madeUp) && late) {
        const tookS = ((performance.now() - t.sentAt) / 1000).toFixed(2);
        const why = `${what} was refused at ${p.op.id} ${tookS} s (real) after it was asked for, at or after the end of its expires_in ` +
          `of ${t.lifeS} s (${(realMs(t.lifeS!) / 1000).toFixed(2)} s here): a token that may have expired proves nothing`;
        if (attempt === 1) { c.note(`${why}; asked for a new one and called again`); continue; }
        throw new Prerequisite(`${why}, twice`, SLOW_CALL_REMEDY);
      }
      c.expect(!refusedLive(res, madeUp), `refused ${what} at ${p.op.id}`,
        'an answer past the token check (2xx, or an error about the request, not the token)', describeAnswer(res), res);
      return;
    }
  });
}

export const accepted: Check = {
  id: 'token.use.accepted', requirements: ['R2.1-token-needed', 'P-call-bearer'], spec: '5', bindsAt: { family: 'operation' },
  title: 'Every operation of the API takes an access token from the token endpoint',
  quote: 'access_token | string | Token needed to call the API.',
  async run(c) {
    await takenAtEveryOperation(c, 'a fresh access token', async () => {
      const sentAt = performance.now();
      const { access, body } = await issuePair(c, false);
      return { token: access, sentAt, lifeS: lifetimeOf(body) };
    });
  },
};

export const wrongRefused: Check = {
  id: 'token.use.wrong-token-refused', requirements: ['R2.1-token-needed'], spec: '5', bindsAt: { family: 'operation' },
  title: 'Every operation of the API refuses a made-up access token',
  quote: 'The API uses the OAuth 2.0 client credentials grant ... and receives access_token (only issued tokens open the API).',
  async run(c) {
    await atEveryOperation(c, MADE_UP_TOKEN, 'a made-up token', res =>
      c.expect(apiRefused(res), tookOrFailed(res, 'a made-up access token'),
        REFUSAL, describeAnswer(res), res));
  },
};

export const missingRefused: Check = {
  id: 'token.use.no-token-refused', requirements: ['R2.1-token-needed'], spec: '5', bindsAt: { family: 'operation' },
  title: 'Every operation of the API refuses a call without a token',
  quote: 'access_token | string | Token needed to call the API.',
  async run(c) {
    await atEveryOperation(c, null, 'no token', res =>
      c.expect(apiRefused(res), tookOrFailed(res, 'a call without a token'),
        REFUSAL, describeAnswer(res), res));
  },
};

/** The three parts of a JWT (RFC 7519: base64url parts, the first a JSON header naming its alg), or undefined for an opaque token. */
function jwtParts(token: string): [string, string, string] | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some(p => !/^[A-Za-z0-9_-]*$/.test(p))) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString());
    return typeof header?.alg === 'string' ? parts as [string, string, string] : undefined;
  } catch { return undefined; }
}

/** A JWT with one claim added to its payload and its header and signature kept, as a forger would send it; undefined for an opaque token. */
function tamperedJwt(token: string): string | undefined {
  const parts = jwtParts(token);
  if (!parts) return undefined;
  let claims: unknown;
  try { claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString()); } catch { claims = undefined; }
  const payload = claims && typeof claims === 'object' && !Array.isArray(claims)
    ? Buffer.from(JSON.stringify({ ...claims, pis_conformance_forged: true })).toString('base64url')
    : parts[1] + 'A';
  return `${parts[0]}.${payload}.${parts[2]}`;
}

export const tamperedRefused: Check = {
  id: 'token.use.tampered-token-refused', requirements: ['R2.1-token-needed'], spec: '5', bindsAt: { family: 'operation' },
  title: 'Every operation refuses an access token whose JWT claims were changed (where the tokens are JWTs)',
  quote: 'The API uses the OAuth 2.0 client credentials grant ... and receives access_token (only issued tokens open the API).',
  async run(c) {
    requireApi(c, 'using a token');
    const { access } = await issuePair(c, false);
    const forged = tamperedJwt(access);
    if (!forged) return c.notApplicable('the access token is not a JWT (an opaque token): it has no claims to change');
    registerTokens(forged, undefined);
    await atEveryOperation(c, forged, 'a JWT with changed claims', res =>
      c.expect(apiRefused(res), tookOrFailed(res, 'a JWT with changed claims'),
        REFUSAL, describeAnswer(res), res));
  },
};

export const wrong401: Check = {
  id: 'token.use.wrong-token-401', requirements: ['P-call-wrong-token-401'], spec: '5', bindsAt: { family: 'operation' },
  title: 'Every operation answers a wrong access token with 401',
  quote: 'docs/profile.md: expired or wrong access token -> 401.',
  async run(c) {
    await atEveryOperation(c, MADE_UP_TOKEN, 'a made-up token', res =>
      c.expect(res.status === 401, 'a wrong token was not answered 401', '401', describeAnswer(res), res));
  },
};

export const refreshedAccepted: Check = {
  id: 'token.use.refreshed-token-accepted', requirements: ['R4.2-tokens-renewed'], spec: '4.2', bindsAt: { family: 'operation' },
  title: 'Every operation of the API takes the access token from a refresh',
  quote: 'To keep the session alive, the client exchanges refresh_token for a new pair (4.2).',
  async run(c) {
    await takenAtEveryOperation(c, 'the access token from a refresh', async () => {
      const { refresh } = await issuePair(c);
      const sentAt = performance.now();
      const res = await tokenRequest(c, refreshForm(refresh), 'refresh token grant');
      const access = obj(res)?.access_token;
      if (res.status !== 200 || typeof access !== 'string') throw new Prerequisite(`the refresh grant answered ${res.status} (see token.refresh)`);
      return { token: access, sentAt, lifeS: lifetimeOf(res.json) };
    });
  },
};

/**
 * A token is used just before the end its expires_in stated (the wait runs in
 * lifetimes.ts beside the other checks). A refusal is early only when its
 * answer came before that end less a spec second of rounding: a request a
 * loaded machine held past the end proves nothing, and is tried once more.
 */
export const untilExpiresIn: Check = {
  id: 'token.use.until-expires-in', requirements: ['R2.1-expires-in-lifetime'], spec: '2.1',
  title: 'The API serves an access token until its expires_in has passed',
  quote: 'expires_in | integer | Lifetime of access_token in seconds. The value 3600 means one hour from the time the response was generated.',
  // The wait budget plus time for the calls around it.
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    requireApi(c, 'using a token until it expires');
    judgeNearEnd(c, await accessWatch().near,
      { field: 'expires_in', token: 'access token', by: 'the API', served: apiServed, expected: 'a 2xx answer: the token has not expired' });
  },
};
