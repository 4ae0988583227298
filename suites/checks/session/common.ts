// What the session checks share: a new session at the first bank under test,
// and a consented one, each made for the check that asks (sessions are cheap
// and a check must not see another check's leftovers).
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { banksUnderTest, type Bank } from '../../support/banks.ts';
import { createSession, giveConsent, mayHaveExpired, probeConsent } from '../../support/sessions.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { call, ok } from '../../support/api.ts';
import { target } from '../../support/target.ts';
import { bankCountry, bankId, isConsentError, paymentRequest } from '../../support/describe.ts';
import { realMs } from '../../support/waits.ts';

export async function sessionBank(): Promise<string> {
  return (await banksUnderTest())[0]!.id;
}

/**
 * The first bank under test of each country, as places of the family
 * 'country': consent is per bank in this API (spec 2.6, 4.4), so a session
 * rule is judged at one bank per country at least.
 */
export async function countryBanks(): Promise<{ name: string; value: Bank }[]> {
  return (await countryGroups()).map(g => ({ name: g.country, value: g.banks[0]! }));
}

/** The banks under test by country, in list order (a bank without a country is a country of its own). */
export async function countryGroups(): Promise<{ country: string; banks: Bank[] }[]> {
  const out: { country: string; banks: Bank[] }[] = [];
  for (const b of await banksUnderTest()) {
    const country = bankCountry(b) || `(no country: ${bankId(b) ?? b.id})`;
    const group = out.find(g => g.country === country);
    if (group) group.banks.push(b); else out.push({ country, banks: [b] });
  }
  return out;
}

/** A new session, its start recorded as evidence; no session is a Prerequisite (session.lifecycle.create reports it). */
export async function newSession(c: CheckContext): Promise<string> {
  const { res, id } = await createSession(c, await sessionBank());
  if (!id) throw new Prerequisite(`no session could be started (${res.status}; see session.lifecycle.create)`);
  return id;
}

/** A new session at `bankId`, its start in the check's evidence; none is a Prerequisite. */
export async function startAt(c: CheckContext, bankId: string): Promise<string> {
  const { res, id } = await createSession(c, bankId);
  if (!id) throw new Prerequisite(`no session could be started at ${bankId} (${res.status}; see session.lifecycle.create)`);
  return id;
}

/** A new session at `bankId` with consent given and seen to work. */
export async function consentedAt(c: CheckContext, bankId: string): Promise<string> {
  return seenToWork(c, await startAt(c, bankId), ` at ${bankId}`);
}

/** A new session with consent given and seen to work. */
export async function consentedNewSession(c: CheckContext): Promise<string> {
  return seenToWork(c, await newSession(c), '');
}

/**
 * Session `id`, once given consent to accounts and seen to serve them: an answer that is not 2xx leaves the check not
 * run (a Prerequisite), with unlessExpired's reason when the consent may have run out meanwhile. `at` names the bank
 * (" at dnb-no"), or is ''.
 */
async function seenToWork(c: CheckContext, id: string, at: string): Promise<string> {
  const askedAt = performance.now();
  await giveConsent(c, id, 'accounts');
  const probe = await probeConsent(c, id, `accounts${at}, after consent`);
  unlessExpired(probe, askedAt, `the session${at}`);
  if (!ok(probe)) throw new Prerequisite(`the session${at} does not work after consent (${probe.status}; see session.lifecycle.consent)`);
  return id;
}


/**
 * Ends the place not run when `res`, the answer `what` gave ("the session at dnb-no"), is the consent-link error of a
 * consent asked for at `askedAt` (performance.now()) that may have run out since, near or past the consent lifetime
 * (--session-lifetime): on a compressed clock and a busy machine it proves nothing about the rule the check judges (a
 * clean-clone CI run at load 10 saw the bundled reference's consent of 4 real s expire between the consent and the
 * call that judged it).
 */
export function unlessExpired(res: ExchangeResponse, askedAt: number, what: string): void {
  const ageMs = performance.now() - askedAt, lifeS = target().sessionLifetimeS;
  if (!ok(res) && isConsentError(res) && lifeS && mayHaveExpired(ageMs, lifeS))
    throw new Prerequisite(`${what} answered the consent-link error ${(ageMs / 1000).toFixed(2)} s (real) after its ` +
      `consent was asked for, near or past the consent lifetime (${lifeS} spec s, ${(realMs(lifeS) / 1000).toFixed(2)} s here), so it may ` +
      'have expired', 'run with a larger --time-scale, or on a less busy machine, so that the calls end well within the consent lifetime');
}

/** The payment product used in the payment probes: every bank serves domestic transfers (docs/profile.md "Operations"). */
export const PROBE_PRODUCT = 'domestic-transfer';

/** A payment call in a given session, with the optional headers of spec 4.4. */
export function paymentIn(c: CheckContext, sessionId: string, body: Record<string, unknown>, label: string): Promise<ExchangeResponse> {
  const t = target();
  return call(c, 'POST', 'payments', { product: PROBE_PRODUCT }, {
    session: sessionId, body: paymentRequest(body), label, headers: { [t.headers.psuIpAddress]: t.psuIpAddress, [t.headers.redirectUrl]: t.redirectUrl },
  });
}
