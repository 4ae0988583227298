// The consent-link error and the end of a deleted session at every
// session-bound operation of the version under test (spec 4.4, 7; the places:
// harness/places/operations.ts, the requests: support/session-places.ts); the
// consent-link error at one bank per country.
import type { Check } from '../../support/register.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { call, isError, ok } from '../../support/api.ts';
import { describeAnswer, Prerequisite, type CheckContext } from '../../support/check.ts';
import type { Operation } from '../../../harness/places/operations.ts';
import type { Bank } from '../../support/banks.ts';
import { firstOffering, type Product } from '../../support/payments.ts';
import { isConsentError } from '../../support/describe.ts';
import { probeConsent } from '../../support/sessions.ts';
import { isNotImplemented } from '../../support/payment-banks.ts';
import { operationProbe, sessionBoundOperations, type OperationProbe } from '../../support/session-places.ts';
import { expectConsentLinkError, SENTENCE } from './consent-link.ts';
import { consentedAt, countryBanks, countryGroups, startAt, unlessExpired } from './common.ts';

/** The session-bound operations as places, each with its probe made when the place is reached. */
const places = () => sessionBoundOperations().map(op => ({ name: op.id, value: op }));

/** One session per bank for the check, made by `make` when a place at that bank is first reached. */
function perBank(make: (bankId: string) => Promise<string>): (bankId: string) => Promise<string> {
  const made = new Map<string, Promise<string>>();
  return bankId => {
    let p = made.get(bankId);
    if (!p) { p = make(bankId); made.set(bankId, p); }
    return p;
  };
}

/** True when the bank answered Not Implemented at an operation it does not offer: nothing was served. */
export function notOffered(c: CheckContext, p: OperationProbe, res: ExchangeResponse): boolean {
  if (!p.notImplementedHere || !isNotImplemented(res)) return false;
  c.note(`${p.op.id} at ${p.bankId} answered Not Implemented (${res.status}), as it does in a consented session: nothing was served`);
  return true;
}

/** Whether some bank of `banks` offers the operation's product (every bank serves an operation without one; payments.ts offered). */
async function servedIn(op: Operation, banks: readonly Bank[]): Promise<boolean> {
  return !op.product || (await firstOffering(banks, op.product as Product)) !== undefined;
}

/**
 * Consent is per bank in this API (spec 2.6, 4.4): an operation is probed at
 * the first bank of every country that serves it, and breaks the rule when it
 * breaks at any of them. A country none of whose banks offers the operation's
 * product is left out with a note; no country at all is a Prerequisite.
 */
export async function countryProbes(note: (text: string) => void, op: Operation): Promise<{ country: string; probe: OperationProbe }[]> {
  const groups = await countryGroups();
  const at: typeof groups = [];
  for (const g of groups) if (await servedIn(op, g.banks)) at.push(g);
  const left = groups.filter(g => !at.includes(g)).map(g => g.country);
  if (!at.length) throw new Prerequisite(`no bank under test offers ${op.product}`);
  if (left.length) note(`${op.id}: no bank under test in ${left.join(', ')} offers ${op.product}`);
  const out: { country: string; probe: OperationProbe }[] = [];
  for (const g of at) out.push({ country: g.country, probe: await operationProbe(op, g.banks) });
  return out;
}

/** "3 countries (NO, DK, DE); ..." before a check's summary. */
async function withCountries(summary: string | undefined): Promise<string> {
  const groups = await countryGroups();
  return `${groups.length} ${groups.length === 1 ? 'country' : 'countries'} (${groups.map(g => g.country).join(', ')}); ${summary ?? ''}`;
}

export const newEveryOperation: Check = {
  id: 'session.consent-link.new-session-every-operation', requirements: ['R4.4-consent-link-error'], spec: '7',
  title: 'A new session gets the consent-link error at every account and payment operation, at one bank per country',
  quote: SENTENCE,
  bindsAt: { family: 'session-operation' },
  async run(c) {
    const session = perBank(bankId => startAt(c, bankId));
    await c.everyPlace('session-operation', places(), async op => {
      for (const { country, probe: p } of await countryProbes(t => c.note(t), op)) {
        const res = await p.send(c, await session(p.bankId), 'in a new session, before consent');
        if (notOffered(c, p, res)) continue;
        expectConsentLinkError(c, res, `${op.id} at ${p.bankId} (${country}) in a new session`);
      }
    });
    c.summary = await withCountries(c.summary);
  },
};

/** DELETE /session for `id`; an answer other than 2xx fails the check at the place that asked for it. */
async function deleteSession(c: CheckContext, id: string, bankId: string): Promise<void> {
  const del = await call(c, 'DELETE', 'session', { sessionId: id }, { session: id, label: `delete the session at ${bankId}` });
  c.expect(ok(del), `the session at ${bankId} was not deleted`, 'a 2xx answer', `${describeAnswer(del)}`, del);
}

export const remove: Check = {
  id: 'session.lifecycle.delete', requirements: ['R4.4-session-delete'], spec: '4.4',
  title: 'DELETE /session ends the session and its consent at every account and payment operation, at one bank per country',
  quote: 'DELETE /session | Deletes consent and session.',
  bindsAt: { family: 'session-operation' },
  async run(c) {
    const deleted = perBank(async bankId => {
      const id = await consentedAt(c, bankId);
      await deleteSession(c, id, bankId);
      return id;
    });
    await c.everyPlace('session-operation', places(), async op => {
      for (const { country, probe: p } of await countryProbes(t => c.note(t), op)) {
        const res = await p.send(c, await deleted(p.bankId), 'after the delete');
        if (notOffered(c, p, res)) continue;
        // A 401 without a consent link refuses the token, not the session; with one it is the consent-link error (docs/profile.md).
        c.expect(isError(res) && (res.status !== 401 || isConsentError(res)), `the deleted session was still served ${op.id} at ${p.bankId} (${country})`,
          'a refusal (the consent-link error)', `${describeAnswer(res)}`, res);
      }
    });
    c.summary = await withCountries(c.summary);
  },
};

export const removeKeepsOthers: Check = {
  id: 'session.lifecycle.delete-keeps-other-sessions', requirements: ['R4.4-session-delete', 'R4.4-consent-per-session'], spec: '4.4',
  title: 'DELETE /session ends that session only: another consented session at the same bank keeps working, at one bank per country',
  quote: 'DELETE /session | Deletes consent and session. POST /session | ... Consent for account and payment calls is stored per session.',
  bindsAt: { family: 'country' },
  async run(c) {
    await c.everyPlace('country', await countryBanks(), async bank => {
      // The session to be deleted first, so that the kept one's consent is as young as it can be when it is asked.
      const gone = await consentedAt(c, bank.id);
      const keptFrom = performance.now();
      const kept = await consentedAt(c, bank.id);
      await deleteSession(c, gone, bank.id);
      const res = await probeConsent(c, kept, `accounts at ${bank.id} in the other session, after the delete`);
      // A consent that may have run out meanwhile (on a compressed clock and a busy machine) proves nothing about the delete.
      unlessExpired(res, keptFrom, `the other session at ${bank.id}`);
      c.expect(ok(res), `deleting one session at ${bank.id} ended another session there`, 'a 2xx answer to GET /accounts in the other session',
        `${describeAnswer(res)}`, res);
    });
  },
};
