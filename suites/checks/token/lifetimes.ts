// The token suite's watches (support/waits.ts): as the worker starts, an
// access token and refresh tokens are issued; each is then used just before
// and just after the end of the lifetime its answer stated (spec 2.1, 5.3, 8),
// while the suite's other checks run. The checks of token.use, token.refresh
// and token.expiry that read these watches only judge what was seen.
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { obj } from '../../support/api.ts';
import { authorizeLinks, consentErrorLinks } from '../../support/describe.ts';
import { type CheckContext, describeAnswer, Prerequisite } from '../../support/check.ts';
import { target } from '../../support/target.ts';
import { refreshForm, tokenRequest } from '../../support/tokens.ts';
import { adopt, neededMaxWait, observe, realMs, until, watch, type Seen } from '../../support/waits.ts';
import { isInt, issuePair, probeApi, type TokenBody } from './common.ts';
import { operationPlaces } from './operations.ts';

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
 * .NET's ClockSkew 300 s by default. The leeway allowed grows with the stated
 * lifetime: a tenth of it, and at most 300 s, the largest common default; a
 * token that lives 60 s may be taken for 6 s more, not 300.
 */
const leewayS = (lifeS: number) => Math.min(300, Math.ceil(lifeS / 10));

/** How the leeway is said in a check's messages. */
export const LEEWAY_RULE = 'a tenth of the stated lifetime, at most 300 s, for clock skew as RFC 7519 4.1.4 allows';

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

/**
 * The error answers only a call that got past the token check gets: the
 * strong-customer-authentication answer (its authorize link) and the
 * consent-link error (spec 4.4, 7). They refuse the call, not the token.
 */
export const pastTokenCheck = (r: ExchangeResponse) => authorizeLinks(r.json).length > 0 || consentErrorLinks(r.json).length > 0;

/**
 * The API's answer to a token: a refusal is any 4xx, or 510, the production
 * service's status for client errors (docs/profile.md), but for the answers
 * of a call that got past the token check.
 */
export const apiRefused = (r: ExchangeResponse) => ((r.status >= 400 && r.status < 500) || r.status === 510) && !pastTokenCheck(r);

/** The token endpoint's answer to a refresh: a refusal is a 4xx (a token in an error answer is token.errors' finding). */
export const grantRefused = (r: ExchangeResponse) => r.status >= 400 && r.status < 500;

/** A token served: the API answered 2xx; the token endpoint answered a refresh with 200 and a new access token. */
export const apiServed = (r: ExchangeResponse) => r.status >= 200 && r.status < 300;
export const grantServed = (r: ExchangeResponse) => r.status === 200 && typeof obj(r)?.access_token === 'string';

export interface AfterEnd { lifeS: number; after: Seen }

/** Issues a pair and exchanges its refresh token `afterEndMs` after the end its refresh_expires_in stated. */
async function refreshAfterEnd(): Promise<Waited<AfterEnd>> {
  const g = await grant(true);
  const lifeS = g.body.refresh_expires_in;
  if (g.seen.error !== undefined || !isInt(lifeS) || lifeS <= 0) return { kind: 'no-lifetime', grant: g };
  const waitMs = realMs(lifeS) + afterEndMs();
  if (waitMs > target().maxWaitS * 1000) return { kind: 'too-long', grant: g, waitMs };
  await until(g.seen.doneAt + waitMs, `a refresh token to expire (refresh_expires_in ${lifeS} s)`);
  const after = await observe(c => exchange(c, g, 'the same refresh token after refresh_expires_in has passed'));
  return { kind: 'seen', grant: g, lifeS, after };
}

const callApi = (c: CheckContext, g: Grant, label: string) => probeApi(c, g.access, label);
const exchange = (c: CheckContext, g: Grant, label: string) => tokenRequest(c, refreshForm(g.refresh), label);

/** An expired token used at one operation: just after its end, and after the leeway when it was still taken; or why it could not be. */
interface ExpiredAt { name: string; after?: Seen; late?: Seen; missing?: Prerequisite; lateWaitMs?: number }

export interface Expired { lifeS: number; leewayS: number; fresh: Seen; at: ExpiredAt[] }

/**
 * Issues a token and uses it at every operation of the version under test
 * `afterEndMs` after the end its expires_in stated; at the operations that
 * still take it, once more after the leeway (leewayS). What each operation
 * builds on (a session, an account, a payment) is made during the wait, with
 * the worker's own token.
 */
async function expiredEverywhere(): Promise<Waited<Expired>> {
  const made = operationPlaces();
  made.catch(() => undefined);
  const g = await grant(false);
  const lifeS = g.body.expires_in;
  if (g.seen.error !== undefined || !isInt(lifeS) || lifeS <= 0) return { kind: 'no-lifetime', grant: g };
  const waitMs = realMs(lifeS) + afterEndMs();
  const budgetEnd = g.seen.doneAt + target().maxWaitS * 1000;
  if (g.seen.doneAt + waitMs > budgetEnd) return { kind: 'too-long', grant: g, waitMs };
  // The token is seen to work first: expiry is only seen on a token that worked.
  const fresh = await observe(c => probeApi(c, g.access, 'the fresh token, before it expires'));
  const { places } = await made;
  await until(g.seen.doneAt + waitMs, `a token to expire (expires_in ${lifeS} s)`);
  const at: ExpiredAt[] = [];
  for (const p of places) {
    const probe = p.value;
    at.push(probe instanceof Prerequisite ? { name: p.name, missing: probe }
      : { name: p.name, after: await observe(c => probe.send(c, g.access, 'the token after expires_in has passed')) });
  }
  const leeway = leewayS(lifeS);
  const still = at.filter(a => a.after?.res && !apiRefused(a.after.res));
  const lateMs = waitMs + realMs(leeway);
  if (still.length && g.seen.doneAt + lateMs > budgetEnd) for (const a of still) a.lateWaitMs = lateMs;
  else if (still.length) {
    await until(g.seen.doneAt + lateMs, `the ${leeway} s leeway after a token's expires_in to end`);
    for (const a of still) {
      const probe = places.find(p => p.name === a.name)!.value as Exclude<typeof places[number]['value'], Prerequisite>;
      a.late = await observe(c => probe.send(c, g.access, `the token after expires_in plus ${leeway} s of leeway`));
    }
  }
  return { kind: 'seen', grant: g, lifeS, leewayS: leeway, fresh, at };
}

/** A token of a refresh chain used just before the end its exchange stated. */
interface ChainUse { token: 'access token' | 'refresh token'; field: Field; lifeS: number; use: Seen; judgeable: boolean }

/** One exchange of a refresh chain: its answer, and its tokens used near their stated ends. */
export interface ChainExchange { n: number; seen: Seen; body: TokenBody; uses: ChainUse[] }

/** Exchanges in a chain: each later exchange's lifetimes must count from its own answer. */
export const CHAIN_LENGTH = 2;

/** The refresh token of exchange 1, sent once more after the end its answer stated (it was exchanged by exchange 2 before). */
export interface ChainExpired { lifeS: number; after: Seen }

/**
 * A refresh chain: a pair, then CHAIN_LENGTH exchanges, each of the refresh
 * token the one before answered, a little apart (more than the margin a use
 * keeps before a stated end, so a token that dies on the schedule of an
 * earlier exchange is refused before its own stated end). Then the access
 * token of every exchange, and the refresh token of the last (the others are
 * used up by the chain), are used just before the end their answer stated.
 */
async function refreshChain(): Promise<Waited<{ exchanges: ChainExchange[]; expired?: ChainExpired }>> {
  const g = await grant(true);
  if (g.seen.error !== undefined || !g.refresh) return { kind: 'no-lifetime', grant: g };
  const gapMs = beforeEndMs() + realMs(2) + 500;
  const exchanges: ChainExchange[] = [];
  // Each token is used near its own end while the chain goes on: a use waits beside the later exchanges, never after them
  // (with a lifetime shorter than the chain, the earlier tokens would be dead by then).
  const uses: Promise<void>[] = [];
  let tooLongMs: number | undefined;
  let refresh = g.refresh;
  for (let n = 1; n <= CHAIN_LENGTH; n++) {
    await until(performance.now() + gapMs, `exchange ${n} of a refresh chain`);
    let body: TokenBody = {};
    const seen = await observe(async c => {
      const res = await tokenRequest(c, refreshForm(refresh), `exchange ${n} of a refresh chain`);
      body = obj(res) ?? {};
      return res;
    });
    const x: ChainExchange = { n, seen, body, uses: [] };
    exchanges.push(x);
    if (!seen.res || !grantServed(seen.res)) break;
    for (const [token, field] of [['access token', 'expires_in'], ['refresh token', 'refresh_expires_in']] as const) {
      const lifeS = body[field];
      if (!isInt(lifeS) || lifeS <= 0 || (token === 'refresh token' && n !== CHAIN_LENGTH)) continue;
      if (token === 'access token' && !target().baseUrl) continue;
      const at = seen.sentAt + realMs(lifeS) - beforeEndMs();
      if (at - g.seen.sentAt > target().maxWaitS * 1000) { tooLongMs = Math.max(tooLongMs ?? 0, at - g.seen.sentAt); continue; }
      uses.push((async () => {
        await until(at, `the ${token} of exchange ${n} of a refresh chain to near the end of its ${field} ${lifeS} s`);
        const label = `the ${token} of exchange ${n}, just before its ${field} ends`;
        const use = await observe(c => token === 'access token' ? probeApi(c, String(body.access_token), label)
          : tokenRequest(c, refreshForm(String(body.refresh_token)), label));
        x.uses.push({ token, field, lifeS, use, judgeable: use.doneAt < seen.sentAt + realMs(lifeS - 1) });
      })());
    }
    if (typeof body.refresh_token !== 'string') break;
    refresh = body.refresh_token;
  }
  if (tooLongMs !== undefined) return { kind: 'too-long', grant: g, waitMs: tooLongMs };
  await Promise.all(uses);
  for (const x of exchanges) x.uses.sort((a, b) => (a.token === b.token ? 0 : a.token === 'access token' ? -1 : 1));
  return { kind: 'seen', grant: g, exchanges, expired: await firstExpired(exchanges) };
}

/**
 * By the time the last refresh token was used near its end, the refresh token
 * of exchange 1 is past its own stated end by more than afterEndMs (the gap
 * between exchanges is longer than the margin a use keeps before an end): it
 * is sent once more, without any wait of its own. Not when the chain stopped
 * early or the last use was not made.
 */
async function firstExpired(exchanges: ChainExchange[]): Promise<ChainExpired | undefined> {
  const [first] = exchanges;
  const lifeS = first?.body.refresh_expires_in;
  if (exchanges.length < 2 || !first?.seen.res || !grantServed(first.seen.res) || !isInt(lifeS) || lifeS <= 0) return undefined;
  if (performance.now() < first.seen.doneAt + realMs(lifeS) + afterEndMs()) return undefined;
  const after = await observe(c => tokenRequest(c, refreshForm(String(first.body.refresh_token)),
    'the refresh token of exchange 1 of a refresh chain after its refresh_expires_in has passed'));
  return { lifeS, after };
}

/** A use refused so close to its stated end (or so late, on a loaded machine) that the refusal proves nothing. */
const unjudgeableRefusal = (u: ChainUse) =>
  !u.judgeable && !(u.use.res && (u.token === 'access token' ? apiServed(u.use.res) : grantServed(u.use.res)));

/**
 * The refresh chain's watch: read by token.refresh.resets-lifetimes and
 * token.expiry.old-refresh-token-refused. A chain
 * with a refusal that proves nothing is made once more, as the single-token
 * watches try twice.
 */
export const chainWatch = watch(async () => {
  const first = await refreshChain();
  if (first.kind !== 'seen' || !first.exchanges.some(x => x.uses.some(unjudgeableRefusal))) return first;
  return refreshChain();
});

export interface AccessWatch { madeUp: Promise<Seen>; near: Promise<Waited<NearEnd>>; after: Promise<Waited<Expired>> }
export interface RefreshWatch { near: Promise<Waited<NearEnd>>; after: Promise<Waited<AfterEnd>> }

/** The access token's watch: read by token.use (near its end) and token.expiry (after it). */
export const accessWatch = watch((): AccessWatch => ({
  // Expiry can only be seen at an API that tells tokens apart.
  madeUp: observe(c => probeApi(c, 'pis-conformance-made-up-token', 'a made-up token, to see that the API tells tokens apart')),
  near: nearEnd('expires_in', false, (c, g) => callApi(c, g, 'the token just before its expires_in ends'), apiServed),
  after: expiredEverywhere(),
}));

/** The refresh tokens' watch (two pairs: a refresh token is used up by its exchange): read by token.refresh and token.expiry. */
export const refreshWatch = watch((): RefreshWatch => ({
  near: nearEnd('refresh_expires_in', true, (c, g) => exchange(c, g, 'the refresh token just before its refresh_expires_in ends'), grantServed),
  after: refreshAfterEnd(),
}));

type Field = 'expires_in' | 'refresh_expires_in';

/** Not run: a check's wait for a token's end does not fit --max-wait; the remedy names the --max-wait that would do. */
export function skipTooLong(c: CheckContext, what: string, field: Field, lifeS: unknown, waitMs: number, prefix = 'not checked: '): never {
  return c.skip(`${prefix}${what} (${field} ${JSON.stringify(lifeS)} s at time scale ${target().timeScale}) ` +
      `is ${(waitMs / 1000).toFixed(1)} s of waiting, more than --max-wait ${target().maxWaitS} s`,
    // A time scale the target's /health named is its clock's: no flag makes it faster.
    `raise --max-wait to ${neededMaxWait(waitMs)}${target().timeScaleFromTarget ? '' : ' (or run the target on a compressed clock with --time-scale)'}`);
}

/**
 * In a reading check: a lifetime that is no positive integer is another
 * check's finding. refresh_expires_in 0 is read as "no fixed expiry"
 * (token.issue.refresh-token): a refresh token that never expires has no end
 * to be refused after (old-refresh-token-refused: not applicable), but the
 * statement that it keeps working cannot be seen to its end in a run, so the
 * check that uses it until its end is not run: a server that states 0 and
 * drops refresh tokens after 30 minutes is then never Conformant unseen.
 */
export function requireLifetime(c: CheckContext, w: Waited<unknown>, field: Field, zero: 'not-applicable' | 'not-run' = 'not-applicable'):
  asserts w is Exclude<Waited<unknown>, { kind: 'no-lifetime' }> {
  adoptGrant(c, w.grant);
  if (w.kind !== 'no-lifetime') return;
  if (field === 'refresh_expires_in' && w.grant.body[field] === 0) {
    if (zero === 'not-applicable')
      c.notApplicable('refresh_expires_in is 0, read as no fixed expiry (Keycloak\'s value for offline tokens): no end after which to refuse it');
    c.skip('not checked: refresh_expires_in is 0, read as no fixed expiry (Keycloak\'s value for offline tokens), and a refresh token ' +
      'that must work without end cannot be seen to keep working within a run',
    'state the refresh token\'s lifetime in refresh_expires_in, or accept the run as incomplete for this check');
  }
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
  requireLifetime(c, w, o.field, 'not-run');
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
