// The session suite's watch (support/waits.ts): as the worker starts, the
// requests of every session-bound operation are prepared, and at each bank they
// go to two sessions get consent, one for accounts and one for payments; once
// the consent lifetime has passed, every operation is called in its bank's
// session and must answer the consent-link error of an expired session (spec
// 4.4, 7). The spec does not say how long a consent lasts: the run is told
// (--session-lifetime; the bundled reference says its own), else the check is
// not run.
import { ok } from '../../support/api.ts';
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import type { Check } from '../../support/register.ts';
import { createSession, giveConsent, probeConsent, type Scope } from '../../support/sessions.ts';
import { target } from '../../support/target.ts';
import { adopt, neededMaxWait, observe, realMs, until, watch, type Seen } from '../../support/waits.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { operationProbe, sessionBoundOperations } from '../../support/session-places.ts';
import { expectConsentLinkError, SENTENCE } from './consent-link.ts';

/** After the lifetime: one spec second for rounding plus 100 ms real (arbitrary) of timer slack. */
const afterEndMs = () => realMs(1) + 100;

type Watched =
  | { kind: 'unknown' }
  | { kind: 'too-long'; waitMs: number }
  | { kind: 'seen'; lifeS: number; setup: Seen; at: ({ op: string; seen: Seen } | { op: string; error: unknown })[] };

/** A new session with consent for `scope`, and when the consent was seen given. */
async function consented(c: CheckContext, bankId: string, scope: Scope): Promise<{ id: string; givenAt: number }> {
  const { res, id } = await createSession(c, bankId);
  if (!id) throw new Prerequisite(`no session could be started (${res.status}; see session.lifecycle.create)`);
  const givenAt = await giveConsent(c, id, scope);
  return { id, givenAt };
}

export const sessionWatch = watch((): Promise<Watched> => (async () => {
  const lifeS = target().sessionLifetimeS;
  if (!lifeS) return { kind: 'unknown' };
  const waitMs = realMs(lifeS) + afterEndMs();
  // Consent by hand takes longer; the wait counts from when it was given.
  if (waitMs > target().maxWaitS * 1000) return { kind: 'too-long', waitMs };
  // What each operation's request needs is made first, in the worker's own sessions.
  const ops = sessionBoundOperations();
  const probes = await Promise.all(ops.map(op => operationProbe(op).then(p => ({ p }), (error: unknown) => ({ error }))));
  const banks = [...new Set(probes.flatMap(x => 'p' in x ? [x.p.bankId] : []))];
  const sessions = new Map<string, string>();
  let end = 0;
  const setup = await observe(async c => {
    let proof: ExchangeResponse | undefined;
    for (const bankId of banks) for (const scope of ['accounts', 'payments'] as const) {
      const s = await consented(c, bankId, scope);
      sessions.set(`${bankId} ${scope}`, s.id);
      end = Math.max(end, s.givenAt + waitMs);
      if (scope === 'accounts') {
        proof = await probeConsent(c, s.id, `accounts at ${bankId}, after consent`);
        if (!ok(proof)) throw new Prerequisite(`the session at ${bankId} does not work after consent (${proof.status}; see session.lifecycle.consent)`);
      }
    }
    if (!proof) throw new Prerequisite('no operation bound to a session could be prepared');
    return proof;
  });
  if (setup.error !== undefined) return { kind: 'seen', lifeS, setup, at: [] };
  await until(end, `consents at ${banks.length} bank${banks.length === 1 ? '' : 's'} to expire (--session-lifetime ${lifeS} s)`);
  const at = await Promise.all(ops.map(async (op, i): Promise<{ op: string; seen: Seen } | { op: string; error: unknown }> => {
    const x = probes[i]!;
    if (!('p' in x)) return { op: op.id, error: x.error };
    const scope = op.path === 'accounts' || op.path === 'transactions' ? 'accounts' : 'payments';
    const id = sessions.get(`${x.p.bankId} ${scope}`)!;
    return { op: op.id, seen: await observe(c => x.p.send(c, id, `after the consent lifetime`)) };
  }));
  return { kind: 'seen', lifeS, setup, at };
})());

export const expiredSession: Check = {
  id: 'session.consent-link.expired-session', requirements: ['R4.4-consent-link-error'], spec: '7',
  title: 'An expired session gets the consent-link error at every account and payment operation',
  quote: SENTENCE,
  bindsAt: { family: 'session-operation' },
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
    c.note(`each session was used ${w.lifeS} spec s (plus a spec second) after its consent was given`);
    await c.everyPlace('session-operation', w.at.map(x => ({ name: x.op, value: x })), async x => {
      if ('error' in x) throw x.error;
      const res = adopt(c, x.seen);
      expectConsentLinkError(c, res, `${x.op} in an expired session`);
    });
    c.summary = `sessions whose consent was given ${w.lifeS} spec s before got the consent-link error; ${c.summary ?? ''}`;
  },
};
