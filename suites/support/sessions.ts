// Sessions and consent as the data and payments suites need them (spec 4.4):
// one consented session per bank and scope per part of the run, renewed when the target
// answers the consent-link error for it (a consent may expire, quickly on a
// compressed clock). A consent lost before the lifetime the run was told
// (--session-lifetime) fails the check whose call met it. The session suite
// checks these steps one by one; here a failing step is a Prerequisite, so
// dependent checks skip rather than fail.
// Before API version 3.0.0 there are no sessions: a consent stands alone
// (docs/profile.md, API versions). POST /consent starts one and answers its
// consentId, which then plays the session's part: the calls name it (in
// x-consent-id) and POST /consent with it asks for its consent URL again.
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import type { PathName } from '../../harness/config/profile.ts';
import { apiUrl, call, callUrl, obj, ok, withWorkerToken, type CallOptions } from './api.ts';
import { consentUrlOf, isConsentError, sessionIdOf } from './describe.ts';
import { Prerequisite, type CheckContext } from './check.ts';
import { consentDriver } from './consent/driver.ts';
import { target } from './target.ts';
import { realMs, specSeconds } from './waits.ts';
import { atLeast } from '../../harness/contracts/api-versions.ts';
import { perPart } from './part.ts';

export type Scope = 'accounts' | 'payments';

/** Sessions exist at the run's API version (3.0.0 and later); before, a consent of its own plays their part. */
const hasSessions = () => atLeast(target().apiVersion, '3.0.0');

/** POST /session {bankId}; before 3.0.0 POST /consent {bankId, scope}, whose consentId is the session's stand-in. */
export async function createSession(c: CheckContext | null, bankId: string): Promise<{ res: ExchangeResponse; id?: string }> {
  if (!hasSessions()) {
    const res = await call(c, 'POST', 'sessions', {}, {
      body: { bankId, scope: 'accounts' }, label: `start a consent at ${bankId}`, headers: consentHeaders(),
    });
    const id = obj(res)?.consentId;
    return { res, id: ok(res) && typeof id === 'string' && id ? id : undefined };
  }
  const res = await call(c, 'POST', 'sessions', {}, { body: { bankId }, label: `start a session at ${bankId}` });
  const id = sessionIdOf(res.json);
  return { res, id: ok(res) ? id : undefined };
}

/**
 * The optional headers of a consent request at the run's API version (spec 9):
 * x-redirect-url from 2.0.0, x-psu-ip-address on GET /consent from 3.2.0.
 */
function consentHeaders(): Record<string, string> {
  const t = target();
  return {
    ...(atLeast(t.apiVersion, '3.2.0') ? { [t.headers.psuIpAddress]: t.psuIpAddress } : {}),
    ...(atLeast(t.apiVersion, '2.0.0') ? { [t.headers.redirectUrl]: t.redirectUrl } : {}),
  };
}

/**
 * GET /consent/{sessionId} (before 3.0.0 POST /consent naming the consent):
 * the consent URL, with the optional headers of spec 4.4 (`headers` with ''
 * leaves one out).
 */
export async function requestConsent(
  c: CheckContext | null, sessionId: string, scope: Scope, headers: Record<string, string> = {},
): Promise<{ res: ExchangeResponse; href?: string }> {
  const left = Object.keys(headers).filter(k => headers[k] === '');
  const label = `consent request (${scope})${left.length ? `, without ${left.join(', ')}` : ''}`;
  const res = hasSessions()
    ? await call(c, 'GET', 'consent', { sessionId }, { query: { scope }, session: sessionId, label, headers: { ...consentHeaders(), ...headers } })
    : await call(c, 'POST', 'consent', {}, { body: { scope }, session: sessionId, label, headers: { ...consentHeaders(), ...headers } });
  return { res, href: ok(res) ? consentUrlOf(res.json) : undefined };
}

/** A session-bound call that proves consent: GET /accounts. */
export function probeConsent(c: CheckContext | null, sessionId: string, label = 'accounts with this session'): Promise<ExchangeResponse> {
  return call(c, 'GET', 'accounts', {}, { session: sessionId, label, headers: { [target().headers.psuIpAddress]: target().psuIpAddress } });
}

/** When consent was last seen given to a session (performance.now()). */
const givenAt = perPart(() => new Map<string, number>());

/** Requests consent and has the driver complete it; resolves with the time it was seen given (performance.now()). */
export async function giveConsent(c: CheckContext | null, sessionId: string, scope: Scope): Promise<number> {
  const { res, href } = await requestConsent(c, sessionId, scope);
  if (!href) throw new Prerequisite(`the consent request answered ${res.status} without a consent link (see session.consent-link.consent-url)`);
  await consentDriver()({ href, what: 'consent', c, done: async () => ok(await probeConsent(null, sessionId)) });
  const at = performance.now();
  givenAt().set(sessionId, at);
  return at;
}

const consented = perPart(() => new Map<string, Promise<string>>());

/** A session at `bankId` with consent for `scope`, shared by the checks of this worker. */
function consentedSession(bankId: string, scope: Scope): Promise<string> {
  const key = `${bankId} ${scope}`;
  let p = consented().get(key);
  if (!p) {
    p = (async () => {
      const { res, id } = await createSession(null, bankId);
      if (!id) throw new Prerequisite(`no session could be started at ${bankId} (${res.status}; see session.lifecycle.create)`);
      await giveConsent(null, id, scope);
      return id;
    })();
    consented().set(key, p);
  }
  return p;
}

/**
 * A call in a consented session. When the target answers the consent-link
 * error (the consent expired), consent is given again once and the call repeated.
 */
/**
 * Whether a consent `ageMs` real ms old may have run out on a target whose consent lasts `lifeS` spec seconds. The
 * consent was seen given a round trip after the target granted it, so its age there is a little more than ageMs:
 * lost before 90 % of its lifetime, less a real second (arbitrary room for a loaded machine), it was lost early.
 */
export const mayHaveExpired = (ageMs: number, lifeS: number) => ageMs >= realMs(lifeS) * 0.9 - 1000;

export async function sessionCall(c: CheckContext | null, bankId: string, scope: Scope, method: string, path: PathName,
  params: Record<string, string> = {}, opts: CallOptions = {}): Promise<ExchangeResponse> {
  return sessionCallUrl(c, bankId, scope, method, apiUrl(path, params, opts.query), opts);
}

/** The same for an absolute URL the target handed out (the authorize link of a payment). */
export async function sessionCallUrl(c: CheckContext | null, bankId: string, scope: Scope, method: string, url: string,
  opts: CallOptions = {}): Promise<ExchangeResponse> {
  const t = target();
  // The session and its consent are made with the worker's token: inside withToken, only the call itself sends the chosen one.
  const session = await withWorkerToken(() => consentedSession(bankId, scope));
  const headers = { [t.headers.psuIpAddress]: t.psuIpAddress, ...(opts.headers ?? {}) };
  // Every exchange says which bank it was at: behaviour in this API is per bank.
  const label = opts.label?.includes(bankId) ? opts.label : `${opts.label ?? `${method} ${url}`} (at ${bankId})`;
  const res = await callUrl(c, method, url, { ...opts, label, session, headers });
  if (!isConsentError(res)) return res;
  const ageMs = givenAt().has(session) ? performance.now() - givenAt().get(session)! : undefined;
  const since = ageMs !== undefined ? `${(ageMs / 1000).toFixed(2)} s (real) after consent was given` : 'again';
  const lifetime = t.sessionLifetimeS ? ` (a consent lasts ${t.sessionLifetimeS} spec s on this target, per --session-lifetime)`
    : ' (the spec does not say how long a consent lasts; with --session-lifetime a consent lost before its end is a finding)';
  c?.note(`the target answered the consent-link error for session ${session} at ${bankId} ${since}${lifetime}: consent was given again and the call repeated`);
  await withWorkerToken(() => giveConsent(null, session, scope));
  const again = await callUrl(c, method, url, { ...opts, label, session, headers });
  if (c && ageMs !== undefined && t.sessionLifetimeS && !mayHaveExpired(ageMs, t.sessionLifetimeS))
    c.fail(`the target lost the consent of session ${session} at ${bankId} before its lifetime: it answered the consent-link error ${since}`,
      `consent kept for ${t.sessionLifetimeS} spec s (--session-lifetime)`,
      `the consent-link error ${specSeconds(ageMs).toFixed(1)} spec s after consent was given`, res);
  return again;
}
