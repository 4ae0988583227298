// session.lifecycle: start a session, read its consent status, give consent,
// delete it (spec 4.4; 9 3.0.0 "Sessions (POST /session) and consent stored per session").
import type { Check } from '../../support/register.ts';
import { call, isError, obj, ok } from '../../support/api.ts';
import { describeAnswer, show } from '../../support/check.ts';
import { createSession, giveConsent, probeConsent } from '../../support/sessions.ts';
import { consentedNewSession, newSession, sessionBank } from './common.ts';
import { where } from '../../support/describe.ts';

export const create: Check = {
  id: 'session.lifecycle.create', requirements: ['R4.4-session-create'], spec: '4.4',
  title: 'POST /session starts a session and returns its sessionId',
  quote: 'POST /session | Starts a session per bank; returns sessionId.',
  async run(c) {
    const { res, id } = await createSession(c, await sessionBank());
    c.expect(ok(res), 'the session was not started', 'a 2xx answer', `${describeAnswer(res)}`);
    c.expect(id, 'the answer carries no sessionId', `a non-empty string at ${where('session.id')}`, show(res.json ?? res.text));
  },
};

export const status: Check = {
  id: 'session.lifecycle.status', requirements: ['R4.4-session-status'], spec: '4.4',
  title: 'GET /session answers the consent status of a session',
  quote: 'GET /session | Gets consent status.',
  async run(c) {
    const id = await newSession(c);
    const res = await call(c, 'GET', 'session', { sessionId: id }, { session: id, label: 'consent status' });
    c.expect(ok(res) && obj(res), 'the consent status was not answered', 'a 2xx answer with a JSON object', `${describeAnswer(res)}`);
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
  title: 'Once consent is given, the session opens the account calls',
  quote: 'POST /session | Starts a session per bank; returns sessionId. Consent for account and payment calls is stored per session.',
  async run(c) {
    const id = await newSession(c);
    await giveConsent(c, id, 'accounts');
    const res = await probeConsent(c, id, 'accounts, after consent');
    c.expect(ok(res), 'the session does not open the account calls after consent', 'a 2xx answer to GET /accounts', `${describeAnswer(res)}`);
  },
};

export const remove: Check = {
  id: 'session.lifecycle.delete', requirements: ['R4.4-session-delete'], spec: '4.4',
  title: 'DELETE /session ends the session and its consent',
  quote: 'DELETE /session | Deletes consent and session.',
  async run(c) {
    const id = await consentedNewSession(c);
    const del = await call(c, 'DELETE', 'session', { sessionId: id }, { session: id, label: 'delete the session' });
    c.expect(ok(del), 'the session was not deleted', 'a 2xx answer', `${describeAnswer(del)}`);
    const after = await probeConsent(c, id, 'accounts, after the delete');
    c.expect(isError(after), 'the deleted session still opens the account calls', 'a refusal (the consent-link error)', `${describeAnswer(after)}`);
  },
};
