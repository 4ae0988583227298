// A target that stalls every answer (headers, then a body that never ends)
// costs a suite a bounded time: once its calls have lost the stall budget to
// timeouts, a call waits at most the short limit, and past twice the budget
// no call is made; such checks are not run with the figures, never failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { CheckContext, settle } from '../../suites/support/check.ts';
import { STALLS, lostMs } from '../../suites/support/stalls.ts';
import { testContextEnv } from '../helpers/context.ts';

const DEFAULTS = { ...STALLS };

test('docs/report.md states the stall budget and the short wait', () => {
  const doc = readFileSync(new URL('../../docs/report.md', import.meta.url), 'utf8');
  const short = (DEFAULTS.stalledCallMs / 1000).toFixed(1);
  assert.match(doc, new RegExp(`past ${DEFAULTS.budgetMs / 1000} s a call of that suite waits at most ${short} s, and past ` +
    `${2 * DEFAULTS.budgetMs / 1000} s no more`));
});

Object.assign(process.env, { ...testContextEnv({ authUrl: 'http://127.0.0.1:1', clientId: 'c' }), ...process.env });

test('stalled answers: the budget is used, then calls are cut short, then not made; each check says so', async t => {
  const open = new Set<ServerResponse>();
  // Promises 1,000 bytes, sends 10.
  const server = createServer((_req, res) => { open.add(res); res.writeHead(200, { 'content-length': '1000' }); res.write('{"id":"a",'); });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/banks`;
  Object.assign(STALLS, { budgetMs: 600, stalledCallMs: 100 });
  const def = { id: 'data.banks.stall-test', title: 't', spec: '4.4', quote: 'q', requirements: [] };
  const run = async () => {
    const c = new CheckContext(def);
    const started = performance.now();
    const out = await settle(c, async x => { await x.http({ method: 'GET', url, timeoutMs: 200, deadlineMs: 300 }); }, 10_000);
    return { out, ms: performance.now() - started, notes: c.evidence.filter(e => e.kind === 'note').map(e => e.kind === 'note' ? e.text : '') };
  };
  try {
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push(await run());
    // Within the budget: each stalled call waits out its own deadline and fails its check, as before.
    assert.deepEqual(outcomes.slice(0, 2).map(o => o.out.status), ['failed', 'failed']);
    assert.ok(outcomes[0]!.ms >= 250, `${outcomes[0]!.ms} ms`);
    const cut = outcomes.filter(o => o.out.status === 'skipped' && /waited at most 0.1 s and got no answer/.test(o.out.message ?? ''));
    const notMade = outcomes.filter(o => o.out.status === 'skipped' && /no more of its calls are made/.test(o.out.message ?? ''));
    assert.ok(cut.length >= 1 && cut.every(o => o.ms < 250), JSON.stringify(outcomes.map(o => [o.out.status, Math.round(o.ms)])));
    assert.ok(notMade.length >= 1 && notMade.every(o => o.ms < 50), JSON.stringify(outcomes.map(o => [o.out.status, Math.round(o.ms)])));
    assert.ok(cut.every(o => o.out.skipKind === 'not-run' && /past the 1 s budget/.test(o.out.message ?? '')));
    assert.ok(lostMs('data') >= 2 * STALLS.budgetMs);
    const total = outcomes.reduce((s, o) => s + o.ms, 0);
    t.diagnostic(`12 stalled calls: ${JSON.stringify(outcomes.map(o => [o.out.status, Math.round(o.ms)]))}, ${total.toFixed(0)} ms in all`);
    assert.ok(total < 2 * STALLS.budgetMs + 2 * 300, `12 stalled calls cost ${total.toFixed(0)} ms in all`);
  } finally {
    for (const r of open) r.destroy();
    server.closeAllConnections();
    await new Promise(r => server.close(r));
  }
});
