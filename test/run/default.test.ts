// `npm start` is `run` with no flags: the bundled reference on a compressed
// clock, every suite that exists, and a verdict that is Conformant and
// complete: every must check ran and passed, including the ones that wait for
// a token, a refresh token and a consent to expire (the bundled reference's
// lifetimes fit the default --max-wait).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { availableSuites } from '../../harness/runner/playwright.ts';
import { SUITES } from '../../harness/config/config.ts';
import { runCli } from '../helpers/cli.ts';
import { judgeable, tooBusyToJudge } from '../sink/stall.ts';

/** Stalls of this process stand for the machine's load (the run's reference and suites are child processes). */
const STALL_LIMIT_MS = 150;

test('run with no target runs every suite against the bundled reference and is conformant and complete', async t => {
  // A run whose timing the machine blurred (the sink reports its own lateness: a check "could not be
  // judged") is made again, up to three times; the last one is asserted on, and its failure names the stalls.
  const dirs: string[] = [];
  const once = async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pis-default-'));
    dirs.push(dir);
    const r = await runCli(['run', '--report', dir], { timeoutMs: 240_000 });
    let results: RunResults | undefined;
    try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { /* asserted below */ }
    return { r, dir, results, checks: results?.checks ?? [] };
  };
  const { result: { r, dir, checks }, blurred } = await judgeable(once, STALL_LIMIT_MS, x => x.r.code === 0);
  try {
    assert.match(r.stdout, /Started the bundled reference implementation at http:\/\/127\.0\.0\.1:\d+\/api \(API version 3\.2\.0, time scale 0\.1\)/);
    assert.ok(existsSync(join(dir, 'index.html')));
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const out = r.stdout + r.stderr + blurred;
    // Every must check passed but the one the bundled reference's opaque tokens leave nothing to judge at (no JWT claims to change).
    const opaque = (c: { id: string; skipKind?: string }) => c.id === 'token.use.tampered-token-refused' && c.skipKind === 'not-applicable';
    // The long chain of 6 failures (about 630 spec s) is driven on request only (--long-chains): not selected, with that remedy.
    const onRequest = (c: { id: string; skipKind?: string }) => c.id === 'webhook.retry.long-chain' && c.skipKind === 'not-selected';
    // Three tries on a machine too busy to judge timing (the project's CI, at times 10 times slower than alone), whose run
    // failed nothing and left not run only what it could not judge: the verdict is not asserted, and the test says why.
    const busy = tooBusyToJudge(checks, blurred, c => opaque(c) || onRequest(c));
    if (busy) { t.skip(busy); return; }
    assert.deepEqual(results.checks.filter(c => c.status !== 'passed' && c.level === 'must' && !opaque(c) && !onRequest(c))
      .map(c => `${c.id}: ${c.message}`), [], out);
    assert.equal(results.checks.find(onRequest)?.remedy, 'give --long-chains', out);
    assert.deepEqual(results.checks.filter(c => c.skipKind === 'not-run').map(c => c.id), [], out);
    assert.equal(results.summary.verdict, 'conformant', out);
    assert.equal(r.code, 0, out);
    assert.match(r.stdout, /\nConformant: \d+ passed, 0 failed, \d+ skipped[^\n]*\.\nReport: .*index\.html\n/);
    for (const id of ['token.use.until-expires-in', 'token.refresh.until-refresh-expires-in', 'token.expiry.old-token-refused',
      'token.expiry.old-refresh-token-refused', 'session.consent-link.expired-session'])
      assert.equal(results.checks.find(c => c.id === id)?.status, 'passed', `${id}: ${out}`);
    // The waits ran beside the other checks: each waiting check's first exchange (its watch's) was made
    // before a check registered ahead of it began (an order, not a wall time).
    const firstAt = (id: string) => results.checks.find(c => c.id === id)?.evidence.find(e => e.kind === 'http')?.startedAt ?? '';
    for (const [waiting, earlier] of [['token.expiry.old-token-refused', 'token.use.refreshed-token-accepted'],
      ['token.expiry.old-refresh-token-refused', 'token.use.refreshed-token-accepted'],
      ['session.consent-link.expired-session', 'session.consent-link.per-session']])
      assert.ok(firstAt(waiting) < firstAt(earlier), `${waiting} began its wait at ${firstAt(waiting)}, after ${earlier} began at ${firstAt(earlier)}`);
    // The longest wait first: `run` drives the webhook checkouts beside Playwright's start, so its first
    // control API request precedes the first exchange of every check (an order, not a wall time).
    const exchanges = (suite: (s: string) => boolean) => results.checks.filter(c => suite(c.suite))
      .flatMap(c => c.evidence.flatMap(e => (e.kind === 'http' ? [{ at: e.startedAt, url: e.request.url }] : []))).sort((a, b) => a.at.localeCompare(b.at));
    const [control] = exchanges(s => s === 'webhook').filter(e => /\/checkouts$/.test(e.url));
    const [check] = exchanges(s => s !== 'webhook');
    assert.ok(control && check, 'control API and check exchanges in the evidence');
    assert.ok(control.at < check.at, `the first checkout was asked for at ${control.at}, after a check's first exchange at ${check.at}`);
    assert.deepEqual([...new Set(results.checks.map(c => c.suite))].sort(), availableSuites(SUITES).sort());
  } finally { for (const d of dirs) rmSync(d, { recursive: true, force: true }); }
});
