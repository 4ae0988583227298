// `matrix` on three certificates of small real runs (the token.issue checks
// of the bundled reference at the default API version and at 2.0.0, and a run
// with the fault token-type-mac) and a tampered fourth: in Debian's Chromium
// the page shows one row, two API-version columns, the fault's failing
// requirement one click away, the tampered certificate apart and never as a
// result, working filters, and no request beyond the file itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { ROOT, runCli } from '../helpers/cli.ts';
import { flipped } from './independent.ts';

const tmp = mkdtempSync(join(tmpdir(), 'pis-matrix-'));
const key = join(tmp, 'k.key'), pub = join(tmp, 'k.pub');
const RUN = ['run', '--grep', 'token\\.issue\\.'];

before(async () => {
  assert.equal((await runCli(['keygen', '--out', join(tmp, 'k')])).code, 0);
  const runs = await Promise.all([
    runCli([...RUN, '--report', join(tmp, 'latest'), '--attest', key]),
    runCli([...RUN, '--api-version', '2.0.0', '--report', join(tmp, 'v2'), '--attest', key]),
    runCli([...RUN, '--fault', 'token-type-mac', '--report', join(tmp, 'fault'), '--attest', key]),
  ]);
  assert.deepEqual(runs.map(r => r.code), [0, 0, 1], runs.map(r => r.stdout + r.stderr).join('\n'));
  writeFileSync(join(tmp, 'tampered.json'), flipped(readFileSync(join(tmp, 'latest', 'attestation.intoto.json'), 'utf8'), 'payload', 200));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('the matrix page in Chromium: verified results by version, the tampered one apart, filters, no network', async () => {
  const page = join(tmp, 'matrix.html');
  const m = await runCli(['matrix', ...['latest', 'v2', 'fault'].map(d => join(tmp, d, 'attestation.intoto.json')), join(tmp, 'tampered.json'),
    '--key', pub, '--out', page]);
  assert.equal(m.code, 0, m.stderr);
  assert.match(m.stdout, /wrote .*matrix\.html: 3 verified certificates, 1 refused/);
  assert.match(m.stderr, /tampered\.json is listed apart, not as a result: No signature of the envelope verifies/);

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    tab.on('request', r => requests.push(r.url()));
    const errors: string[] = [];
    tab.on('console', msg => { if (msg.type() === 'error') errors.push(msg.text()); });
    await tab.goto('file://' + page);
    assert.deepEqual(requests, ['file://' + page]);
    assert.deepEqual(errors, [], 'the page script was blocked or failed');
    assert.deepEqual(await tab.locator('#matrix tbody th').allInnerTexts(), ['bundled reference']);
    const cols = await tab.locator('#matrix thead th[scope=col]').allInnerTexts();
    assert.deepEqual(cols.map(c => c.split(' · ')[0]), ['2.0.0', '3.2.0']);
    const cells = tab.locator('#matrix tbody td');
    assert.deepEqual(await cells.nth(0).locator('a').allInnerTexts(), ['PASSED']);
    assert.deepEqual((await cells.nth(1).locator('a').allInnerTexts()).sort(), ['FAILED', 'PASSED']);
    assert.match(await tab.locator('#shown').innerText(), /^3 of 3 certificates shown$/);
    // Apart, with its reason; never a cell.
    assert.match(await tab.locator('#refused').innerText(), /tampered\.json: No signature of the envelope verifies/);
    assert.equal(await tab.locator('a.cell', { hasText: 'tampered' }).count(), 0);
    // One click to the failing requirement.
    await cells.nth(1).locator('a.FAILED').click();
    const target = tab.locator(await cells.nth(1).locator('a.FAILED').getAttribute('href') ?? '#none');
    assert.ok(await target.isVisible());
    assert.match(await target.innerText(), /Failing requirements:\s*R2\.1-token-type-bearer\s*Failed checks:\s*token\.issue\.token-type/);
    assert.ok(tab.url().endsWith(await cells.nth(1).locator('a.FAILED').getAttribute('href') ?? '?'));
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await tab.screenshot({ path: join(ROOT, 'test-results', 'matrix.png'), fullPage: false });
    // The filters hide what is unticked.
    await tab.locator('#filters input[value=FAILED]').uncheck();
    assert.equal(await cells.nth(1).locator('a.FAILED').isVisible(), false);
    assert.match(await tab.locator('#shown').innerText(), /^2 of 3 certificates shown$/);
    await tab.locator('#filters input[value="2.0.0"]').uncheck();
    assert.match(await tab.locator('#shown').innerText(), /^1 of 3 certificates shown$/);
    await tab.locator('#search').fill('no such implementation');
    assert.equal(await tab.locator('#matrix tbody tr').first().isVisible(), false);
  } finally { await browser.close(); }
});
