// The token suite's watches (support/waits.ts): as the worker starts, an
// access token and refresh tokens are issued; each is then used just before
// and just after the end of the lifetime its answer stated (spec 2.1, 5.3, 8),
// while the suite's other checks run. The checks of token.use, token.refresh
// and token.expiry that read these watches only judge what was seen.
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { obj } from '../../support/api.ts';
import { type CheckContext, describeAnswer, Prerequisite } from '../../support/check.ts';
import { target } from '../../support/target.ts';
import { refreshForm, tokenRequest } from '../../support/tokens.ts';
import { adopt, neededMaxWait, observe, realMs, until, watch, type Seen } from '../../support/waits.ts';
import { isInt, issuePair, probeApi, type TokenBody } from './common.ts';

/**
 * How long before a stated end a token is used: one spec second because a
 * server may round the lifetime it states up (3600 for 3599.5 s left), plus
 * 0.5 s real (arbitrary) for the request to reach the server on a loaded
 * machine or network.
 */
const beforeEndMs = () => realMs(1) + 500;

/** How long after a stated end a token is used: one spec second for rounding down, plus 100 ms real (arbitrary) of timer slack. */
const afterEndMs = () => realMs(1) + 100;

/**
 * An API that validates JWTs itself commonly accepts a token for a while past
 * its expiry to allow for clock skew (RFC 7519 4.1.4: "some small leeway,
 * usually no more than a few minutes"): Spring's JwtTimestampValidator 60 s,
 * .NET's ClockSkew 300 s by default. 300 is the largest common default.
 */
export const LEEWAY_SPEC_S = 300;

/** A token pair and when its grant went out: its lifetimes count from a moment after `sentAt`. */
export interface Grant { seen: Seen; body: TokenBody; access: string; refresh: string }

/** The outcome of a wait: the stated lifetime was no positive integer, the wait would pass --max-wait, or the token was used. */
export type Waited<T> =
  | { kind: 'no-lifetime'; grant: Grant }
  | { kind: 'too-long'; grant: Grant; waitMs: number; partial?: T }
  | ({ kind: 'seen'; grant: Grant } & T);

async function grant(needRefresh: boolean): Promise<Grant> {
  let pair: Awaited<ReturnType<typeof issuePair>> | undefined;
  const seen = await observe(async c => { pair = await issuePair(c, needRefresh); return pair.res; });
  return { seen, body: pair?.body ?? {}, access: pair?.access ?? '', refresh: pair?.refresh ?? '' };
}

/** In the reading check: records the grant's evidence; a grant that failed stops the check as it would have. */
function adoptGrant(c: CheckContext, g: Grant): void {
  adopt(c, g.seen);
}

/**
 * A lifetime starts somewhere within its grant's round trip. A round trip over
 * a tenth of the lifetime (a loaded machine on a compressed clock) would let a
 * token that dies early pass unseen, so such a grant is asked again, up to
 * three times.
 */
async function tightGrant(needRefresh: boolean, field: 'expires_in' | 'refresh_expires_in'): Promise<Grant> {
  let g = await grant(needRefresh);
  for (let i = 1; i < 3; i++) {
    const lifeS = g.body[field];
    if (g.seen.error !== undefined || !isInt(lifeS) || lifeS <= 0 || g.seen.doneAt - g.seen.sentAt <= realMs(lifeS) / 10) break;
    g = await grant(needRefresh);
  }
  return g;
}

/** `judgeable`: the answer was read before the stated end less a spec second of rounding, so the token was surely still alive. */
export interface NearEnd { lifeS: number; use: Seen; judgeable: boolean }

/**
 * Issues a pair and uses one of its tokens `beforeEndMs` before the end its
 * answer stated. An answer that did not serve the token and came after the
 * stated end (less a spec second of rounding) cannot be judged (a loaded
 * machine held the request): that is tried once more with a new pair when
 * --max-wait allows.
 */
async function nearEnd(field: 'expires_in' | 'refresh_expires_in', needRefresh: boolean,
  use: (c: CheckContext, g: Grant) => Promise<ExchangeResponse>, served: (r: ExchangeResponse) => boolean): Promise<Waited<NearEnd>> {
  const started = performance.now();
  let out: Waited<NearEnd> | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const g = await tightGrant(needRefresh, field);
    const lifeS = g.body[field];
    if (g.seen.error !== undefined || !isInt(lifeS) || lifeS <= 0) return { kind: 'no-lifetime', grant: g };
    const at = g.seen.sentAt + realMs(lifeS) - beforeEndMs();
    if (at - started > target().maxWaitS * 1000) return out ?? { kind: 'too-long', grant: g, waitMs: at - started };
    await until(at, `a ${field === 'expires_in' ? 'token' : 'refresh token'} to near the end of its ${field} ${lifeS} s, to use it then`);
    const seen = await observe(c => use(c, g));
    const judgeable = seen.doneAt < g.seen.sentAt + realMs(lifeS - 1);
    out = { kind: 'seen', grant: g, lifeS, use: seen, judgeable };
    if (judgeable || (seen.res && served(seen.res))) break;
  }
  return out!;
}

/** The API's answer to a token: a refusal is any 4xx, or 510, the production service's status for client errors (docs/profile.md). */
export const apiRefused = (r: ExchangeResponse) => (r.status >= 400 && r.status < 500) || r.status === 510;

/** The token endpoint's answer to a refresh: a refusal is a 4xx (a token in an error answer is token.errors' finding). */
export const grantRefused = (r: ExchangeResponse) => r.status >= 400 && r.status < 500;

/** A token served: the API answered 2xx; the token endpoint answered a refresh with 200 and a new access token. */
export const apiServed = (r: ExchangeResponse) => r.status >= 200 && r.status < 300;
export const grantServed = (r: ExchangeResponse) => r.status === 200 && typeof obj(r)?.access_token === 'string';

export interface AfterEnd { lifeS: number; fresh?: Seen; after: Seen; late?: Seen }

/**
 * Issues a pair and uses one of its tokens `afterEndMs` after the end its
 * answer stated; when that is still taken and `leewayS` is given, once more
 * after the leeway.
 */
async function afterEnd(field: 'expires_in' | 'refresh_expires_in', label: string, use: (c: CheckContext, g: Grant, label: string) => Promise<ExchangeResponse>,
  refused: (r: ExchangeResponse) => boolean, leewayS = 0): Promise<Waited<AfterEnd>> {
  const g = await grant(field === 'refresh_expires_in');
  const lifeS = g.body[field];
  if (g.seen.error !== undefined || !isInt(lifeS) || lifeS <= 0) return { kind: 'no-lifetime', grant: g };
  const waitMs = realMs(lifeS) + afterEndMs();
  const budgetEnd = g.seen.doneAt + target().maxWaitS * 1000;
  if (g.seen.doneAt + waitMs > budgetEnd) return { kind: 'too-long', grant: g, waitMs };
  // The access token is seen to work first (expiry is only seen on a token that worked); a refresh token would be used up.
  const fresh = field === 'expires_in' ? await observe(c => use(c, g, `the fresh ${label}, before it expires`)) : undefined;
  await until(g.seen.doneAt + waitMs, `a ${label} to expire (${field} ${lifeS} s)`);
  const after = await observe(c => use(c, g, `the same ${label} after ${field} has passed`));
  if (!leewayS || !after.res || refused(after.res)) return { kind: 'seen', grant: g, lifeS, fresh, after };
  const lateMs = waitMs + realMs(leewayS);
  if (g.seen.doneAt + lateMs > budgetEnd) return { kind: 'too-long', grant: g, waitMs: lateMs, partial: { lifeS, fresh, after } };
  await until(g.seen.doneAt + lateMs, `the ${leewayS} s clock-skew leeway after a ${label}'s ${field} to end`);
  const late = await observe(c => use(c, g, `the same ${label} after ${field} plus ${leewayS} s of leeway`));
  return { kind: 'seen', grant: g, lifeS, fresh, after, late };
}

const callApi = (c: CheckContext, g: Grant, label: string) => probeApi(c, g.access, label);
const exchange = (c: CheckContext, g: Grant, label: string) => tokenRequest(c, refreshForm(g.refresh), label);

export interface AccessWatch { madeUp: Promise<Seen>; near: Promise<Waited<NearEnd>>; after: Promise<Waited<AfterEnd>> }
export interface RefreshWatch { near: Promise<Waited<NearEnd>>; after: Promise<Waited<AfterEnd>> }

/** The access token's watch: read by token.use (near its end) and token.expiry (after it). */
export const accessWatch = watch((): AccessWatch => ({
  // Expiry can only be seen at an API that tells tokens apart.
  madeUp: observe(c => probeApi(c, 'pis-conformance-made-up-token', 'a made-up token, to see that the API tells tokens apart')),
  near: nearEnd('expires_in', false, (c, g) => callApi(c, g, 'the token just before its expires_in ends'), apiServed),
  after: afterEnd('expires_in', 'token', callApi, apiRefused, LEEWAY_SPEC_S),
}));

/** The refresh tokens' watch (two pairs: a refresh token is used up by its exchange): read by token.refresh and token.expiry. */
export const refreshWatch = watch((): RefreshWatch => ({
  near: nearEnd('refresh_expires_in', true, (c, g) => exchange(c, g, 'the refresh token just before its refresh_expires_in ends'), grantServed),
  after: afterEnd('refresh_expires_in', 'refresh token', exchange, grantRefused),
}));

type Field = 'expires_in' | 'refresh_expires_in';

/** Not run: a check's wait for a token's end does not fit --max-wait; the remedy names the --max-wait that would do. */
export function skipTooLong(c: CheckContext, what: string, field: Field, lifeS: unknown, waitMs: number, prefix = 'not checked: '): never {
  return c.skip(`${prefix}${what} (${field} ${JSON.stringify(lifeS)} s at time scale ${target().timeScale}) ` +
      `is ${(waitMs / 1000).toFixed(1)} s of waiting, more than --max-wait ${target().maxWaitS} s`,
    // A time scale the target's /health named is its clock's: no flag makes it faster.
    `raise --max-wait to ${neededMaxWait(waitMs)}${target().timeScaleFromTarget ? '' : ' (or run the target on a compressed clock with --time-scale)'}`);
}

/** In a reading check: a lifetime that is no positive integer is another check's finding; refresh_expires_in 0 means no fixed expiry. */
export function requireLifetime(c: CheckContext, w: Waited<unknown>, field: Field): asserts w is Exclude<Waited<unknown>, { kind: 'no-lifetime' }> {
  adoptGrant(c, w.grant);
  if (w.kind !== 'no-lifetime') return;
  if (field === 'refresh_expires_in' && w.grant.body[field] === 0)
    c.notApplicable('refresh_expires_in is 0, no fixed expiry (Keycloak\'s value for offline tokens), so there is no end to see');
  throw new Prerequisite(`${field} is not a positive integer (see ${field === 'expires_in' ? 'token.issue.expires-in' : 'token.issue.refresh-token'})`);
}

/**
 * The judgement of the checks that use a token just before its stated end:
 * served passes; any other answer read before the end less a spec second of
 * rounding fails; a later one proves nothing (rounding, a slow request) and is
 * not run.
 */
export function judgeNearEnd(c: CheckContext, w: Waited<NearEnd>,
  o: { field: Field; token: string; by: string; served: (r: ExchangeResponse) => boolean; expected: string }): void {
  requireLifetime(c, w, o.field);
  if (w.kind === 'too-long') return skipTooLong(c, `using the ${o.token} near its end`, o.field, w.grant.body[o.field], w.waitMs);
  const res = adopt(c, w.use);
  const scale = target().timeScale;
  const left = ((w.grant.seen.sentAt + realMs(w.lifeS) - w.use.doneAt) / 1000).toFixed(2);
  c.measure(`answer read before the stated end of the ${o.token}`, `${o.field} ${w.lifeS} s x time scale ${scale} after the grant was sent`,
    left, 's (real) left');
  if (o.served(res)) return;
  c.expect(!w.judgeable, `${o.by} did not serve the ${o.token} ${left} s (real) before the end of its ${o.field} of ${w.lifeS} s`,
    o.expected, describeAnswer(res));
  c.skip(`not checked: the ${o.token} was not served (${res.status}) in its last spec second, twice, where rounding or a slow request explains it`,
    'run again on a less loaded machine or network');
}
