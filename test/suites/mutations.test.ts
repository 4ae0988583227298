// The mutations of contracts/proofs.yaml (test/suites/mutations.ts, their runs in mutation-runs.ts), run by
// `run` through a pass-through in front of the clean reference: the checks
// that fail in each run are exactly the ones its mutations name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadProofs } from '../../harness/requirements/load.ts';
import { runThroughProxy } from '../helpers/proxy.ts';
import { MUTATIONS } from './mutations.ts';
import { BANKS, RUNS, type MutationRun, type RunName } from './mutation-runs.ts';

const PROOFS = loadProofs().mutations;

it('every mutation of proofs.yaml is defined, and every defined mutation is in proofs.yaml', () => {
  assert.deepEqual(Object.keys(PROOFS).filter(n => !MUTATIONS[n]), [], 'named in contracts/proofs.yaml, missing from test/suites/mutations.ts');
  assert.deepEqual(Object.keys(MUTATIONS).filter(n => !PROOFS[n]), [], 'in test/suites/mutations.ts, not named in contracts/proofs.yaml');
});

describe('mutations: each run fails exactly the checks its mutations name', { concurrency: 3 }, () => {
  for (const run of Object.keys(RUNS) as RunName[]) {
    const names = Object.keys(MUTATIONS).filter(n => MUTATIONS[n]!.run === run && PROOFS[n]);
    if (!names.length) continue;
    it(`${run}: ${names.join(', ')}`, async () => {
      const { suites, grep, args } = RUNS[run] as MutationRun;
      const { cli, results } = await runThroughProxy(names.map(n => MUTATIONS[n]!),
        // One worker, as test/run/runs.ts says why.
        ['--suites', suites, '--banks', BANKS, '--workers', '1', ...(grep ? ['--grep', grep] : []), ...(args ?? [])]);
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
