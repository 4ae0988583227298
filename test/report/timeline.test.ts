// The delivery timeline of index.html: drawn from results.json alone (so
// `report DIR` redraws it), and really there when Debian's Chromium opens the
// page. The screenshot lands in test-results/ for a person to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import type { CheckResult, DeliveryAttempt, RunResults } from '../../harness/results/model.ts';
import { writeReportFiles } from '../../harness/report/writer.ts';
import { summarize } from '../../harness/report/verdict.ts';
import { timelineFigure } from '../../harness/report/html/timeline.ts';
import { ROOT, runCli } from '../helpers/cli.ts';

const SCALE = 0.1;
const at = (specS: number) => specS * 1000 * SCALE;
let seq = 0;
const PLANS: Record<string, string> = { 'c-held': 'held', 'c-slow': 'answer-after-6s', 'c-early': 'answer-500' };
function attempt(checkoutId: string, event: number, status: string, arrivedS: number, answer: DeliveryAttempt['answer'], probe: string,
  tookS = 0.01): DeliveryAttempt {
  return {
    seq: ++seq, checkoutId, plan: PLANS[checkoutId], event, bodyStatus: status, attempt: 1, arrivedMs: at(arrivedS),
    headers: { 'api-key': '[redacted]' }, body: '{}', probe, answer,
    ...(answer === 'none' ? { closedMs: at(arrivedS + tookS) } : { answeredMs: at(arrivedS + tookS) }),
  };
}

const deliveries: DeliveryAttempt[] = [
  attempt('c-held', 0, 'STARTED', 0, 500, 'status-500'), attempt('c-held', 0, 'STARTED', 10.2, 500, 'status-500'),
  attempt('c-held', 0, 'STARTED', 30.4, 500, 'status-500'), attempt('c-held', 0, 'STARTED', 70.6, 200, 'ok'),
  attempt('c-held', 1, 'TIMED_OUT', 70.7, 200, 'ok'),
  attempt('c-slow', 0, 'STARTED', 0.1, 'none', 'slow-6s', 5), attempt('c-slow', 0, 'STARTED', 15.2, 200, 'ok'),
  attempt('c-early', 0, 'STARTED', 0.2, 500, 'status-500'), attempt('c-early', 0, 'STARTED', 2.3, 200, 'ok'),
];
const early = deliveries.filter(d => d.checkoutId === 'c-early');
const checks: CheckResult[] = [{
  id: 'webhook.backoff.min-delay', suite: 'webhook', title: 'Every retry comes at least 10 s after the failed attempt ended', spec: '6.5', level: 'must',
  status: 'failed', message: 'retry 1 of event 0 came 2.09 s after the failed attempt ended',
  evidence: [{ kind: 'delivery', attempts: early, primary: true, violating: [early[1].seq] }], durationMs: 0,
}];
const results: RunResults = {
  tool: { name: 'pis-conformance', version: '0.1.0' }, command: 'run', target: {}, timeScale: SCALE,
  startedAt: '2026-11-22T10:00:00.000Z', finishedAt: '2026-11-22T10:00:09.000Z',
  summary: summarize(checks), checks, deliveries,
};

test('the timeline draws every attempt, the windows, the delays and the violation', () => {
  const svg = timelineFigure(results);
  assert.equal((svg.match(/class="attempt"/g) ?? []).length, deliveries.length);
  assert.equal((svg.match(/class="checkout"/g) ?? []).length, 3);
  assert.equal((svg.match(/class="window"/g) ?? []).length, deliveries.length, 'a 5 s window per attempt');
  assert.equal((svg.match(/class="min-delay"/g) ?? []).length, 5, 'a 10 s zone after each failed attempt');
  assert.match(svg, />10\.2 s</, 'the first backoff delay of c-held is written on its gap');
  assert.match(svg, />10\.2 s<[\s\S]*>20\.2 s<[\s\S]*>40\.2 s</);
  assert.equal((svg.match(/class="violation"/g) ?? []).length, 1, 'one ring: the early retry, not the failed attempt before it');
  assert.match(svg, /class="violation" data-seq="9"/, 'the early retry of c-early is ringed');
  assert.match(svg, /class="row-name"[^>]*><title>c-held<\/title>held</, 'rows are named by their probe plan, the id in the tooltip');
  const widths = [...svg.matchAll(/class="attempt"[^>]* width="([\d.]+)"/g)].map(m => Number(m[1]));
  assert.ok(widths.every(w => w >= 7), `an attempt answered in 10 ms is still a visible mark: ${widths.join(', ')}`);
  const old = timelineFigure({ ...results, checks: [{ ...checks[0], evidence: [{ kind: 'delivery', attempts: early }] }] });
  assert.equal((old.match(/class="violation"/g) ?? []).length, 2, 'results without the violating list: every attempt of the evidence');
  assert.equal(timelineFigure({ ...results, deliveries: [] }), '', 'nothing to draw, no figure');
});

test('index.html shows the timeline in Chromium, also after report DIR rebuilt it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-timeline-'));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  try {
    writeFileSync(join(dir, 'results.json'), JSON.stringify(results));
    const rebuilt = await runCli(['report', dir]);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    writeReportFiles(dir, results);
    const page = await browser.newPage({ viewport: { width: 1320, height: 600 } });
    await page.goto(`file://${join(dir, 'index.html')}`);
    const svg = page.locator('svg.timeline');
    await svg.waitFor();
    assert.equal(await svg.getAttribute('data-attempts'), String(deliveries.length));
    assert.equal(await page.locator('svg.timeline rect.attempt').count(), deliveries.length);
    const box = await svg.boundingBox();
    assert.ok(box && box.width > 600 && box.height > 100, `timeline laid out: ${JSON.stringify(box)}`);
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await svg.screenshot({ path: join(ROOT, 'test-results', 'timeline.png') });
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
