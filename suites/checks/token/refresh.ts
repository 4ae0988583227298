// token.refresh: the refresh token grant (spec 4.2, 5.3).
import type { Check } from '../../support/register.ts';
import { type CheckContext, describeAnswer, Prerequisite } from '../../support/check.ts';
import { obj } from '../../support/api.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { refreshForm, tokenRequest } from '../../support/tokens.ts';
import { target } from '../../support/target.ts';
import { isInt, issuePair, tokenFields, type TokenBody } from './common.ts';
import { adopt, realMs, specSeconds } from '../../support/waits.ts';
import { accessWatch, apiServed, chainWatch, CHAIN_LENGTH, grantServed, judgeNearEnd, refreshWatch, skipTooLong, type ChainExchange } from './lifetimes.ts';

/** Issues a pair and refreshes it once; the refresh answer must be a success to go on. */
async function refreshOnce(c: CheckContext, waitSpecS = 0) {
  const first = await issuePair(c);
  const t0 = performance.now();
  // At least 200 real ms (arbitrary): on a compressed clock a few spec seconds are a few ms, which scheduling alone can blur.
  const waitMs = waitSpecS > 0 ? Math.max(realMs(waitSpecS), 200) : 0;
  if (waitMs > 0) await c.wait(waitMs, `${specSeconds(waitMs).toFixed(0)} spec s before refreshing, to see the lifetimes start again`);
  const res = await tokenRequest(c, refreshForm(first.refresh), 'refresh token grant');
  const elapsedSpecS = specSeconds(performance.now() - t0);
  return { first, res, body: obj(res) ?? {}, elapsedSpecS };
}

/**
 * One exchange of a quick refresh chain: its answer, the pair it was asked to renew, and how old that refresh token
 * may have been when the answer came (real ms from the request that got it to this answer: at most its age).
 */
interface Exchanged { res: ExchangeResponse; body: TokenBody; before: { access: string; refresh: string; body: TokenBody }; ageMs: number }

/**
 * A pair, then CHAIN_LENGTH exchanges without waiting, each of the refresh
 * token the one before answered, as places of the family refresh-exchange. An
 * exchange that could not be made (the one before answered no refresh token)
 * is a Prerequisite naming why.
 */
async function quickChain(c: CheckContext): Promise<{ name: string; value: Exchanged | Prerequisite }[]> {
  let asked = performance.now();
  const first = await issuePair(c);
  const made: Exchanged[] = [];
  let before: Exchanged['before'] = { access: first.access, refresh: first.refresh, body: first.body };
  for (let n = 1; n <= CHAIN_LENGTH; n++) {
    const sent = performance.now();
    const res = await tokenRequest(c, refreshForm(before.refresh), `exchange ${n} of a refresh chain`);
    const body = obj(res) ?? {};
    made.push({ res, body, before, ageMs: performance.now() - asked });
    if (res.status !== 200 || typeof body.refresh_token !== 'string' || !body.refresh_token) break;
    before = { access: String(body.access_token), refresh: body.refresh_token, body };
    asked = sent;
  }
  return Array.from({ length: CHAIN_LENGTH }, (_, i) => ({
    name: `exchange ${i + 1}`,
    value: made[i] ?? new Prerequisite(`not made: exchange ${i} answered ${made[i - 1]!.res.status} without a new refresh_token`),
  }));
}

/** The exchange of a place, or why it was not made. */
function exchangeOf(x: Exchanged | Prerequisite): Exchanged {
  if (x instanceof Prerequisite) throw x;
  return x;
}

export const answers: Check = {
  id: 'token.refresh.answers-tokens', requirements: ['R2.1-refresh-token', 'R2.1-refresh-expires-in', 'R2.1-scope', 'R4.2-refresh-grant'], spec: '4.2',
  bindsAt: { family: 'refresh-exchange' },
  title: 'The refresh grant answers 200 with a token response (tokens, lifetimes, scope), at every exchange of a refresh chain',
  quote: 'To keep the session alive, the client exchanges refresh_token for a new pair (4.2). Response: token response object (2.1), including scope.',
  async run(c) {
    await c.everyPlace('refresh-exchange', await quickChain(c), async (exchanged, at) => {
      const { res, body, before, ageMs } = exchangeOf(exchanged);
      // A refusal of a refresh token that may have reached its stated end says nothing of the grant (a clean-clone CI
      // run at load 10: exchange 2 of a chain refused "refresh token has expired", refresh_expires_in 200 s at 0.01).
      const life = before.body.refresh_expires_in;
      if (res.status !== 200 && isInt(life) && life > 0 && ageMs >= realMs(life))
        throw new Prerequisite(`the refresh token of ${at} was refused ${(ageMs / 1000).toFixed(2)} s (real) after it was asked for, at or past ` +
          `its refresh_expires_in of ${life} s (${(realMs(life) / 1000).toFixed(2)} s here)`,
          'run with a larger --time-scale, or on a less busy machine, so that a chain\'s exchanges end within the refresh token\'s lifetime');
      c.expect(res.status === 200, `the refresh grant was not answered with success at ${at}`, '200', describeAnswer(res), res);
      c.expect(tokenFields(body).includes('access_token') && tokenFields(body).includes('refresh_token'),
        `the refresh answer of ${at} lacks a token`, 'access_token and refresh_token', tokenFields(body).join(', ') || 'neither', res);
      // A wrong token_type in the answer before is another exchange's (or token.issue.token-type's) finding; only one that breaks it here is this place's.
      const bearer = (v: unknown) => typeof v === 'string' && v.toLowerCase() === 'bearer';
      if (bearer(before.body.token_type))
        c.expect(bearer(body.token_type), `token_type of the refresh answer of ${at} is not bearer`, '"bearer" in any letter case',
          JSON.stringify(body.token_type) ?? 'absent', res);
      c.expect(typeof body.scope === 'string', `the refresh answer of ${at} has no scope`, 'scope: a string (spec 4.2: "including scope")',
        JSON.stringify(body.scope) ?? 'absent', res);
      // The lifetimes as token.issue judges them in the first answer (refresh_expires_in 0: no fixed expiry); whether they reset is resets-lifetimes'.
      c.expect(isInt(body.expires_in) && body.expires_in > 0, `expires_in of the refresh answer of ${at} is not a positive integer`,
        'a positive integer (spec 2.1)', JSON.stringify(body.expires_in) ?? 'absent', res);
      c.expect(isInt(body.refresh_expires_in) && body.refresh_expires_in >= 0,
        `refresh_expires_in of the refresh answer of ${at} is not a lifetime in whole seconds`, 'an integer, 0 or more (spec 2.1)',
        JSON.stringify(body.refresh_expires_in) ?? 'absent', res);
    });
  },
};

export const renews: Check = {
  id: 'token.refresh.renews-tokens', requirements: ['R4.2-tokens-renewed'], spec: '4.2', bindsAt: { family: 'refresh-exchange' },
  title: 'A refresh returns a new access token and a new refresh token, at every exchange of a refresh chain',
  quote: 'Both expires_in and refresh_expires_in are reset and the tokens are renewed.',
  async run(c) {
    await c.everyPlace('refresh-exchange', await quickChain(c), async (exchanged, at) => {
      const { res, body, before } = exchangeOf(exchanged);
      if (res.status !== 200) throw new Prerequisite(`the refresh grant answered ${res.status} at ${at} (see token.refresh.answers-tokens)`);
      c.expect(typeof body.access_token === 'string' && body.access_token !== before.access, `the access token was not renewed at ${at}`,
        'a new access_token', body.access_token === before.access ? 'the same access_token as before' : 'no access_token', res);
      c.expect(typeof body.refresh_token === 'string' && body.refresh_token !== before.refresh, `the refresh token was not renewed at ${at}`,
        'a new refresh_token', body.refresh_token === before.refresh ? 'the same refresh_token as before' : 'no refresh_token', res);
    });
  },
};

/**
 * A refresh a few spec seconds after the grant must state full lifetimes again.
 * The wait (6 spec s) is arbitrary: long enough that a countdown shows beyond
 * the one second a server may lose to rounding, short at any time scale.
 */
const WAIT_SPEC_S = 6;

/**
 * Both lifetimes start again at every exchange of a refresh chain: the
 * numbers a refresh states, and how long its tokens are then taken (the
 * chain's watch in lifetimes.ts uses the access token of each exchange and the
 * refresh token of the last just before the ends their answers stated).
 */
export const resetsLifetimes: Check = {
  id: 'token.refresh.resets-lifetimes', requirements: ['R4.2-lifetimes-reset'], spec: '4.2', bindsAt: { family: 'refresh-exchange' },
  title: 'A refresh restarts both lifetimes, at every exchange of a refresh chain',
  quote: 'Both expires_in and refresh_expires_in are reset and the tokens are renewed.',
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    const { first, res, body, elapsedSpecS } = await refreshOnce(c, WAIT_SPEC_S);
    if (res.status !== 200) throw new Prerequisite(`the refresh grant answered ${res.status} (see token.refresh.answers-tokens)`);
    for (const k of ['expires_in', 'refresh_expires_in']) {
      const before = first.body[k], after = body[k];
      if (!isInt(before) || !isInt(after))
        return c.fail(`${k} is missing or not an integer in an answer`, 'integers in both answers', `${JSON.stringify(before)} then ${JSON.stringify(after)}`);
      // refresh_expires_in 0 is "no fixed expiry" (Keycloak offline tokens; see token.issue.refresh-token): nothing to count down.
      if (k === 'refresh_expires_in' && after === 0) {
        c.note('refresh_expires_in is 0 after the refresh: no fixed expiry, so no countdown to see.');
        continue;
      }
      // A countdown loses the elapsed time; a reset loses at most rounding. Half the elapsed time separates them.
      const floor = before - elapsedSpecS / 2;
      c.measure(`${k} after ${elapsedSpecS.toFixed(1)} spec s`, `at least ${floor.toFixed(1)} (reset)`, String(after), 's');
      c.expect(after >= floor, `${k} was not reset by the refresh`,
        `about ${before} s again (at least ${floor.toFixed(1)})`,
        `${after} s, ${(before - after)} s less, ${elapsedSpecS.toFixed(1)} spec s after the first answer`);
    }
    const chain = await chainWatch();
    adopt(c, chain.grant.seen);
    if (chain.kind === 'no-lifetime') throw new Prerequisite('the client credentials answer has no refresh_token (see token.issue.refresh-token)');
    if (chain.kind === 'too-long')
      return skipTooLong(c, 'using the tokens of a refresh chain near their ends', 'refresh_expires_in', chain.grant.body.refresh_expires_in, chain.waitMs);
    const places = Array.from({ length: CHAIN_LENGTH }, (_, i) => ({ name: `exchange ${i + 1}`, value: chain.exchanges[i] }));
    await c.everyPlace('refresh-exchange', places, x => judgeExchange(c, x));
  },
};

/** One exchange of the chain: its tokens were taken until the ends its own answer stated. */
async function judgeExchange(c: CheckContext, x: ChainExchange | undefined): Promise<void> {
  if (!x) throw new Prerequisite('not made: the exchange before it failed (see token.refresh.chain)');
  const res = adopt(c, x.seen);
  if (!grantServed(res)) throw new Prerequisite(`exchange ${x.n} answered ${res.status} (see token.refresh.chain)`);
  if (!x.uses.length) throw new Prerequisite(`no token of exchange ${x.n} states a positive lifetime to use it near its end (see token.issue)`);
  for (const u of x.uses) {
    const r = adopt(c, u.use);
    if (u.token === 'access token' ? apiServed(r) : grantServed(r)) continue;
    // A token that dies early without any refresh is another check's finding: here only the chain's own schedule is judged.
    const fresh = await (u.token === 'access token' ? accessWatch() : refreshWatch()).near;
    if (fresh.kind === 'seen' && fresh.judgeable && fresh.use.res && !(u.token === 'access token' ? apiServed : grantServed)(fresh.use.res))
      throw new Prerequisite(`a ${u.token} from the client credentials grant is refused before its stated end too ` +
        `(see ${u.token === 'access token' ? 'token.use.until-expires-in' : 'token.refresh.until-refresh-expires-in'})`);
    c.expect(!u.judgeable, `the ${u.token} of exchange ${x.n} was refused before the end of the ${u.field} of ${u.lifeS} s its answer stated`,
      `${u.token === 'access token' ? 'a 2xx answer' : '200 with a new pair'}: its lifetime counts from its own exchange`, describeAnswer(r), r);
    throw new Prerequisite(`the ${u.token} of exchange ${x.n} was not served in its last spec second, where rounding or a slow request explains it`);
  }
}

export const reuse: Check = {
  id: 'token.refresh.reuse-after-exchange', requirements: ['P-token-refresh-reuse'], spec: '4.2',
  title: 'Reusing a refresh token after a refresh: reported, allowed or refused',
  quote: 'docs/profile.md: reuse of a refresh token after it was exchanged: allowed or refused (invalid_grant); the spec is silent, report which.',
  async run(c) {
    const { first, res } = await refreshOnce(c);
    if (res.status !== 200) throw new Prerequisite(`the refresh grant answered ${res.status} (see token.refresh.answers-tokens)`);
    const again = await tokenRequest(c, refreshForm(first.refresh), 'the same refresh token again');
    c.summary = (again.status === 200
      ? 'The target allows a refresh token to be used again after it was exchanged.'
      : `The target refuses a refresh token used a second time (${describeAnswer(again)}).`);
    c.note(c.summary);
  },
};

export const chain: Check = {
  id: 'token.refresh.chain', requirements: ['R4.2-tokens-renewed'], spec: '5',
  title: 'The refresh token of a refresh answer can be exchanged in turn',
  quote: 'To keep the session alive, the client exchanges refresh_token for a new pair (4.2).',
  async run(c) {
    const { res, body } = await refreshOnce(c);
    const next = body.refresh_token;
    if (res.status !== 200 || typeof next !== 'string')
      throw new Prerequisite(`the refresh grant answered ${res.status} without a refresh_token (see token.refresh.answers-tokens)`);
    const again = await tokenRequest(c, refreshForm(next), 'the refresh token of the refresh answer');
    c.expect(again.status === 200 && tokenFields(obj(again)).includes('access_token'), 'the refresh token of a refresh answer was not exchanged',
      '200 with a new access_token: a session is kept alive by refreshing again and again', describeAnswer(again));
  },
};

/**
 * A refresh token is exchanged just before the end its refresh_expires_in
 * stated (the wait runs in lifetimes.ts beside the other checks); a refusal in
 * the last spec second proves nothing and is tried once more with a new pair.
 */
export const untilRefreshExpiresIn: Check = {
  id: 'token.refresh.until-refresh-expires-in', requirements: ['R2.1-refresh-expires-in'], spec: '2.1',
  title: 'A refresh token is exchanged until its refresh_expires_in has passed',
  quote: 'refresh_expires_in | integer | Lifetime of refresh_token in seconds.',
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    judgeNearEnd(c, await refreshWatch().near, { field: 'refresh_expires_in', token: 'refresh token', by: 'the token endpoint',
      served: grantServed, expected: '200 with a new token pair: the refresh token has not expired' });
  },
};
