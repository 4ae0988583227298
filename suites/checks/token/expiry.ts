// token.expiry: an access token stops working once expires_in has passed
// (spec 2.1, 8), and a refresh token once refresh_expires_in has passed (spec
// 5.3: the refresh "must be done before refresh_token expires"). The waits run
// in the token suite's watches (lifetimes.ts) beside its other checks, when they
// fit the run's wait budget (--max-wait, on the target's compressed clock);
// otherwise the check is not run and names the --max-wait that would do.
import type { Check } from '../../support/register.ts';
import { target } from '../../support/target.ts';
import { adopt } from '../../support/waits.ts';
import { requireApi} from './common.ts';
import { accessWatch, apiRefused, chainWatch, grantRefused, LEEWAY_RULE, refreshWatch, requireLifetime, skipTooLong } from './lifetimes.ts';
import { describeAnswer } from '../../support/check.ts';
import { refusedEarly, SLOW_CALL_REMEDY } from '../../support/tokens.ts';

/**
 * An API may keep taking a token for a clock-skew leeway (lifetimes.ts,
 * leewayS: a tenth of the stated lifetime, at most 300 s): a token refused
 * within it passes, with the finding in its summary; failing every such API
 * would be a false alarm on a common, sanctioned setup (spec 2.1 does not
 * speak of skew). A token still taken after it fails. Every operation of the
 * version under test is asked, each with the same expired token.
 */
export const oldTokenRefused: Check = {
  id: 'token.expiry.old-token-refused', requirements: ['R2.1-expires-in-lifetime'], spec: '2.1', bindsAt: { family: 'operation' },
  title: 'Every operation refuses an access token once expires_in (plus a leeway of a tenth of it, at most 300 s) has passed',
  quote: 'expires_in | integer | Lifetime of access_token in seconds. The value 3600 means one hour from the time the response was generated.',
  // The wait budget plus time for the calls around it.
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    requireApi(c, 'seeing a token expire');
    const w = accessWatch();
    const wrong = adopt(c, await w.madeUp);
    if (!apiRefused(wrong))
      return c.skip('not checked: the API does not refuse a made-up token either, so expiry cannot be seen (see token.use.wrong-token-refused)');
    const seen = await w.after;
    requireLifetime(c, seen, 'expires_in');
    if (seen.kind === 'too-long') return skipTooLong(c, 'seeing the token expire', 'expires_in', seen.grant.body.expires_in, seen.waitMs);
    const fresh = adopt(c, seen.fresh);
    if (apiRefused(fresh)) {
      // Refused once its own lifetime may have passed (a busy machine sent the first call that late: a clean-clone CI run at
      // 100 spec s, one real second): the refusal may be its expiry, which says nothing of whether the API took it.
      const ageS = (seen.fresh.doneAt - seen.grant.seen.sentAt) / 1000;
      if (!refusedEarly({ sentAt: seen.grant.seen.sentAt, lifeS: seen.lifeS }, seen.fresh.doneAt))
        return c.skip(`not checked: the fresh token's first call was answered ${ageS.toFixed(2)} s (real) after the token was asked for, ` +
          `at or past the end of its expires_in of ${seen.lifeS} s at time scale ${target().timeScale}, and refused (${fresh.status})`, SLOW_CALL_REMEDY);
      return c.skip(`not checked: the API refused the fresh token (${fresh.status}, see token.use.accepted)`);
    }
    const first = seen.at.find(a => a.after)?.after;
    if (first) c.measure('waited after the token answer', `expires_in ${seen.lifeS} s x time scale ${target().timeScale} + margin`,
      ((first.sentAt - seen.grant.seen.doneAt) / 1000).toFixed(2), 's (real)');
    const leeway = `${seen.leewayS} s`;
    const inLeeway: string[] = [];
    await c.everyPlace('operation', seen.at.map(a => ({ name: a.name, value: a })), async a => {
      if (a.missing) throw a.missing;
      const after = adopt(c, a.after!);
      if (apiRefused(after)) return;
      if (a.lateWaitMs !== undefined)
        return skipTooLong(c, `seeing the leeway of ${leeway} (${LEEWAY_RULE}) end`, 'expires_in', seen.lifeS, a.lateWaitMs,
          'not checked to the end: the API still accepts the token just after expires_in, which the leeway allows; ');
      const late = adopt(c, a.late!);
      c.expect(apiRefused(late), `still accepts the access token ${seen.leewayS} s after expires_in`,
        `a refusal (401) at the latest ${leeway} after expires_in (the leeway: ${LEEWAY_RULE})`, describeAnswer(late), late);
      inLeeway.push(a.name);
    });
    if (inLeeway.length) c.summary = `accepted the token just after expires_in and refused it within the leeway of ${leeway} (${LEEWAY_RULE}) at ` +
      `${inLeeway.join(', ')}; ${c.summary}`;
  },
};

/**
 * The auth server that issued a refresh token also judges it, so no clock
 * skew applies: once refresh_expires_in (plus a spec second of rounding) has
 * passed, the refresh grant must be refused. refresh_expires_in 0 is
 * Keycloak's "no fixed expiry" (see token.issue.refresh-token): nothing expires.
 * Judged for the client credentials grant's refresh token, and for the first
 * refresh token of the refresh chain (lifetimes.ts), past its end once the
 * chain is done; the chain's last refresh token is not waited for past its end
 * (requirements.yaml, R2.1-refresh-expires-in, says why).
 */
export const oldRefreshRefused: Check = {
  id: 'token.expiry.old-refresh-token-refused', requirements: ['R5.3-refresh-before-expiry', 'R2.1-refresh-expires-in'], spec: '5',
  title: 'A refresh token is refused once refresh_expires_in has passed',
  quote: 'To keep the session alive, the client exchanges refresh_token for a new pair (4.2). This must be done before refresh_token expires.',
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    const seen = await refreshWatch().after;
    requireLifetime(c, seen, 'refresh_expires_in');
    if (seen.kind === 'too-long')
      return skipTooLong(c, 'seeing the refresh token expire', 'refresh_expires_in', seen.grant.body.refresh_expires_in, seen.waitMs);
    const res = adopt(c, seen.after);
    c.measure('waited after the token answer', `refresh_expires_in ${seen.lifeS} s x time scale ${target().timeScale} + margin`,
      ((seen.after.sentAt - seen.grant.seen.doneAt) / 1000).toFixed(2), 's (real)');
    c.expect(grantRefused(res), `the token endpoint still exchanges the refresh token after its refresh_expires_in of ${seen.lifeS} s`,
      'a refusal (400 invalid_grant)', describeAnswer(res));
    // The refresh chain's first refresh token, past its end when the chain's last one was used near its own (lifetimes.ts, firstExpired).
    const chain = await chainWatch();
    const expired = chain.kind === 'seen' ? chain.expired : undefined;
    if (!expired) return c.note('not judged at a refresh chain: its first refresh token could not be sent after its end (see token.refresh.resets-lifetimes)');
    const late = adopt(c, expired.after);
    c.expect(grantRefused(late), `the token endpoint still exchanges the refresh token of exchange 1 of a refresh chain after its refresh_expires_in of ${
      expired.lifeS} s`, 'a refusal (400 invalid_grant): the lifetime of a refresh token from a refresh answer ends too', describeAnswer(late), late);
    c.summary = 'refused after refresh_expires_in: the client credentials grant\'s refresh token, and exchange 1\'s of a refresh chain ' +
      '(sent again after exchange 2 used it, so a target that refuses reuse refuses it either way)';
  },
};
