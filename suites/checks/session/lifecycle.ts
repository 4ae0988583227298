// session.lifecycle: start a session, read its consent status, give consent,
// delete it (spec 4.4; 9 3.0.0 "Sessions (POST /session) and consent stored per session").
import type { Check } from '../../support/register.ts';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { call, isError, obj, ok } from '../../support/api.ts';
import { type CheckContext, describeAnswer, Prerequisite, show } from '../../support/check.ts';
import { createSession, giveConsent, probeConsent } from '../../support/sessions.ts';
import { consentedAt, countryBanks, newSession, sessionBank, startAt, unlessExpired } from './common.ts';
import { banksUnderTest } from '../../support/banks.ts';
import { ownAccounts } from '../../support/payments.ts';
import { where } from '../../support/describe.ts';

export const create: Check = {
  id: 'session.lifecycle.create', requirements: ['R4.4-session-create'], spec: '4.4',
  title: 'POST /session starts a session and returns its sessionId, at one bank per country',
  quote: 'POST /session | Starts a session per bank; returns sessionId.',
  bindsAt: { family: 'country' },
  async run(c) {
    await c.everyPlace('country', await countryBanks(), async bank => {
      const { res, id } = await createSession(c, bank.id);
      c.expect(ok(res), `the session at ${bank.id} was not started`, 'a 2xx answer', `${describeAnswer(res)}`, res);
      c.expect(id, `the answer at ${bank.id} carries no sessionId`, `a non-empty string at ${where('session.id')}`, show(res.json ?? res.text), res);
    });
  },
};

/** GET /session for `id`. */
const statusOf = (c: CheckContext, id: string, when: string) =>
  call(c, 'GET', 'session', { sessionId: id }, { session: id, label: `consent status, ${when}` });

/**
 * The consent status of one new session at `bankId` through its states, one
 * step per state in order: new (before consent), consented, deleted. A step
 * whose session could not be had is a Prerequisite naming why.
 */
function statusSteps(c: CheckContext, bankId: string): Record<string, () => Promise<void>> {
  let id: string | undefined;
  let before: Record<string, unknown> | undefined, given: Record<string, unknown> | undefined;
  let openBefore = false;
  const session = () => {
    if (!id) throw new Prerequisite(`no session could be started at ${bankId} (see session.lifecycle.create)`);
    return id;
  };
  return {
    new: async () => {
      id = await startAt(c, bankId);
      const res = await statusOf(c, id, `at ${bankId}, before consent`);
      before = obj(res);
      c.expect(ok(res) && before, `the consent status of a new session at ${bankId} was not answered`, 'a 2xx answer with a JSON object',
        `${describeAnswer(res)}`, res);
      // A session served before its own consent took another session's: its status cannot change with consent.
      openBefore = ok(await probeConsent(null, id, `accounts with the new session at ${bankId}, before its consent`));
    },
    consented: async () => {
      const sid = session();
      if (openBefore)
        throw new Prerequisite(`the new session at ${bankId} was served accounts before its own consent, so no change of status can be seen ` +
          '(session.consent-link.per-session judges consent per session)');
      await giveConsent(c, sid, 'accounts');
      const res = await statusOf(c, sid, `at ${bankId}, after consent`);
      given = obj(res);
      c.expect(ok(res) && given, `the consent status of a consented session at ${bankId} was not answered`, 'a 2xx answer with a JSON object',
        `${describeAnswer(res)}`, res);
      c.expect(!before || !isDeepStrictEqual(before, given), `the consent status at ${bankId} after consent is the same answer as before consent`,
        'a status that differs from the one before consent', `${show(given)} both times`, res);
    },
    deleted: async () => {
      const sid = session();
      const del = await call(c, 'DELETE', 'session', { sessionId: sid }, { session: sid, label: `delete the session at ${bankId}` });
      if (!ok(del)) throw new Prerequisite(`the session at ${bankId} could not be deleted (${del.status}; see session.lifecycle.delete)`);
      const res = await statusOf(c, sid, `at ${bankId}, after the delete`);
      c.expect(isError(res) || !given || !isDeepStrictEqual(obj(res), given),
        `the consent status at ${bankId} after the delete is the same answer as while consent was given`,
        'an error answer, or a status that differs from the consented one', `${describeAnswer(res)}`, res);
    },
  };
}

export const status: Check = {
  id: 'session.lifecycle.status', requirements: ['R4.4-session-status'], spec: '4.4',
  title: 'GET /session answers the consent status of a session, and it changes with consent and with the delete, at one bank per country',
  quote: 'GET /session | Gets consent status.',
  // Each state at one bank per country: the places of a run are "new (DE)", "consented (DE)", ...
  bindsAt: { family: 'session-state', only: ['new', 'consented', 'deleted'] },
  async run(c) {
    const places = (await countryBanks()).flatMap(({ name: country, value: bank }) =>
      Object.entries(statusSteps(c, bank.id)).map(([state, value]) => ({ name: `${state} (${country})`, value })));
    await c.everyPlace('session-state', places, step => step());
  },
};

export const statusUnknown: Check = {
  id: 'session.lifecycle.status-unknown-session', requirements: ['R4.4-session-status'], spec: '4.4',
  title: 'GET /session of a session id the service never gave out is an error, not a consent status',
  quote: 'GET /session | Gets consent status.',
  async run(c) {
    const id = `pis-conformance-no-such-session-${randomUUID()}`;
    const res = await statusOf(c, id, 'of a session id never given out');
    c.expect(isError(res), 'a session id that was never given out was answered a consent status', 'an error answer (4xx)',
      `${describeAnswer(res)}`, res);
  },
};

export const statusFields: Check = {
  id: 'session.lifecycle.status-fields', requirements: ['P-ops-session-status-fields'], spec: '4.4',
  title: 'The consent status names the bank and the consentStatus',
  quote: 'docs/profile.md: consent status | GET /session/{sessionId} | 200 {"bankId", "bankName", "createdAt", "consentStatus"}',
  async run(c) {
    const id = await newSession(c);
    const res = await call(c, 'GET', 'session', { sessionId: id }, { session: id, label: 'consent status' });
    const body = obj(res) ?? {};
    const missing = ['bankId', 'bankName', 'createdAt', 'consentStatus'].filter(k => typeof body[k] !== 'string');
    c.expect(!missing.length, 'the consent status lacks fields', 'bankId, bankName, createdAt, consentStatus as strings',
      `missing or not strings: ${missing.join(', ')}`);
    c.expect(body.bankId === await sessionBank(), 'the consent status names another bank', String(await sessionBank()), show(body.bankId));
  },
};

export const consent: Check = {
  id: 'session.lifecycle.consent', requirements: ['R4.4-consent-per-session'], spec: '4.4',
  title: 'Once consent is given, the session opens the account calls, at one bank per country',
  quote: 'POST /session | Starts a session per bank; returns sessionId. Consent for account and payment calls is stored per session.',
  bindsAt: { family: 'country' },
  async run(c) {
    await c.everyPlace('country', await countryBanks(), async bank => {
      const id = await startAt(c, bank.id);
      const askedAt = performance.now();
      await giveConsent(c, id, 'accounts');
      const res = await probeConsent(c, id, `accounts at ${bank.id}, after consent`);
      unlessExpired(res, askedAt, `the session at ${bank.id}`);
      c.expect(ok(res), `the session at ${bank.id} does not open the account calls after consent`, 'a 2xx answer to GET /accounts',
        `${describeAnswer(res)}`, res);
    });
  },
};

/**
 * The accounts a list names, each by its id with its iban (else bban): an
 * account of another bank is one whose id and number both match (banks of one
 * country may number their test accounts alike, and ids are the bank's own).
 */
function identifiers(list: unknown): Set<string> {
  const out = new Set<string>();
  for (const a of Array.isArray(list) ? list as Record<string, unknown>[] : []) {
    const num = a && typeof a === 'object' ? [a.iban, a.bban].find(v => typeof v === 'string' && v) : undefined;
    if (num && typeof a.id === 'string' && a.id) out.add(`${a.id} ${String(num)}`);
  }
  return out;
}

export const perBank: Check = {
  id: 'session.lifecycle.per-bank-accounts', requirements: ['R4.4-session-create'], spec: '4.4',
  title: 'A session at one bank lists the accounts of that bank, not those of another bank',
  quote: 'POST /session | Starts a session per bank; returns sessionId.',
  bindsAt: { family: 'country' },
  async run(c) {
    const all = await banksUnderTest();
    if (all.length < 2) c.skip('only one bank is under test, so no other bank\'s accounts can be compared', 'give --banks with two banks or more');
    await c.everyPlace('country', await countryBanks(), async bank => {
      const other = all[(all.indexOf(bank) + 1) % all.length]!;
      const theirs = identifiers(await ownAccounts(other.id));
      if (!theirs.size) throw new Prerequisite(`${other.id} lists no account with an id and an iban or bban to look for`);
      const id = await consentedAt(c, bank.id);
      const res = await probeConsent(c, id, `accounts in a session at ${bank.id}`);
      const seen = [...identifiers(res.json)].filter(x => theirs.has(x));
      c.expect(!seen.length, `the session at ${bank.id} lists accounts of ${other.id}`, `only accounts of ${bank.id}`,
        `${seen.length} account${seen.length === 1 ? '' : 's'} of ${other.id}: ${show(seen)}`, res);
    });
  },
};
