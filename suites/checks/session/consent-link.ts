// session.consent-link: the consent URL (GET /consent) and the consent-link
// error of a session without consent (spec 4.4, 7): new, deleted or expired
// (expiry.ts), on account and payment calls, and consent kept per session.
import type { Check } from '../../support/register.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { call, callUrl, isAbsoluteUrl, isError, obj, ok } from '../../support/api.ts';
import { consentErrorLinks, consentUrlOf, isAuthorizeHref, where } from '../../support/describe.ts';
import { type CheckContext, describeAnswer, show } from '../../support/check.ts';
import { probeConsent, requestConsent } from '../../support/sessions.ts';
import { paymentBody } from '../../support/payments.ts';
import { target } from '../../support/target.ts';
import { consentedAt, consentedNewSession, countryBanks, newSession, paymentIn, PROBE_PRODUCT, sessionBank, startAt } from './common.ts';

export const SENTENCE = 'When a request to an account or payment endpoint uses a new or expired session, ' +
  'the service returns a specific error carrying a link to the consent request URL, so that the client starts the consent process.';

export const consentUrl: Check = {
  id: 'session.consent-link.consent-url', requirements: ['R4.4-consent-url', 'R4.4-consent-psu-ip-address', 'R4.4-redirect-url'], spec: '4.4',
  addedLater: ['R4.4-consent-psu-ip-address', 'R4.4-redirect-url'],
  title: 'GET /consent answers a consent URL (with x-psu-ip-address and x-redirect-url), at one bank per country',
  quote: 'GET /consent | Returns a consent authentication URL for the bank. Header x-psu-ip-address is accepted. ' +
    'x-redirect-url: optional on consent initiation.',
  bindsAt: { family: 'country' },
  async run(c) {
    await c.everyPlace('country', await countryBanks(), async bank => {
      const id = await startAt(c, bank.id);
      const { res, href } = await requestConsent(c, id, 'accounts');
      c.expect(ok(res), `the consent request at ${bank.id} was refused`, 'a 2xx answer', `${describeAnswer(res)}`, res);
      c.expect(isAbsoluteUrl(href), `the consent answer at ${bank.id} carries no consent URL`, `an absolute http(s) URL at ${where('consent.url')}`,
        show(res.json ?? res.text), res);
    });
  },
};

/** The refusal of a session-bound call in a new session, or null when the call was served. */
async function newSessionAnswer(c: CheckContext): Promise<ExchangeResponse> {
  const id = await newSession(c);
  return probeConsent(c, id, 'accounts with a new session, before consent');
}

export const newRefused: Check = {
  id: 'session.consent-link.new-session-refused', requirements: ['R4.4-consent-per-session', 'R4.4-consent-link-error'], spec: '7',
  title: 'A new session without consent is refused on the account calls',
  quote: SENTENCE,
  async run(c) {
    const res = await newSessionAnswer(c);
    c.expect(isError(res), 'a session without consent was served accounts', 'an error answer (4xx or 5xx) with a link to the consent request',
      `${describeAnswer(res)}`);
  },
};

function expectConsentLink(c: CheckContext, res: ExchangeResponse, when: string): void {
  const hrefs = consentErrorLinks(res.json);
  c.expect(hrefs.length > 0, `the refusal ${when} carries no link`, `the consent request URL at ${where('consent.error-link')}`, show(res.json ?? res.text));
  c.expect(hrefs.some(isAbsoluteUrl), `the link of the refusal ${when} is not an absolute URL`, 'an absolute http(s) URL', show(hrefs));
}

export const newLink: Check = {
  id: 'session.consent-link.new-session-link', requirements: ['R4.4-consent-link-error', 'P-ops-consent-link'], spec: '4.4',
  title: 'The refusal of a new session links to the consent request by an absolute URL',
  quote: SENTENCE,
  async run(c) {
    const res = await newSessionAnswer(c);
    if (!isError(res)) c.skip('not checked: the new session was served (see session.consent-link.new-session-refused)');
    expectConsentLink(c, res, 'of a new session');
  },
};

export const deletedLink: Check = {
  id: 'session.consent-link.deleted-session-link', requirements: ['P-ops-deleted-session'], spec: '4.4',
  title: 'The refusal of a deleted session links to the consent request by an absolute URL',
  quote: 'docs/profile.md: delete session | 200 or 204; later use of the session -> consent-link error.',
  async run(c) {
    const id = await consentedNewSession(c);
    await call(c, 'DELETE', 'session', { sessionId: id }, { session: id, label: 'delete the session' });
    const res = await probeConsent(c, id, 'accounts, after the delete');
    if (!isError(res)) c.skip('not checked: the deleted session was still served (see session.lifecycle.delete)');
    expectConsentLink(c, res, 'of a deleted session');
  },
};

export const errorCode: Check = {
  id: 'session.consent-link.error-code', requirements: ['P-error-code-1426'], spec: '7',
  title: 'The consent-link error has errorCode 1426',
  quote: 'docs/profile.md: 1426 consent required (the consent-link error of spec section 4.4).',
  async run(c) {
    const res = await newSessionAnswer(c);
    if (!isError(res)) c.skip('not checked: the new session was served (see session.consent-link.new-session-refused)');
    c.expect(obj(res)?.errorCode === '1426', 'the consent-link error has another errorCode', '"1426"', show(obj(res)?.errorCode));
  },
};

export const linkLeadsToConsent: Check = {
  id: 'session.consent-link.link-leads-to-consent', requirements: ['P-ops-consent-link'], spec: '4.4',
  title: 'The link of the consent-link error answers a consent URL',
  quote: 'docs/profile.md: links: [ { "type": "GET", "rel": "consent", "href": "{base_url}/consent/{sessionId}" } ]',
  async run(c) {
    const id = await newSession(c);
    const res = await probeConsent(c, id, 'accounts with a new session, before consent');
    const href = consentErrorLinks(res.json).find(isAbsoluteUrl);
    if (!isError(res) || !href) c.skip('not checked: no absolute link came (see session.consent-link.new-session-link)');
    const follow = await callUrl(c, 'GET', href!, {
      session: id, label: 'the link of the consent-link error', headers: { [target().headers.psuIpAddress]: target().psuIpAddress } });
    c.expect(ok(follow) && !!consentUrlOf(follow.json), 'the link does not lead to a consent URL',
      `a 2xx answer with a URL at ${where('consent.url')}`, `${describeAnswer(follow)}`);
  },
};

/**
 * The consent-link error at `must`: an error answer of any 4xx or 5xx status
 * (401 too: the spec names no status, and the link tells it from a refused
 * token) carrying an absolute link that is not a payment's authorize link.
 * That the link is rel "consent" with errorCode 1426 is docs/profile.md's, checked
 * by the profile checks.
 */
export function expectConsentLinkError(c: CheckContext, res: ExchangeResponse, when: string): void {
  c.expect(isError(res), `the target served ${when} instead of answering the consent-link error`,
    'an error answer with a link to the consent request', `${describeAnswer(res)}`);
  const hrefs = consentErrorLinks(res.json).filter(h => !isAuthorizeHref(h));
  c.expect(hrefs.some(isAbsoluteUrl), `the error answered ${when} carries no absolute link to the consent request`,
    `the consent request URL, absolute, at ${where('consent.error-link')}`, show(res.json ?? res.text));
}

export const newSessionPayment: Check = {
  id: 'session.consent-link.new-session-payment', requirements: ['R4.4-consent-link-error'], spec: '7',
  title: 'A payment in a new session gets the consent-link error',
  quote: SENTENCE,
  async run(c) {
    const bankId = await sessionBank();
    const body = await paymentBody(bankId, PROBE_PRODUCT);
    const id = await newSession(c);
    const res = await paymentIn(c, id, body, 'a payment in a new session, before consent');
    expectConsentLinkError(c, res, 'a payment in a new session');
  },
};

export const perSession: Check = {
  id: 'session.consent-link.per-session', requirements: ['R4.4-consent-per-session'], spec: '4.4',
  title: 'Consent given to one session does not open another session at the same bank, at one bank per country',
  quote: 'POST /session | Starts a session per bank; returns sessionId. Consent for account and payment calls is stored per session.',
  bindsAt: { family: 'country' },
  async run(c) {
    await c.everyPlace('country', await countryBanks(), async bank => {
      await consentedAt(c, bank.id);
      const other = await startAt(c, bank.id);
      const res = await probeConsent(c, other, `accounts in a second, new session at ${bank.id}`);
      expectConsentLinkError(c, res, `accounts to a new session at ${bank.id} while another session there has consent`);
    });
  },
};
