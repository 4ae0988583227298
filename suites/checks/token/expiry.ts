// token.expiry: an access token stops working when expires_in has passed
// (spec 2.1, 8). The check waits the lifetime out when it fits the run's wait
// budget (--max-wait, on the target's compressed clock), otherwise it says why not;
// an API may keep taking the token for a clock-skew leeway (see LEEWAY_SPEC_S).
import type { Check } from '../../support/register.ts';
import { target } from '../../support/target.ts';
import { requireApi, describe, isInt, issuePair, probeApi } from './common.ts';

/**
 * Extra wait past expires_in: one spec second for the server's rounding of
 * expires_in up to whole seconds, plus 100 ms real (arbitrary) for timer slack.
 */
const marginMs = (scale: number) => 1000 * scale + 100;

/**
 * An API that validates JWTs itself commonly accepts a token for a while past
 * its expiry to allow for clock skew (RFC 7519 4.1.4: "some small leeway,
 * usually no more than a few minutes"): Spring's JwtTimestampValidator 60 s,
 * .NET's ClockSkew 300 s by default. A token refused within that leeway passes,
 * with the finding in its summary: failing every such API would be a false
 * alarm on a common, sanctioned setup (spec 2.1 does not speak of skew). 300 is
 * the largest common default; a token still accepted after it fails.
 */
const LEEWAY_SPEC_S = 300;

export const oldTokenRefused: Check = {
  id: 'token.expiry.old-token-refused', requirements: ['R2.1-expires-in-lifetime'], spec: '2.1',
  title: 'An access token is refused once expires_in (plus at most 300 s of clock-skew leeway) has passed',
  quote: 'expires_in | integer | Lifetime of access_token in seconds. The value 3600 means one hour from the time the response was generated.',
  // The wait budget plus time for the calls around it.
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    requireApi(c, 'seeing a token expire');
    const t = target();
    const wrong = await probeApi(c, 'pis-conformance-made-up-token', 'a made-up token, to see that the API tells tokens apart');
    if (wrong.status < 400) c.skip('not checked: the API accepts a made-up token as well, so expiry cannot be seen (see token.use.wrong-token-refused)');
    const { body, access } = await issuePair(c, false);
    const received = performance.now();
    const expiresIn = body.expires_in;
    if (!isInt(expiresIn)) return c.skip('not checked: expires_in is not an integer (see token.issue.expires-in)');
    const waitMs = expiresIn * 1000 * t.timeScale + marginMs(t.timeScale);
    if (waitMs > t.maxWaitS * 1000)
      c.skip(`expires_in ${expiresIn} s at time scale ${t.timeScale} is ${(waitMs / 1000).toFixed(1)} s of waiting, more than the wait budget of ${t.maxWaitS} s (raise --max-wait or run the target on a compressed clock with --time-scale)`,
        `raise --max-wait to ${Math.ceil(waitMs / 1000) + 1}`);
    const before = await probeApi(c, access, 'the fresh token, before it expires');
    if (before.status === 401 || before.status === 403) c.skip(`not checked: the API refused the fresh token (${before.status}, see token.use.accepted)`);
    await c.wait(received + waitMs - performance.now(), `the access token to expire (expires_in ${expiresIn} s at time scale ${t.timeScale})`);
    const after = await probeApi(c, access, 'the same token after expires_in has passed');
    c.measure('waited after the token answer', `expires_in ${expiresIn} s x time scale ${t.timeScale} + margin`, ((performance.now() - received) / 1000).toFixed(2), 's (real)');
    if (after.status >= 400) return;
    // Still accepted: allowed for a clock-skew leeway, then it must end.
    const lateMs = waitMs + LEEWAY_SPEC_S * 1000 * t.timeScale;
    if (lateMs > t.maxWaitS * 1000)
      c.skip(`not checked to the end: the API still accepts the token just after expires_in, which the ${LEEWAY_SPEC_S} s clock-skew leeway of RFC 7519 4.1.4 allows; seeing the leeway end is ${(lateMs / 1000).toFixed(1)} s of waiting, more than the wait budget of ${t.maxWaitS} s (raise --max-wait)`,
        `raise --max-wait to ${Math.ceil(lateMs / 1000) + 1}`);
    await c.wait(received + lateMs - performance.now(), `the end of the ${LEEWAY_SPEC_S} s clock-skew leeway after expires_in`);
    const late = await probeApi(c, access, `the same token after expires_in plus ${LEEWAY_SPEC_S} s of leeway`);
    c.expect(late.status >= 400, `the API still accepts the access token ${LEEWAY_SPEC_S} s after expires_in`,
      `a refusal (401) at the latest ${LEEWAY_SPEC_S} s (clock-skew leeway) after expires_in`, describe(late));
    c.summary = `The API accepted the token just after expires_in and refused it within the ${LEEWAY_SPEC_S} s clock-skew leeway (RFC 7519 4.1.4).`;
  },
};
