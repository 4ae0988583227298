// `run` (token, session, data and payments suites) against the reference's
// catalog, in one pool so that no more than three runs load the machine at once:
// - the clean reference: conformant, no failed check; it also records which
//   catalog names the token endpoint and the API ever asked about;
// - each quirk those suites can meet: no failed check at all;
// - each fault of contracts/proofs.yaml with a prefix of these suites: every
//   check the proof names fails, at least one at the fault's level, and
//   nothing outside the fault's prefix fails.
// A catalog name the clean run never asked about cannot change an answer these
// suites get (the reference only behaves differently where it asks), and no
// checkout was created, so the dispatcher never ran: such a quirk needs no run
// here (the webhook tests of test/sink/ judge it), and such a fault would be
// one these suites cannot catch, which fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FAULTS, QUIRKS } from '../../harness/reference/catalog.ts';
import { startReference } from '../../harness/reference/index.ts';
import { loadProofs } from '../../harness/requirements/load.ts';
import { cleanup, failed, runReference, runTarget, SUITES } from './runs.ts';

const PROOFS = loadProofs().faults;
const API_FAULTS = FAULTS.filter(f => !f.prefix.startsWith('webhook.'));

/** The clean run, once: its results and the catalog names the reference was asked about. */
const clean = (async () => {
  const ref = await startReference({ timeScale: 0.001 });
  try {
    const run = await runTarget(ref);
    return { run, read: new Set(ref.faultsRead()), checkouts: ref.events().length };
  } finally { await ref.close(); }
})();

describe('run against the reference catalog', { concurrency: 3 }, () => {
  it('the clean reference passes, and the API suites meet every fault of theirs and no webhook fault', async () => {
    const { run, read, checkouts } = await clean;
    try {
      const out = `${run.cli.stdout}\n${run.cli.stderr}`;
      assert.equal(run.cli.code, 0, out);
      assert.deepEqual(failed(run.results), [], out);
      assert.ok(run.results!.checks.length >= 60, `only ${run.results!.checks.length} checks ran`);
      assert.equal(checkouts, 0, `the ${SUITES} suites created checkouts, so the dispatcher ran`);
      assert.deepEqual(API_FAULTS.filter(f => !read.has(f.name)).map(f => f.name), [], 'faults these suites never reach: no run could show them caught');
      assert.deepEqual(FAULTS.filter(f => f.prefix.startsWith('webhook.') && read.has(f.name)).map(f => f.name), [],
        'webhook faults that change what the API suites see: give them a prefix of the check that catches them there');
    } finally { cleanup(run); }
  });

  for (const q of QUIRKS) {
    it(`quirk ${q.name} passes`, async t => {
      const { read } = await clean;
      if (!read.has(q.name)) {
        // Not a skip: the clean run shows these suites get the same answers with the quirk on.
        t.diagnostic(`the ${SUITES} suites never meet ${q.name} (the clean run never asked about it); test/sink judges it`);
        return;
      }
      const run = await runReference([q.name]);
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.equal(run.cli.code, 0, out);
        assert.deepEqual(failed(run.results), [], out);
      } finally { cleanup(run); }
    });
  }

  for (const fault of API_FAULTS) {
    const proof = PROOFS[fault.name];
    it(`fault ${fault.name} fails ${proof?.fails.join(', ') ?? fault.prefix} and nothing outside ${fault.prefix}`, async () => {
      assert.ok(proof, `fault ${fault.name} has no entry under faults in contracts/proofs.yaml`);
      const run = await runReference([fault.name]);
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.ok(run.results, `no results.json:\n${out}`);
        const fails = failed(run.results);
        assert.deepEqual(fails.filter(f => !f.id.startsWith(fault.prefix + '.')), [], `checks outside ${fault.prefix} failed:\n${out}`);
        assert.deepEqual(proof.fails.filter(id => !fails.some(f => f.id === id)), [], `named in proofs.yaml, did not fail (a stale proof):\n${out}`);
        assert.ok(fails.some(f => f.level === fault.level), `no ${fault.level} check under ${fault.prefix} failed:\n${out}`);
        assert.equal(run.cli.code, fault.level === 'must' ? 1 : 0, out);
      } finally { cleanup(run); }
    });
  }
});
