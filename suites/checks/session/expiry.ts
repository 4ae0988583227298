// The session suite's watch (support/waits.ts): as the worker starts, the
// requests of every session-bound operation are prepared, and at each bank they
// go to two sessions get consent, one for accounts and one for payments; once
// the consent lifetime has passed, every operation is called in its bank's
// session and must answer the consent-link error of an expired session (spec
// 4.4, 7). The spec does not say how long a consent lasts: the run is told
// (--session-lifetime; the bundled reference says its own), else the check is
// not run.
import { isDeepStrictEqual } from 'node:util';
import { call, isError, obj, ok } from '../../support/api.ts';
import { describeAnswer, Prerequisite, type CheckContext } from '../../support/check.ts';
import type { Check } from '../../support/register.ts';
import { createSession, giveConsent, probeConsent, type Scope } from '../../support/sessions.ts';
import { target } from '../../support/target.ts';
import { sharedToken } from '../../support/tokens.ts';
import { adopt, neededMaxWait, observe, realMs, until, watch, type Seen } from '../../support/waits.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { sessionBoundOperations, type OperationProbe } from '../../support/session-places.ts';
import { countryProbes, notOffered } from './every-operation.ts';
import { expectConsentLinkError, SENTENCE } from './consent-link.ts';
import { unlessExpired } from './common.ts';

/** After the lifetime: one spec second for rounding plus 100 ms real (arbitrary) of timer slack. */
const afterEndMs = () => realMs(1) + 100;

/** What an operation answered at one bank per country, or why it could not be asked. */
type SeenAt = { op: string; seen: { where: string; probe: OperationProbe; seen: Seen }[] } | { op: string; error: unknown };

type Watched =
  | { kind: 'unknown' }
  | { kind: 'too-long'; waitMs: number }
  | { kind: 'seen'; lifeS: number; setup: Seen; notes: string[]; at: SeenAt[]; status?: { givenAt: number; consented: Seen; expired: Seen; served: Seen } };

/** A new session with consent for `scope`, and when the consent was seen given. */
async function consented(c: CheckContext, bankId: string, scope: Scope): Promise<{ id: string; askedAt: number; givenAt: number }> {
  const { res, id } = await createSession(c, bankId);
  if (!id) throw new Prerequisite(`no session could be started (${res.status}; see session.lifecycle.create)`);
  const askedAt = performance.now();
  const givenAt = await giveConsent(c, id, scope);
  return { id, askedAt, givenAt };
}

export const sessionWatch = watch((): Promise<Watched> => (async () => {
  const lifeS = target().sessionLifetimeS;
  if (!lifeS) return { kind: 'unknown' };
  const waitMs = realMs(lifeS) + afterEndMs();
  // Consent by hand takes longer; the wait counts from when it was given.
  if (waitMs > target().maxWaitS * 1000) return { kind: 'too-long', waitMs };
  // What each operation's request needs is made first, in the worker's own sessions, at one bank per country (consent is per bank: 2.6, 4.4).
  const ops = sessionBoundOperations();
  const notes: string[] = [];
  const probes = await Promise.all(ops.map(op => countryProbes(t => notes.push(t), op).then(list => ({ list }), (error: unknown) => ({ error }))));
  const banks = [...new Set(probes.flatMap(x => 'list' in x ? x.list.map(y => y.probe.bankId) : []))];
  const sessions = new Map<string, string>();
  let end = 0;
  // GET /session of the first bank's session, right after its consent was given (the other sessions' setup after it
  // may outlast a compressed consent lifetime on a busy machine), and once it has expired (the state `expired` of spec 4.4, 7).
  let consentedStatus: { givenAt: number; seen: Seen } | undefined;
  const setup = await observe(async c => {
    let proof: ExchangeResponse | undefined;
    for (const bankId of banks) for (const scope of ['accounts', 'payments'] as const) {
      const s = await consented(c, bankId, scope);
      sessions.set(`${bankId} ${scope}`, s.id);
      end = Math.max(end, s.givenAt + waitMs);
      if (scope === 'accounts' && bankId === banks[0])
        consentedStatus = { givenAt: s.givenAt, seen: await observe(x => statusOf(x, s.id, 'while consent is given')) };
      if (scope === 'accounts') {
        proof = await probeConsent(c, s.id, `accounts at ${bankId}, after consent`);
        unlessExpired(proof, s.askedAt, `the session at ${bankId}`);
        if (!ok(proof)) throw new Prerequisite(`the session at ${bankId} does not work after consent (${proof.status}; see session.lifecycle.consent)`);
      }
    }
    if (!proof) throw new Prerequisite('no operation bound to a session could be prepared');
    return proof;
  });
  if (setup.error !== undefined) return { kind: 'seen', lifeS, setup, notes, at: [] };
  const statusAt = banks[0] && sessions.get(`${banks[0]} accounts`);
  await until(end, `consents at ${banks.length} bank${banks.length === 1 ? '' : 's'} to expire (--session-lifetime ${lifeS} s)`);
  // Every operation at once, at one bank per country, with a token of full lifetime: the worker's may have a third of its
  // life left, and on a compressed clock (2 real s) a busy machine answers such a burst after it (a token refused as expired).
  await sharedToken(true).catch(() => undefined);
  const at = await Promise.all(ops.map(async (op, i): Promise<SeenAt> => {
    const x = probes[i]!;
    if (!('list' in x)) return { op: op.id, error: x.error };
    const scope = op.path === 'accounts' || op.path === 'transactions' ? 'accounts' : 'payments';
    const seen = await Promise.all(x.list.map(async ({ country, probe }) => ({
      where: `${op.id} at ${probe.bankId} (${country})`, probe,
      seen: await observe(c => probe.send(c, sessions.get(`${probe.bankId} ${scope}`)!, 'after the consent lifetime')),
    })));
    return { op: op.id, seen };
  }));
  const status = statusAt && consentedStatus ? {
    givenAt: consentedStatus.givenAt,
    consented: consentedStatus.seen,
    expired: await observe(c => statusOf(c, statusAt, 'after the consent lifetime')),
    served: await observe(c => probeConsent(c, statusAt, 'accounts in the same session, after the consent lifetime')),
  } : undefined;
  return { kind: 'seen', lifeS, setup, notes, at, ...(status ? { status } : {}) };
})());

/** GET /session for `id`. */
const statusOf = (c: CheckContext, id: string, when: string) =>
  call(c, 'GET', 'session', { sessionId: id }, { session: id, label: `consent status, ${when}` });

/**
 * The watch's outcome for a check that needs a session to expire, its setup
 * adopted; skips when the run was not told the consent lifetime, or its wait
 * is too long.
 */
async function expiredWatch(c: CheckContext): Promise<Extract<Watched, { kind: 'seen' }>> {
  const w = await sessionWatch();
  if (w.kind === 'unknown')
    c.skip('not checked: the spec does not say how long a consent lasts, and the run was not told',
      'give --session-lifetime S (spec seconds a consented session lasts on the target) to see one expire');
  if (w.kind === 'too-long')
    c.skip(`not checked: seeing a session expire (--session-lifetime ${target().sessionLifetimeS} s at time scale ${target().timeScale}) ` +
        `is ${(w.waitMs / 1000).toFixed(1)} s of waiting, more than --max-wait ${target().maxWaitS} s`,
      `raise --max-wait to ${neededMaxWait(w.waitMs)}`);
  adopt(c, w.setup);
  return w;
}

export const expiredSession: Check = {
  id: 'session.consent-link.expired-session', requirements: ['R4.4-consent-link-error'], spec: '7',
  title: 'An expired session gets the consent-link error at every account and payment operation, at one bank per country',
  quote: SENTENCE,
  bindsAt: { family: 'session-operation' },
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    const w = await expiredWatch(c);
    c.note(`each session was used ${w.lifeS} spec s (plus a spec second) after its consent was given`);
    for (const n of w.notes) c.note(n);
    await c.everyPlace('session-operation', w.at.map(x => ({ name: x.op, value: x })), async x => {
      if ('error' in x) throw x.error;
      for (const { where, probe, seen } of x.seen) {
        const res = adopt(c, seen);
        if (!notOffered(c, probe, res)) expectConsentLinkError(c, res, `${where} in an expired session`);
      }
    });
    c.summary = `sessions whose consent was given ${w.lifeS} spec s before got the consent-link error; ${c.summary ?? ''}`;
  },
};

/**
 * The fourth state of a session (harness/places: new, consented, expired,
 * deleted), asked of GET /session: once the consent has expired, the consent
 * status must not still be the answer it was while consent was given (the
 * request after it gets the consent-link error of an expired session, spec
 * 7). An error answer also tells the client the consent is gone.
 */
export const statusExpired: Check = {
  id: 'session.lifecycle.status-expired', requirements: ['R4.4-session-status'], spec: '4.4',
  title: 'GET /session answers another consent status once the consent has expired than while it was given',
  quote: 'GET /session | Gets consent status. ... When a request to an account or payment endpoint uses a new or expired session, the service returns ' +
    'a specific error carrying a link to the consent request URL.',
  bindsAt: { family: 'session-state', only: ['expired'] },
  timeoutS: () => target().maxWaitS + 45,
  async run(c) {
    const w = await expiredWatch(c);
    if (!w.status) throw new Prerequisite('no consented session could be made to read its status (see session.lifecycle.consent)');
    const { givenAt, consented: during, expired, served } = w.status;
    await c.everyPlace('session-state', [{ name: 'expired', value: undefined }], async () => {
      const given = adopt(c, during);
      // Read right after consent, but a starved machine may send it past the lifetime: then it is no reading of a given consent.
      const lateS = (during.sentAt - givenAt) / 1000;
      if (during.sentAt >= givenAt + realMs(w.lifeS))
        throw new Prerequisite(`the consent status was read ${lateS.toFixed(2)} s after consent was given, past the consent lifetime ` +
          `(${w.lifeS} spec s, ${(realMs(w.lifeS) / 1000).toFixed(2)} s here), so no status while consent was given was seen`,
        'run on a less busy machine, or with a larger --time-scale, so that the read comes within the lifetime');
      if (!ok(given) || !obj(given))
        throw new Prerequisite(`the consent status of a consented session was not answered (${given.status}; see session.lifecycle.status)`);
      // A consent that outlived its lifetime has not expired: its status may rightly stay (session.consent-link.expired-session judges the lifetime).
      if (ok(adopt(c, served)))
        throw new Prerequisite('the session was still served accounts after its consent lifetime, so its consent has not expired ' +
          '(see session.consent-link.expired-session)');
      const res = adopt(c, expired);
      c.note(`the status was read ${w.lifeS} spec s (plus a spec second) after consent was given`);
      c.expect(isError(res) || !isDeepStrictEqual(obj(res), obj(given)),
        'the consent status after the consent expired is the same answer as while consent was given',
        'an error answer, or a status that differs from the consented one', `${describeAnswer(res)} both times`, res);
    });
  },
};
