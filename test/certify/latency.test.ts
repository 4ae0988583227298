// Percentiles, the latency evidence and the picture drawn from results alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, summarizeMs } from '../../harness/report/stats.ts';
import { latencyEvidence } from '../../harness/certify/latency.ts';
import { latencyFigure } from '../../harness/report/html/latency.ts';
import { renderPage } from '../../harness/report/html/page.ts';
import { timing } from '../../harness/certify/options.ts';
import { specClock } from '../../harness/clock.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { summarize } from '../../harness/report/verdict.ts';
import type { Delivery } from '../../harness/certify/transport.ts';

test('nearest-rank percentiles report latencies that were measured', () => {
  const ms = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.deepEqual(summarizeMs(ms), { n: 100, p50: 50, p95: 95, p99: 99, max: 100 });
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
});

test('timing scales the 5 s limit and the pause, with the tolerance of docs/report.md', () => {
  const t = timing(specClock(0.02));
  assert.equal(t.limitMs, 100);
  assert.equal(t.toleranceMs, 25);
  assert.equal(t.pauseMs, 200);
  assert.equal(timing(specClock(1)).toleranceMs, 100);
});

const delivery = (kind: Delivery['kind'], ms: number, answered = true): Delivery => ({
  kind, label: kind, ms, ...(answered ? { status: 200 } : {}), timedOut: !answered,
  evidence: { kind: 'http', request: { method: 'POST', url: 'http://x', headers: {} }, startedAt: '', durationMs: ms },
});

function results(evidence: RunResults['checks'][number]['evidence']): RunResults {
  const checks: RunResults['checks'] = [{ id: 'receiver.latency.under-limit', suite: 'receiver', title: 't', spec: '6.6', level: 'must', status: 'passed',
    evidence, durationMs: 1 }];
  return {
    tool: { name: 'pis-conformance', version: '0' }, command: 'certify-receiver', target: {}, timeScale: 1,
    startedAt: '', finishedAt: '', summary: summarize(checks), checks,
  };
}

test('the picture is drawn from the evidence alone: a row per kind, the limit lines, and the figures table', () => {
  const log = [delivery('normal', 2), delivery('normal', 4), delivery('batch', 3), delivery('burst', 40), delivery('burst', 0, false)];
  const ev = latencyEvidence(log, 5000, 1000);
  const burst = ev.find(e => e.kind === 'measurement' && e.name === 'latency burst');
  assert.match(burst?.kind === 'measurement' ? burst.seen : '', /n=1\); 1 more got no answer/);
  const svg = latencyFigure(results(ev));
  assert.match(svg, /<svg[^>]*class="latency-chart"/);
  assert.equal((svg.match(/<circle /g) ?? []).length, 4);
  assert.match(svg, /limit 5 s/);
  assert.match(svg, /p99 advice 1 s/);
  assert.match(svg, /<tr><td>normal<\/td><td>2<\/td>/);
  assert.ok(!svg.includes('older'), 'no row for a kind that was not sent');
  assert.match(renderPage(results(ev)), /class="latency-chart"/);
});

test('no picture for a report without latency samples, and names are escaped', () => {
  assert.equal(latencyFigure(results([])), '');
  const svg = latencyFigure(results([{ kind: 'samples', name: 'latency samples <b>x', series: '<b>x', unit: 'ms', values: [1, 2] }]));
  assert.ok(svg.includes('&lt;b&gt;x') && !svg.includes('<b>x'));
});
