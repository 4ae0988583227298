// `run --suites token` needs the auth server only: with --auth-url and no
// --base-url it runs, and the checks that need the API do not run, naming
// --base-url: the verdict is Incomplete (exit 0 with --allow-incomplete).
// A suite that calls the API still asks for the base URL before anything starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import { requireBaseUrl, resolveTarget } from '../../harness/config/config.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { runCli } from '../helpers/cli.ts';

test('run --suites token with only the auth URL runs the token suite and skips the API checks', async () => {
  const ref = await startReference({ timeScale: 0.01 });
  const dir = mkdtempSync(join(tmpdir(), 'pis-token-only-'));
  try {
    const r = await runCli(['run', '--suites', 'token', '--auth-url', ref.authUrl, '--client-id', ref.clientId, '--time-scale', '0.01', '--workers', '1',
      '--report', dir, '--allow-incomplete'],
      { env: { PIS_CLIENT_SECRET: ref.clientSecret, PIS_BASE_URL: '' }, timeoutMs: 120_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.code, 0, out);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.summary.verdict, 'incomplete', out);
    const printed = /\nNot run: give --base-url to run (\d+) token checks[.;]/.exec(r.stdout);
    assert.ok(printed, r.stdout);
    // README.md quotes this line as its example of what a verdict line says: with the figure this run prints.
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s*\n\s*/g, ' ');
    assert.ok(readme.includes(`Not run: give --base-url to run ${printed[1]} token checks.`), `README.md quotes the line with ${printed[1]}`);
    assert.equal(results.target.baseUrl, undefined);
    const api = results.checks.filter(c => /^token\.(use\.|expiry\.old-token-refused$)/.test(c.id));
    // The refresh token's lifetime is seen at the auth server alone: those checks run, or wait for a lifetime longer than --max-wait.
    const refreshLife = results.checks.filter(c =>
      ['token.expiry.old-refresh-token-refused', 'token.refresh.until-refresh-expires-in', 'token.refresh.resets-lifetimes'].includes(c.id));
    assert.equal(refreshLife.length, 3, out);
    for (const c of refreshLife) assert.ok(c.status === 'passed' || (c.skipKind === 'not-run' && /--max-wait/.test(c.remedy ?? '')), JSON.stringify(c));
    const rest = results.checks.filter(c => !api.includes(c) && !refreshLife.includes(c));
    assert.ok(api.length >= 6 && rest.length >= 20, out);
    for (const c of api) {
      assert.deepEqual([c.status, c.skipKind, c.remedy], ['skipped', 'not-run', 'give --base-url'], c.id);
      assert.match(c.message ?? '', /no --base-url/, c.id);
    }
    assert.deepEqual(rest.filter(c => c.status !== 'passed').map(c => c.id), [], out);
  } finally {
    await ref.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a suite that calls the API without a base URL is exit 2 naming --base-url and the suite', async () => {
  const r = await runCli(['run', '--suites', 'token,session', '--auth-url', 'http://127.0.0.1:9', '--client-id', 'c'],
    { env: { PIS_CLIENT_SECRET: 'some-secret', PIS_BASE_URL: '' }, timeoutMs: 30_000 });
  assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
  const lines = r.stderr.trim().split('\n').filter(l => !/npm warn/i.test(l));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /base-url is missing and the session suite needs it: give --base-url.*--suites token/);
  assert.doesNotMatch(r.stdout, /Running \d+ checks/);
});

test('only the session, data and payments suites need a base URL', () => {
  const cfg = resolveTarget({ authUrl: 'http://kc.example/', clientId: 'c', clientSecret: 's', controlUrl: 'http://ctl.example' });
  assert.equal(cfg.baseUrl, undefined);
  assert.doesNotThrow(() => requireBaseUrl(cfg, ['token', 'webhook']));
  assert.throws(() => requireBaseUrl(cfg, ['token', 'data', 'payments']), /the data, payments suites need it: .*--suites token,webhook\)/);
  assert.doesNotThrow(() => requireBaseUrl({ ...cfg, baseUrl: 'http://api.example' }, ['session']));
});
