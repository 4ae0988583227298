// x-redirect-url on consent (spec 4.4: "x-redirect-url | Optional on consent
// initiation and payment initiation; redirects control to a custom address
// after the bank's strong customer authentication redirect"; 9 2.0.0).
import type { Check } from '../../support/register.ts';
import { isAbsoluteUrl, ok } from '../../support/api.ts';
import { describeAnswer, Prerequisite, show } from '../../support/check.ts';
import { consentDriver } from '../../support/consent/driver.ts';
import { probeConsent, requestConsent } from '../../support/sessions.ts';
import { target } from '../../support/target.ts';
import { countryBanks, startAt, unlessExpired } from './common.ts';
import { where } from '../../support/describe.ts';

const QUOTE = 'x-redirect-url | Optional on consent initiation and payment initiation; ' +
  'redirects control to a custom address after the bank\'s strong customer authentication redirect.';

export const withoutRedirect: Check = {
  id: 'session.lifecycle.consent-without-redirect-url', requirements: ['R4.4-redirect-url'], spec: '4.4',
  title: 'Consent is requested and given without x-redirect-url, at one bank per country',
  quote: QUOTE,
  bindsAt: { family: 'country' },
  async run(c) {
    const name = target().headers.redirectUrl;
    await c.everyPlace('country', await countryBanks(), async bank => {
      const id = await startAt(c, bank.id);
      const askedAt = performance.now();
      const { res, href } = await requestConsent(c, id, 'accounts', { [name]: '' });
      // Whether the header's absence is what broke it: a consent request that fails with the header too is consent-url's finding.
      if (!href) {
        const withIt = await requestConsent(c, id, 'accounts');
        if (!withIt.href)
          throw new Prerequisite(`the consent request at ${bank.id} answered ${withIt.res.status} without a consent link with ${name} too `
            + '(see session.consent-link.consent-url)');
      }
      c.expect(ok(res) && isAbsoluteUrl(href), `the consent request at ${bank.id} without ${name} was not answered with a consent URL`,
        `a 2xx answer with a URL at ${where('consent.url')}`, `${describeAnswer(res)}`, res);
      await consentDriver()({ href: href!, what: 'consent', c, done: async () => ok(await probeConsent(null, id)) });
      const probe = await probeConsent(c, id, `accounts at ${bank.id}, after consent given without x-redirect-url`);
      unlessExpired(probe, askedAt, `the session at ${bank.id}`);
      c.expect(ok(probe), `the session at ${bank.id} does not work after consent given without ${name}`, 'a 2xx answer to GET /accounts',
        `${describeAnswer(probe)}`, probe);
    });
  },
};

/** The redirect after consent is the bank's (spec 4.4: "after the bank's strong customer authentication redirect"): asked at one bank per country. */
export const redirect: Check = {
  id: 'session.lifecycle.consent-redirect', requirements: ['R4.4-redirect-url'], spec: '4.4',
  title: 'After consent the bank sends the end user to the x-redirect-url given, at one bank per country',
  quote: QUOTE,
  bindsAt: { family: 'country' },
  async run(c) {
    const t = target();
    await c.everyPlace('country', await countryBanks(), async bank => {
      const id = await startAt(c, bank.id);
      const { res, href } = await requestConsent(c, id, 'accounts');
      if (!href)
        throw new Prerequisite(`the consent request at ${bank.id} answered ${res.status} without a consent link (see session.consent-link.consent-url)`);
      const outcome = await consentDriver()({ href, what: 'consent', c, done: async () => ok(await probeConsent(null, id)) });
      if (outcome.redirectedBack === undefined)
        c.skip(`the ${t.consentDriver} consent driver cannot see where the bank sends the person`, 'use --consent-driver follow or browser');
      c.expect(outcome.redirectedBack, `after consent at ${bank.id} the bank did not send the end user to ${t.redirectUrl}`,
        `a redirect to ${t.redirectUrl} (given in ${t.headers.redirectUrl})`,
        `the flow ended at ${outcome.finalUrl ?? 'an unknown page'} (consent answer: ${show(res.json)})`);
    });
  },
};
