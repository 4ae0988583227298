// Runs `pis-conformance run --suites token` against a fresh Keycloak-style
// server (keycloak-server.ts) as an outsider would: a --config file with the
// auth URL, realm, client id and the token path override, the secret in env.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult, RunResults } from '../../../harness/results/model.ts';
import { runCli, type CliResult } from '../../helpers/cli.ts';
import { CLIENT_ID, CLIENT_SECRET, REALM, startKeycloak, TOKEN_PATH, type KeycloakOptions } from './keycloak-server.ts';

export interface Outcome { cli: CliResult; results: RunResults; out: string; issued: string[]; reportText: string }

/** `withApi` adds base-url (the server's /api) to the config; `args` are more flags (e.g. --grep). */
export async function runAgainst(opts: KeycloakOptions, { withApi = false, args = [] as string[] } = {}): Promise<Outcome> {
  const kc = await startKeycloak(opts);
  const dir = mkdtempSync(join(tmpdir(), 'pis-kc-'));
  try {
    const config = join(dir, 'target.yaml');
    writeFileSync(config, `auth-url: ${kc.authUrl}\nrealm: ${REALM}\nclient-id: ${CLIENT_ID}\npaths:\n  token: ${TOKEN_PATH}\n`
      + (withApi ? `base-url: ${kc.authUrl}/api\n` : ''));
    const report = join(dir, 'report');
    // Without an API the checks that need it do not run: the run is incomplete by design here.
    const cli = await runCli(['run', '--suites', 'token', '--config', config, '--time-scale', String(opts.timeScale), '--workers', '1', '--report', report,
      ...(withApi ? [] : ['--allow-incomplete']), ...args],
      { env: { PIS_CLIENT_SECRET: CLIENT_SECRET, PIS_BASE_URL: '' }, timeoutMs: 120_000 });
    const out = `${cli.stdout}\n${cli.stderr}`;
    let results: RunResults;
    try { results = JSON.parse(readFileSync(join(report, 'results.json'), 'utf8')) as RunResults; } catch { assert.fail(`no results.json:\n${out}`); }
    const reportText = readdirSync(report).map(f => readFileSync(join(report, f), 'utf8')).join('\n');
    return { cli, results, out, issued: kc.issued.slice(), reportText };
  } finally {
    await kc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function byId(r: RunResults, id: string): CheckResult {
  const c = r.checks.find(x => x.id === id);
  assert.ok(c, `check ${id} did not run`);
  return c;
}

export const failedIds = (r: RunResults) => r.checks.filter(c => c.status === 'failed').map(c => c.id).sort();
