// The session suite's watch (support/waits.ts): as the worker starts, two
// sessions get consent, one for accounts and one for payments; once the
// consent lifetime has passed, each is used on its endpoint and must answer
// the consent-link error of an expired session (spec 4.4, 7). The spec does
// not say how long a consent lasts: the run is told (--session-lifetime; the
// bundled reference says its own), else the check is not run.
import { ok } from '../../support/api.ts';
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { paymentBody } from '../../support/payments.ts';
import type { Check } from '../../support/register.ts';
import { createSession, giveConsent, probeConsent, type Scope } from '../../support/sessions.ts';
import { target } from '../../support/target.ts';
import { adopt, neededMaxWait, observe, realMs, until, watch, type Seen } from '../../support/waits.ts';
import { paymentIn, PROBE_PRODUCT, sessionBank } from './common.ts';
import { expectConsentLinkError, SENTENCE } from './consent-link.ts';

/** After the lifetime: one spec second for rounding plus 100 ms real (arbitrary) of timer slack. */
const afterEndMs = () => realMs(1) + 100;

type Outcome =
  | { kind: 'unknown' }
  | { kind: 'too-long'; waitMs: number }
  | { kind: 'seen'; lifeS: number; setup: Seen; accounts: Seen; payment: Seen };

/** A new session with consent for `scope`, and when the consent was seen given. */
async function consented(c: CheckContext, bankId: string, scope: Scope): Promise<{ id: string; givenAt: number }> {
  const { res, id } = await createSession(c, bankId);
  if (!id) throw new Prerequisite(`no session could be started (${res.status}; see session.lifecycle.create)`);
  const givenAt = await giveConsent(c, id, scope);
  return { id, givenAt };
}

export const sessionWatch = watch((): Promise<Outcome> => (async () => {
  const lifeS = target().sessionLifetimeS;
  if (!lifeS) return { kind: 'unknown' };
  const waitMs = realMs(lifeS) + afterEndMs();
  // Consent by hand takes longer; the wait counts from when it was given.
  if (waitMs > target().maxWaitS * 1000) return { kind: 'too-long', waitMs };
  let sessions: { accounts: string; payments: string; bankId: string; body: Record<string, unknown>; end: number } | undefined;
  const setup = await observe(async c => {
    const bankId = await sessionBank();
    // The payment's body is made first: it reads the end user's accounts through a session of its own.
    const body = await paymentBody(bankId, PROBE_PRODUCT);
    const a = await consented(c, bankId, 'accounts');
    const p = await consented(c, bankId, 'payments');
    const proof = await probeConsent(c, a.id, 'accounts, after consent');
    if (!ok(proof)) throw new Prerequisite(`the session does not work after consent (${proof.status}; see session.lifecycle.consent)`);
    sessions = { accounts: a.id, payments: p.id, bankId, body, end: Math.max(a.givenAt, p.givenAt) + waitMs };
    return proof;
  });
  if (!sessions) return { kind: 'seen', lifeS, setup, accounts: setup, payment: setup };
  const s = sessions;
  await until(s.end, `two consents to expire (--session-lifetime ${lifeS} s)`);
  const [accounts, payment] = await Promise.all([
    observe(c => probeConsent(c, s.accounts, 'accounts, after the consent lifetime')),
    observe(c => paymentIn(c, s.payments, s.body, 'a payment, after the consent lifetime')),
  ]);
  return { kind: 'seen', lifeS, setup, accounts, payment };
})());

export const expiredSession: Check = {
  id: 'session.consent-link.expired-session', requirements: ['R4.4-consent-link-error'], spec: '7',
  title: 'An expired session gets the consent-link error on account and payment calls',
  quote: SENTENCE,
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    const w = await sessionWatch();
    if (w.kind === 'unknown')
      return c.skip('not checked: the spec does not say how long a consent lasts, and the run was not told',
        'give --session-lifetime S (spec seconds a consented session lasts on the target) to see one expire');
    if (w.kind === 'too-long')
      return c.skip(`not checked: seeing a session expire (--session-lifetime ${target().sessionLifetimeS} s at time scale ${target().timeScale}) ` +
          `is ${(w.waitMs / 1000).toFixed(1)} s of waiting, more than --max-wait ${target().maxWaitS} s`,
        `raise --max-wait to ${neededMaxWait(w.waitMs)}`);
    adopt(c, w.setup);
    const accounts = adopt(c, w.accounts);
    const payment = adopt(c, w.payment);
    c.note(`both sessions were used ${w.lifeS} spec s (plus a spec second) after their consent was given`);
    expectConsentLinkError(c, accounts, 'to an account call in an expired session');
    expectConsentLinkError(c, payment, 'to a payment in an expired session');
    c.summary = `Account and payment calls in sessions whose consent was given ${w.lifeS} spec s before ` +
      `got the consent-link error (${accounts.status}, ${payment.status}).`;
  },
};
