// The mutations of contracts/proofs.yaml (test/suites/mutations.ts, their runs in mutation-runs.ts), each run
// through a pass-through in front of a clean reference of its own, planned and judged as `run` does but several
// in one Playwright invocation (test/run/batch.ts): the checks that fail in each run are exactly the ones its
// mutations name.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadProofs } from '../../harness/requirements/load.ts';
import { startProxy } from '../helpers/proxy.ts';
import { startReference } from '../../harness/reference/index.ts';
import { entryFromArgs, runBatches, type BatchEntry } from '../run/batch.ts';
import { cleanup, type Run } from '../run/runs.ts';
import { MUTATIONS } from './mutations.ts';
import { BANKS, RUNS, type MutationRun, type RunName } from './mutation-runs.ts';

const PROOFS = loadProofs().mutations;

it('every mutation of proofs.yaml is defined, and every defined mutation is in proofs.yaml', () => {
  assert.deepEqual(Object.keys(PROOFS).filter(n => !MUTATIONS[n]), [], 'named in contracts/proofs.yaml, missing from test/suites/mutations.ts');
  assert.deepEqual(Object.keys(MUTATIONS).filter(n => !PROOFS[n]), [], 'in test/suites/mutations.ts, not named in contracts/proofs.yaml');
});

/** A reference of its own per run, the run's mutations in a pass-through in front of it, as runThroughProxy makes them. */
const TIME_SCALE = 0.05;
const targets: { close(): Promise<void> }[] = [];
const batched: Promise<Map<string, Promise<Run>>> = (async () => {
  const entries: BatchEntry[] = [];
  for (const run of Object.keys(RUNS) as RunName[]) {
    const names = Object.keys(MUTATIONS).filter(n => MUTATIONS[n]!.run === run && PROOFS[n]);
    if (!names.length) continue;
    const ref = await startReference({ timeScale: TIME_SCALE });
    const proxy = await startProxy(ref.authUrl, names.map(n => MUTATIONS[n]!));
    targets.push(proxy, ref);
    const { suites, grep, args } = RUNS[run] as MutationRun;
    entries.push(entryFromArgs(run, ['--auth-url', proxy.url, '--base-url', `${proxy.url}/api`, '--client-id', ref.clientId, '--realm', ref.realm,
      '--time-scale', String(TIME_SCALE), '--suites', suites, '--banks', BANKS, ...(grep ? ['--grep', grep] : []), ...(args ?? [])], ref.clientSecret));
  }
  // Three runs side by side, one worker each (test/run/runs.ts says why), in invocations of up to 12 (test/run/batch.ts).
  return runBatches(entries, { workers: 1, perBatch: 12, atOnce: 3 });
})();
batched.catch(() => {});
after(async () => { for (const t of targets) await t.close(); });

describe('mutations: each run fails exactly the checks its mutations name', { concurrency: 3 }, () => {
  for (const run of Object.keys(RUNS) as RunName[]) {
    const names = Object.keys(MUTATIONS).filter(n => MUTATIONS[n]!.run === run && PROOFS[n]);
    if (!names.length) continue;
    it(`${run}: ${names.join(', ')}`, async () => {
      const made = await (await batched).get(run)!;
      cleanup(made);
      const { cli, results } = made;
      const out = `${cli.stdout}\n${cli.stderr}`;
      assert.ok(results, `no results.json:\n${out}`);
      const expected = [...new Set(names.flatMap(n => PROOFS[n]!.fails))].sort();
      const ids = results.checks.filter(c => c.status === 'failed').map(c => c.id).sort();
      const why = (id: string) => { const c = results.checks.find(x => x.id === id); return `${id} ${c ? `${c.status}: ${c.message}` : 'did not run'}`; };
      assert.deepEqual(ids, expected, [
        `failed, but no mutation of the run names it:\n${ids.filter(id => !expected.includes(id)).map(why).join('\n')}`,
        `named, but did not fail:\n${expected.filter(id => !ids.includes(id)).map(why).join('\n')}`, out].join('\n'));
      assert.notEqual(cli.code, 2, `the run could not be made:\n${out}`);
    });
  }
});
