// index.html as a reader meets it, in Debian's Chromium at 1280 and 390
// pixels wide: the verdict in view at once; a failed check opens with the
// exchange that broke the rule, marked, the rest folded (no other evidence to
// scroll past); filters and search work offline; the curl lines' token is
// explained once at the top. Screenshots land in test-results/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import type { CheckResult, HttpEvidence, RunResults } from '../../harness/results/model.ts';
import { writeReportFiles } from '../../harness/report/writer.ts';
import { summarize } from '../../harness/report/verdict.ts';
import { ROOT } from '../helpers/cli.ts';

const BASE = 'http://127.0.0.1:40333/api';

function exchange(i: number, primary = false): HttpEvidence {
  const tx = Array.from({ length: 4 }, (_, k) => ({ id: `acc-${i}-tx-${k}`, transactionAmount: { value: '12.50', currency: 'NOK' },
    counterpartyName: 'Kari Nordmann', counterpartyAgent: i === 9 && k === 2 ? 'DNBANOKKX' : 'DNBANOKKXXX' }));
  return {
    kind: 'http', label: `transactions of acc-${i}`,
    request: { method: 'GET', url: `${BASE}/accounts/acc-${i}/transactions`, headers: { authorization: 'Bearer [redacted]', 'x-session-id': `s-${i}` } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: tx },
    startedAt: '2026-11-22T10:00:01.000Z', durationMs: 4,
    curl: `curl -sS -X GET '${BASE}/accounts/acc-${i}/transactions' -H "authorization: Bearer $PIS_ACCESS_TOKEN" -H 'x-session-id: s-${i}'`,
    ...(primary ? { primary } : {}),
  };
}

const token: HttpEvidence = {
  kind: 'http', request: { method: 'POST', url: 'http://127.0.0.1:40333/auth/realms/pis/protocol/openid-connect/token', headers: {},
    body: 'grant_type=client_credentials&client_id=demo-client&client_secret=[redacted]' },
  response: { status: 200, headers: {}, body: { access_token: '[redacted]', token_type: 'bearer' } }, startedAt: '2026-11-22T10:00:00.000Z', durationMs: 3,
  curl: `curl -sS -X POST 'http://127.0.0.1:40333/auth/realms/pis/protocol/openid-connect/token' -H 'content-type: application/x-www-form-urlencoded' ` +
    `--data-raw "grant_type=client_credentials&client_id=demo-client&client_secret=$PIS_CLIENT_SECRET"`,
};

const meta = (id: string, level: CheckResult['level'] = 'must') => ({ id, suite: id.split('.')[0] as CheckResult['suite'], title: `the rule of ${id}`,
  spec: '2.6', level, durationMs: 120, quote: 'counterpartyAgent | BIC of the agent or intermediary bank, 8 or 11 characters.' });
const BIC = 'data.transactions.bic-length';
const checks: CheckResult[] = [
  { ...meta('token.issue.access-token'), status: 'passed', evidence: [token] },
  // The offending exchange is the 9th of 15: a reader must not scroll past the other 14.
  { ...meta(BIC), status: 'failed',
    message: 'counterpartyAgent of acc-9 transaction "acc-9-tx-2" is not 8 or 11 characters: expected 8 or 11 characters, seen "DNBANOKKX" (9)',
    expected: '8 or 11 characters', seen: '"DNBANOKKX" (9)', evidence: [token, ...Array.from({ length: 14 }, (_, i) => exchange(i + 1, i + 1 === 9))] },
  { ...meta('data.banks.profile-fields', 'profile'), status: 'failed', message: 'bankingGroupName missing', evidence: [exchange(20)] },
  { ...meta('data.accounts.list'), status: 'passed', evidence: [exchange(21)] },
  { ...meta('token.expiry.old-token-refused'), status: 'skipped', skipKind: 'not-run', message: 'more than the wait budget (raise --max-wait)', evidence: [] },
  ...Array.from({ length: 30 }, (_, i): CheckResult => ({ ...meta(`session.lifecycle.check-${i}`), status: 'passed', evidence: [exchange(30 + i)] })),
];
// Passed checks first in the results, as a real run writes them: the report must still open on the failures.
checks.unshift(...Array.from({ length: 31 }, (_, i): CheckResult => ({ ...meta(`data.banks.check-${i}`), status: 'passed',
  evidence: [{ ...exchange(100 + i), response: { status: 200, headers: {}, body: { note: 'x'.repeat(3000), list: [1, 2, 3] } } }] })));
checks.splice(checks.length - 1, 0, { ...meta('webhook.retry.attempts'), status: 'passed', evidence: [{ kind: 'delivery', attempts:
  Array.from({ length: 3 }, (_, i) => ({ seq: i, checkoutId: `checkout-with-a-rather-long-identifier-${i}-${'z'.repeat(40)}`, event: 0, attempt: i,
    bodyStatus: 'PAYMENT_CREATED', arrivedMs: i * 1000, answeredMs: i * 1000 + 5, answer: 500 as const, probe: 'answer-500', method: 'POST',
    path: `/hooks/${'p'.repeat(60)}`, headers: { 'content-type': 'application/json' }, body: '{"status":"PAYMENT_CREATED"}' })) }] });
const results: RunResults = {
  tool: { name: 'pis-conformance', version: '0.1.0' }, command: 'run',
  target: { authUrl: 'http://127.0.0.1:40333', realm: 'pis', clientId: 'demo-client', baseUrl: BASE },
  timeScale: 0.1, startedAt: '2026-11-22T10:00:00.000Z', finishedAt: '2026-11-22T10:01:00.000Z', summary: summarize(checks), checks,
};

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

async function withPage(browser: Browser, dir: string, width: number, height: number) {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('console', m => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', e => problems.push(e.message));
  await page.goto(`file://${join(dir, 'index.html')}`);
  return { page, problems };
}

test('index.html in Chromium at 1280 and 390 px: verdict in view, the marked exchange first with nothing to scroll past, filters and search', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-page-'));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    writeReportFiles(dir, results);
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });

    for (const [width, height] of [[1280, 800], [390, 844]]) {
      const { page, problems } = await withPage(browser, dir, width, height);
      const inView = async (selector: string) => {
        const box = await page.locator(selector).first().boundingBox();
        return !!box && box.y >= 0 && box.y + Math.min(box.height, 40) <= height;
      };
      assert.ok(await inView('#verdict'), `${width}px: the verdict is in view without scrolling`);
      // The report opens on problems: the first failed check starts in the first screen, though 31 passed checks come
      // before it in the results; the passed ones are folded, one click away.
      const first = await page.locator('details.check.failed').first().boundingBox();
      assert.ok(first && first.y < height, `${width}px: the first failure starts at ${first?.y} px`);
      assert.equal(await page.locator('details.check.passed:visible').count(), 0, 'passed checks are folded');
      await page.locator('#suite-session details.rest > summary').click();
      assert.equal(await page.locator('#suite-session details.check.passed:visible').count(), 30, 'one click shows a suite\'s passed checks');
      await page.locator('#suite-session details.rest > summary').click();
      // No horizontal scrolling, even with every fold open (long JSON and tables scroll inside their own box).
      await page.evaluate(() => { for (const d of document.querySelectorAll('details')) (d as HTMLDetailsElement).open = true; });
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `${width}px: the page is no wider than the screen`);
      await page.evaluate(() => { for (const d of document.querySelectorAll('details:not(.check.failed)')) (d as HTMLDetailsElement).open = false; });
      const box = await page.locator('#reproduce pre').textContent() ?? '';
      assert.match(box,
        /^TOKENS="\$\(curl -sS -X POST 'http:\/\/127\.0\.0\.1:40333\/auth\/realms\/pis\/protocol\/openid-connect\/token' .*\$PIS_CLIENT_SECRET"\)"$/m,
        'the token request, with the client secret as a placeholder');
      assert.match(box, /^export PIS_ACCESS_TOKEN="\$\(printf %s "\$TOKENS" \| node -pe /m, 'how to get the token the curl lines use');
      await page.screenshot({ path: join(ROOT, 'test-results', `report-${width}-top.png`) });

      // From the list of failures to the check: its marked exchange is in view, and it is the only exchange shown.
      await page.locator(`#failures a[href="#${BIC}"]`).click();
      const check = page.locator(`details.check[id="${BIC}"]`);
      const primary = check.locator('.primary-ev');
      assert.ok(await inView(`details.check[id="${BIC}"] .primary-ev`), `${width}px: the marked exchange is in view`);
      assert.match(await primary.innerText(), /acc-9\/transactions/, 'the marked exchange is the one that broke the rule');
      assert.deepEqual(await primary.locator('mark').allInnerTexts(), ['"DNBANOKKX"'], 'the value it saw is marked in the body (not the 11-character ones)');
      const mark = await primary.locator('mark').boundingBox();
      assert.ok(mark && mark.y >= 0 && mark.y + mark.height <= height, `${width}px: the marked value is in view (its body scrolled to it)`);
      assert.equal(await check.locator('.http:visible').count(), 1, `${width}px: no other exchange before or around it`);
      assert.match(await check.locator('details.more-ev > summary').innerText(), /14 exchanges/);
      const checkBox = await check.boundingBox();
      assert.ok(checkBox && checkBox.height < 1400, `${width}px: the failed check is ${checkBox?.height} px tall`);
      await page.screenshot({ path: join(ROOT, 'test-results', `report-${width}-failure.png`) });

      // Filters: problems only, then a search, then everything again.
      await page.locator('#only-problems').click();
      assert.equal(await page.locator('details.check:visible').count(), 3, 'failed, warning and not run');
      await page.locator('#search').fill('acc-9-TX-2');
      assert.deepEqual(await page.locator('details.check:visible').evaluateAll(els => els.map(e => e.id)), [BIC]);
      assert.match(await page.locator('#shown').innerText(), /^1 of 67 checks shown$/);
      await page.locator('#show-all').click();
      await page.locator('#filters input[data-group="suite"][value="session"]').uncheck();
      assert.equal(await page.locator('details.check:not([hidden])').count(), 37);
      assert.equal(await page.locator('details.check:visible').count(), 3, 'the passed ones are kept, folded in their suite');
      assert.equal(await page.locator('section#suite-session').isVisible(), false, 'a suite with nothing to show is hidden');
      assert.deepEqual(problems, [], `${width}px: no script error and no blocked script (CSP)`);
      await page.close();
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
