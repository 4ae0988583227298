// With interactiveConsent, the consent and authorize links open a page with an
// Approve button that a real browser clicks (what the suites' browser consent
// driver does): nothing is granted until the click.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { chromium } from '@playwright/test';
import { paymentBody, withReference } from './client.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

describe('interactive consent pages in a browser', () => {
  it('grants consent and authorises a payment only when Approve is clicked',
    { skip: !existsSync(CHROMIUM) && 'Chromium is not installed at /usr/bin/chromium' }, async () => {
    const { ref, client: c } = await withReference({ interactiveConsent: true, timeScale: 1 });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const page = await browser.newPage();
      await c.newSession('dnb-no');
      const consent = await c.call('GET', `/consent/${c.sessionId}?scope=payments`, { headers: { 'x-psu-ip-address': '192.0.2.7' } });
      const href = consent.json.links[0].href as string;
      assert.match(href, /\?interactive=1$/);
      await page.goto(href);
      assert.equal((await c.call('GET', `/session/${c.sessionId}`)).json.consentStatus, 'PENDING');
      await page.click('#approve');
      await page.waitForSelector('#done');
      assert.equal((await c.call('GET', `/session/${c.sessionId}`)).json.consentStatus, 'VALID');

      const refused = await c.call('POST', '/payments/domestic-transfer', { body: paymentBody('domestic-transfer') });
      const id = refused.json.links[0].meta.id as string;
      const auth = await c.call('POST', `/payments/domestic-transfer/${id}/authorize`);
      await page.goto(auth.json.links[0].href);
      assert.equal((await c.call('GET', `/payments/domestic-transfer/${id}`)).json.status, 'RCVD');
      await page.click('#approve');
      await page.waitForSelector('#done');
      assert.equal((await c.call('GET', `/payments/domestic-transfer/${id}`)).json.status, 'ACSP');
    } finally {
      await browser.close();
      await ref.close();
    }
  });
});
