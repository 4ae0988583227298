// The mutations of contracts/proofs.yaml (test/suites/mutations.ts), run by
// `run` through a pass-through in front of the clean reference: the checks
// that fail in each run are exactly the ones its mutations name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import type { RunResults } from '../../harness/report/model.ts';
import { loadProofs } from '../../harness/requirements/load.ts';
import { runCli } from '../helpers/cli.ts';
import { MUTATIONS, RUNS, startMutationProxy, type RunName } from './mutations.ts';

const PROOFS = loadProofs().mutations;
// 0.001: a token lives 3.6 s, so token.expiry really waits it out (as the catalog runs do).
const SCALE = '0.001';

it('every mutation of proofs.yaml is defined, and every defined mutation is in proofs.yaml', () => {
  assert.deepEqual(Object.keys(PROOFS).filter(n => !MUTATIONS[n]), [], 'named in contracts/proofs.yaml, missing from test/suites/mutations.ts');
  assert.deepEqual(Object.keys(MUTATIONS).filter(n => !PROOFS[n]), [], 'in test/suites/mutations.ts, not named in contracts/proofs.yaml');
});

async function runWith(run: RunName, names: string[]): Promise<{ results: RunResults; out: string }> {
  const ref = await startReference({ timeScale: Number(SCALE) });
  const proxy = await startMutationProxy(ref.authUrl, names);
  const dir = mkdtempSync(join(tmpdir(), 'pis-mutations-'));
  try {
    const { suites, grep } = RUNS[run] as { suites: string; grep?: string };
    const r = await runCli(['run', '--auth-url', proxy.url, '--base-url', `${proxy.url}/api`, '--client-id', ref.clientId, '--realm', ref.realm,
      '--suites', suites, ...(grep ? ['--grep', grep] : []), '--time-scale', SCALE, '--workers', '2', '--report', dir],
    // Minutes, not seconds: on a loaded machine the four suites one after another were seen taking over 4 minutes.
    { env: { PIS_CLIENT_SECRET: ref.clientSecret }, timeoutMs: 600_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    let results: RunResults;
    try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { assert.fail(`no results.json:\n${out}`); }
    return { results, out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await proxy.close();
    await ref.close();
  }
}

describe('mutations: each run fails exactly the checks its mutations name', { concurrency: 3 }, () => {
  for (const run of Object.keys(RUNS) as RunName[]) {
    const names = Object.keys(MUTATIONS).filter(n => MUTATIONS[n]!.run === run && PROOFS[n]);
    if (!names.length) continue;
    it(`${run}: ${names.join(', ')}`, async () => {
      const { results, out } = await runWith(run, names);
      const expected = [...new Set(names.flatMap(n => PROOFS[n]!.fails))].sort();
      const failed = results.checks.filter(c => c.status === 'failed');
      const ids = failed.map(c => c.id);
      const why = (id: string) => { const c = results.checks.find(x => x.id === id); return `${id} ${c ? `${c.status}: ${c.message}` : 'did not run'}`; };
      assert.deepEqual(ids.sort(), expected, [
        `failed, but no mutation of the run names it:\n${ids.filter(id => !expected.includes(id)).map(why).join('\n')}`,
        `named, but did not fail:\n${expected.filter(id => !ids.includes(id)).map(why).join('\n')}`, out].join('\n'));
    });
  }
});
