// `run` (token, session, data and payments suites) against the reference's
// catalog, in one pool so that no more than three runs load the machine at once.
//
// First the clean reference, one suite per run: every check passes, and the
// reference records every catalog name the token endpoint and the API asked
// about while serving that suite. The reference behaves differently only
// where it asks, so a suite that never asked about a name gets the same
// answers with it switched on: its clean run stands for its run with that
// fault or quirk. (No checkout is created, so the dispatcher, which reads the
// webhook names, never runs.) Then each catalog entry runs with exactly the
// suites that asked about it:
// - each quirk: no failed check at all (a quirk no suite asked about needs no
//   run here; test/sink judges the webhook ones); a quirk run with the
//   description its catalog entry names (`config`) fails no must or should
//   check, and only profile checks of the profile's own shapes may fail;
// - each fault of contracts/proofs.yaml with a prefix of these suites: every
//   check the proof names fails, at least one at the fault's level, and
//   nothing outside the fault's prefix fails. A fault its own suite never asks
//   about could never be caught: that fails.
// Suites are independent (each makes its own tokens and sessions), so a suite
// run alone is judged as it is in a run of all four. Entries do not share a
// run, though, not even entries whose suites are disjoint: a fault acts on the
// reference's state, which every suite of the run shares (with
// session-delete-ends-bank on beside a payments fault, the session suite's
// DELETE ended the payments suite's session at dnb-no, and a payments check
// failed for it).
// So each entry runs on a reference of its own, as `run --fault NAME` would
// start it, but several entries share one Playwright invocation and its
// worker (test/run/batch.ts: a describe block per entry), which saves the
// runner's and the worker's start for all but one of them (about 2 CPU s per
// entry). A batch's part is held equal to
// `run`'s own runs: the clean reference's four suites in a batch pass and skip
// exactly the checks the four clean `run`s above did. An entry with a
// description of its own (`config`) runs through `run --config` as before.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FAULTS, QUIRKS } from '../../harness/reference/catalog.ts';
import { loadProofs } from '../../harness/requirements/load.ts';
import { againForLoad, cleanup, failed, runReference, runTarget, startLikeBundled, SUITES, TIME_SCALE, type Run } from './runs.ts';
import { runBatches, type BatchEntry } from './batch.ts';

const PROOFS = loadProofs().faults;
const API_SUITES = SUITES.split(',');
const API_FAULTS = FAULTS.filter(f => API_SUITES.includes(f.prefix.split('.')[0]!));

interface CleanRun { run: Run; read: Set<string>; checkouts: number }

/** The clean reference, one run per suite, each on a reference of its own that records what it was asked. */
const clean: Record<string, Promise<CleanRun>> = Object.fromEntries(API_SUITES.map(suite => [suite, (async () => {
  // The same reference `run --fault` bundles, so that what this one is asked stands for those runs.
  const ref = await startLikeBundled();
  try {
    const run = await runTarget(ref, suite);
    return { run, read: new Set(ref.faultsRead()), checkouts: ref.events().length };
  } finally { await ref.close(); }
})()]));

/** The suites whose clean run asked about `name`. */
async function suitesMeeting(name: string): Promise<string[]> {
  const out: string[] = [];
  for (const suite of API_SUITES) if ((await clean[suite]!).read.has(name)) out.push(suite);
  return out;
}

/** Every entry that runs in a batch: the clean reference's four suites, each quirk and fault with the suites that ask about it. */
const batched: Promise<Map<string, Promise<Run>>> = (async () => {
  const entries: BatchEntry[] = [{ name: 'clean', faults: [], suites: API_SUITES }];
  for (const e of [...QUIRKS.filter(q => !q.config), ...API_FAULTS]) {
    const suites = await suitesMeeting(e.name);
    if (suites.length) entries.push({ name: e.name, faults: [e.name], suites });
  }
  // Three invocations at once, each with one worker: three catalog entries run side by side, as three `run`s did.
  return runBatches(entries, { timeScale: Number(TIME_SCALE), workers: 1, perBatch: 12, atOnce: 3 });
})();

// Awaited by the tests below; marked handled here so that a failure before the first of them waits for it.
batched.catch(() => {});

/** The entry's run in its batch. */
async function partRun(name: string): Promise<Run> {
  const run = (await batched).get(name);
  assert.ok(run, `${name} is in no batch`);
  return run;
}

describe('run against the reference catalog', { concurrency: 3 }, () => {
  for (const suite of API_SUITES) {
    it(`the clean reference passes the ${suite} suite`, async t => {
      const first = await clean[suite]!;
      const { run, busy } = await againForLoad(first.run, async () => {
        const ref = await startLikeBundled();
        try { return await runTarget(ref, suite); } finally { await ref.close(); }
      }, s => t.diagnostic(s));
      if (busy) { t.skip(busy); return; }
      const { checkouts } = first;
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.equal(run.cli.code, 0, out);
        assert.deepEqual(failed(run.results), [], out);
        assert.ok(run.results!.checks.length >= 8, `only ${run.results!.checks.length} checks ran`);
        assert.equal(checkouts, 0, `the ${suite} suite created checkouts, so the dispatcher ran and its reads were not recorded`);
      } finally { cleanup(run); }
    });
  }

  it('a part of a batch runs as run does: the clean reference passes and skips the checks the four clean runs did', async () => {
    const run = await partRun('clean');
    try {
      const out = `${run.cli.stdout}\n${run.cli.stderr}`;
      assert.equal(run.cli.code, 0, out);
      const ofRuns = (await Promise.all(API_SUITES.map(s => clean[s]!))).flatMap(c => c.run.results?.checks ?? []);
      const statuses = (checks: { id: string; status: string }[]) => checks.map(c => `${c.id} ${c.status}`).sort();
      assert.deepEqual(statuses(run.results?.checks ?? []), statuses(ofRuns));
    } finally { cleanup(run); }
  });

  it('no API suite meets a webhook fault', async () => {
    for (const f of FAULTS.filter(x => !API_FAULTS.includes(x)))
      assert.deepEqual(await suitesMeeting(f.name), [], `${f.name} changes what these suites see: give it the prefix of the check that catches it there`);
  });

  for (const q of QUIRKS) {
    it(`quirk ${q.name} passes`, async t => {
      const suites = await suitesMeeting(q.name);
      if (!suites.length) {
        // Not a skip: every clean suite run stands for its run with the quirk.
        t.diagnostic(`no suite of ${SUITES} asks about ${q.name}: their clean runs stand for it (test/sink judges it)`);
        return;
      }
      const alone = () => runReference([q.name], q.config ? ['--config', q.config] : [], suites.join(','));
      // Short of Conformant only for the machine's load (the quirk bank-without-domestic ended Incomplete in a clean-clone
      // CI run): run again, alone.
      const { run, busy } = await againForLoad(q.config ? await alone() : await partRun(q.name), alone, s => t.diagnostic(s));
      if (busy) { t.skip(busy); return; }
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.equal(run.cli.code, 0, out);
        // A quirk run with its description: the profile checks judge docs/profile.md's own shapes, which the description replaces.
        assert.deepEqual(failed(run.results).filter(f => !q.config || f.level !== 'profile'), [], out);
      } finally { cleanup(run); }
    });
  }

  for (const fault of API_FAULTS) {
    const proof = PROOFS[fault.name];
    it(`fault ${fault.name} fails ${proof?.fails.join(', ') ?? fault.prefix} and nothing outside ${fault.prefix}`, async t => {
      assert.ok(proof, `fault ${fault.name} has no entry under faults in contracts/proofs.yaml`);
      const suites = await suitesMeeting(fault.name);
      const own = fault.prefix.split('.')[0]!;
      assert.ok(suites.includes(own), `the ${own} suite never asks about ${fault.name}, so no run can show it caught`);
      t.diagnostic(`suites that ask about it: ${suites.join(', ')}; the clean runs stand for the others`);
      let run = await partRun(fault.name);
      // A named check that was not run (a token or consent that ran out under its own calls on a busy machine, at this
      // time scale) could not show the proof: the fault runs once more, alone, where the proof must hold in full.
      const notRun = (r: Run) => proof.fails.filter(id => r.results?.checks.find(c => c.id === id)?.status === 'skipped');
      if (run.results && notRun(run).length && failed(run.results).every(f => f.id.startsWith(fault.prefix + '.'))) {
        t.diagnostic(`run again alone: ${notRun(run).join(', ')} not run in its batch: ${run.cli.stdout}`);
        cleanup(run);
        run = await runReference([fault.name], [], suites.join(','));
      }
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
