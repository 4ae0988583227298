// A report is rendered from results.json, and `report DIR` may be handed one
// from anywhere: nothing in it may run in the reader's browser, and no byte a
// target sent may make junit.xml ill-formed. Opened in Debian's Chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import type { CheckResult, RunResults } from '../../harness/results/model.ts';
import { renderPage } from '../../harness/report/html/page.ts';
import { renderJunit } from '../../harness/report/junit.ts';
import { summarize } from '../../harness/report/verdict.ts';
import { runCli } from '../helpers/cli.ts';

/** Closes whatever element or attribute it lands in, then tries to run. */
const XSS = `"'></title></text></svg></pre><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 1"><svg onload="window.__pwned = 1">`;
/** Characters XML 1.0 forbids even escaped, and a surrogate cut from its pair. */
const XML_BAD = 'a\uFFFFb\uFFFEc\u0001d\uD800e\uDC00f\u000Bg';

function results(text: string): RunResults {
  const checks: CheckResult[] = [{
    id: 'webhook.retry.after-500', suite: 'webhook', title: `title ${text}`, spec: `6.4 ${text}`, level: 'must', status: 'failed',
    quote: text, requirements: [text], message: `message ${text}`, expected: text, seen: text, remedy: text,
    evidence: [
      { kind: 'http', label: text, request: { method: text, url: text, headers: { [text]: text }, body: { [text]: text } },
        response: { status: 500, headers: { h: text }, body: text }, error: text, startedAt: text, durationMs: 3, curl: text },
      { kind: 'note', text },
      { kind: 'measurement', name: text, expected: text, seen: text, unit: text },
      { kind: 'delivery', attempts: [{ seq: 1, checkoutId: text, event: 0, bodyStatus: text, attempt: 1, arrivedMs: 10, headers: { 'api-key': text },
        body: text, probe: text, answer: 500 }] },
    ],
    durationMs: 3,
  }, {
    id: 'webhook.retry.after-reset', suite: 'webhook', title: text, spec: '7', level: 'should', status: 'skipped', skipKind: 'not-run',
    message: text, remedy: text,
    evidence: [], durationMs: 0,
  }];
  return {
    tool: { name: 'pis-conformance', version: text }, command: text, target: { [text]: text }, timeScale: 1,
    startedAt: '2026-11-22T10:00:00.000Z', finishedAt: '2026-11-22T10:00:09.000Z', selection: { suites: [text], grep: text },
    summary: summarize(checks), checks,
    deliveries: [{ seq: 1, checkoutId: text, event: 0, bodyStatus: text, attempt: 1, arrivedMs: 10, answeredMs: 20, headers: {}, body: text,
      probe: text, answer: 500 }],
    deviations: [{ check: text, justification: text, expires: '2999-12-31', link: text, covers: [text], expired: false },
      { requirement: text, justification: text, expires: '2001-01-01', link: 'javascript:window.__pwned = 1', covers: [], expired: true }],
  };
}

/** The same results with numbers and enums replaced by markup, where the renderers used to print them as they were. */
function mistyped(text: string): unknown {
  const r = results(text) as unknown as Record<string, any>;
  r.timeScale = text;
  r.summary = { ...r.summary, passed: text, failed: text, verdict: text };
  const c = r.checks[0];
  Object.assign(c, { status: text, level: text, durationMs: text });
  c.evidence[0].response.status = text;
  c.evidence[0].durationMs = text;
  Object.assign(c.evidence[3].attempts[0], { seq: text, event: text, arrivedMs: text });
  Object.assign(r.deliveries[0], { seq: text, event: text, arrivedMs: text });
  Object.assign(r.deviations[0], { expires: text, expired: text, covers: text });
  return r;
}

let browser: Browser;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pis-hostile-report-'));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a page and says whether anything on it ran: a global set, a dialog, an injected script element, an event handler attribute. */
async function ran(file: string): Promise<string[]> {
  const page = await browser.newPage();
  const seen: string[] = [];
  page.on('dialog', d => { seen.push(`dialog ${d.message()}`); void d.dismiss(); });
  try {
    await page.goto('file://' + file);
    await page.waitForTimeout(200);
    const found = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned,
      // The page's own filter script may be there (allowed by its hash); an injected one says __pwned.
      scripts: [...document.querySelectorAll('script')].filter(e => e.textContent?.includes('__pwned')).length,
      handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].filter(a => a.name.startsWith('on')).map(a => `${e.tagName} ${a.name}`)),
      verdict: document.querySelector('#verdict')?.textContent ?? null,
    }));
    if (found.pwned !== undefined) seen.push('window.__pwned was set');
    if (found.scripts) seen.push(`${found.scripts} script elements`);
    seen.push(...found.handlers.map(h => `handler ${h}`));
    if (found.verdict === null) seen.push('no verdict heading');
    return seen;
  } finally { await page.close(); }
}

test('report DIR on results.json of the right shape with markup in every string: the page shows it as text, nothing runs', async () => {
  const folder = join(dir, 'strings');
  mkdirSync(folder);
  writeFileSync(join(folder, 'results.json'), JSON.stringify(results(XSS)));
  const r = await runCli(['report', folder]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(await ran(join(folder, 'index.html')), []);
  const page = readFileSync(join(folder, 'index.html'), 'utf8');
  assert.match(page, /&lt;script&gt;window\.__pwned = 1&lt;\/script&gt;/);
  assert.match(page, /<section id="deviations">/);
  assert.doesNotMatch(page, /href="javascript/i, 'a deviation\'s link that is not http(s) is text, never a link');
});

test('report DIR refuses results.json whose numbers and enums carry markup; the page renderer escapes them all the same', async () => {
  const folder = join(dir, 'mistyped');
  mkdirSync(folder);
  writeFileSync(join(folder, 'results.json'), JSON.stringify(mistyped(XSS)));
  const r = await runCli(['report', folder]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^pis-conformance report: \[PIS_BAD_INPUT\] /);
  assert.equal(existsSync(join(folder, 'index.html')), false);
  // Past the check, the renderer alone: every field above is escaped.
  const page = join(folder, 'direct.html');
  writeFileSync(page, renderPage(mistyped(XSS) as RunResults));
  assert.deepEqual(await ran(page), []);
});

test('junit.xml stays well-formed whatever characters a body holds (checked with a real XML parser)', async () => {
  const folder = join(dir, 'xml');
  mkdirSync(folder);
  writeFileSync(join(folder, 'results.json'), JSON.stringify(results(`${XML_BAD} ${XSS}`)));
  const r = await runCli(['report', folder]);
  assert.equal(r.code, 0, r.stderr);
  const page = await browser.newPage();
  try {
    for (const xml of [readFileSync(join(folder, 'junit.xml'), 'utf8'), renderJunit(mistyped(XML_BAD) as RunResults)]) {
      const error = await page.evaluate(x => {
        const doc = new DOMParser().parseFromString(x, 'application/xml');
        return doc.getElementsByTagName('parsererror')[0]?.textContent ?? null;
      }, xml);
      assert.equal(error, null);
      assert.match(xml, /a\uFFFDb\uFFFDcd\uFFFDe\uFFFDfg/);
    }
  } finally { await page.close(); }
});
