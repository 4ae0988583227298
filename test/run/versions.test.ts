// `run --api-version V` against the reference at V, for every version before
// the latest (the catalog test's clean runs are the latest's): one clean run
// of the four API suites per version, each on a reference of its own that
// records the catalog names it was asked about. Two versions whose checks and
// whose reference features are the same (3.0.0 and 3.0.1 differ only in
// x-psu-id, which no check can see) are served and judged alike, so one run
// stands for both. Then the faults whose proofs in contracts/proofs.yaml list
// older versions run at each of them with the bundled reference at that
// version, together in one run (the checks each proof names fail, and nothing
// else), except a consent-link fault: it stops every consent, so the checks
// other proofs name could not run beside it, and it runs alone. At most three
// runs load the machine at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { API_VERSIONS, LATEST_API_VERSION, type ApiVersion } from '../../harness/contracts/api-versions.ts';
import { FAULTS } from '../../harness/reference/catalog.ts';
import { featuresAt } from '../../harness/reference/api/versions.ts';
import { loadProofs } from '../../harness/requirements/load.ts';
import { checkExistsAt, requirementWindows, existsAt } from '../../harness/requirements/versions.ts';
import { CATALOG } from '../../suites/catalog/index.ts';
import { runCli } from '../helpers/cli.ts';
import { againForLoad, cleanup, failed, runReference, runTarget, startLikeBundled, SUITES, type Run } from './runs.ts';

const OLDER = API_VERSIONS.filter(v => v !== LATEST_API_VERSION);
const API_SUITES = SUITES.split(',');
const apiChecksAt = (v: ApiVersion) => CATALOG.filter(c => API_SUITES.includes(c.suite) && checkExistsAt(c, v)).map(c => c.id).sort();

/** The oldest version that is judged and served as `v` is: its clean run stands for v's. */
const sameAs = (v: ApiVersion): ApiVersion => {
  const key = (x: ApiVersion) => JSON.stringify([apiChecksAt(x), featuresAt(x)]);
  return OLDER.find(x => key(x) === key(v))!;
};

interface VersionFault { name: string; prefix: string; version: ApiVersion; expected: string[] }
const VERSION_FAULTS: VersionFault[] = Object.entries(loadProofs().faults).flatMap(([name, p]) => (p.versions ?? []).map(v => {
  const version = v as ApiVersion;
  const prefix = FAULTS.find(f => f.name === name)?.prefix ?? '(not in the catalog)';
  return { name, prefix, version, expected: p.fails.filter(id => CATALOG.some(c => c.id === id && checkExistsAt(c, version))) };
}));
/** The runs of the version faults: per version, the consent-link ones alone, the rest together. */
const FAULT_RUNS: VersionFault[][] = OLDER.flatMap(v => {
  const here = VERSION_FAULTS.filter(f => f.version === v);
  const alone = here.filter(f => f.prefix.startsWith('session.consent-link'));
  const together = here.filter(f => !alone.includes(f));
  return [...(together.length ? [together] : []), ...alone.map(f => [f])];
});

/** Runs `job` when fewer than three jobs of this file are running. */
const queue: (() => void)[] = [];
let running = 0;
async function pooled<T>(job: () => Promise<T>): Promise<T> {
  if (running >= 3) await new Promise<void>(resolve => queue.push(resolve));
  running++;
  try { return await job(); } finally { running--; queue.shift()?.(); }
}

interface CleanRun { run: Run; read: Set<string> }
const cleanRuns = new Map<ApiVersion, Promise<CleanRun>>();
function clean(v: ApiVersion): Promise<CleanRun> {
  let p = cleanRuns.get(v);
  if (!p) {
    p = pooled(async () => {
      const ref = await startLikeBundled(v);
      try { return { run: await runTarget(ref, SUITES, ['--api-version', v]), read: new Set(ref.faultsRead()) }; }
      finally { await ref.close(); }
    });
    cleanRuns.set(v, p);
  }
  return p;
}

describe('run --api-version against the reference at that version', { concurrency: 4 }, () => {
  for (const v of OLDER.filter(x => sameAs(x) === x)) {
    const alike = OLDER.filter(x => x !== v && sameAs(x) === v);
    const standing = alike.length ? ` (standing for ${alike.join(', ')})` : '';
    it(`the suites at ${v}${standing} pass the reference at ${v}, and leave out the later checks naming the version`, async t => {
      const { run, busy } = await againForLoad((await clean(v)).run, () => pooled(async () => {
        const ref = await startLikeBundled(v);
        try { return await runTarget(ref, SUITES, ['--api-version', v]); } finally { await ref.close(); }
      }), s => t.diagnostic(s));
      if (busy) { t.skip(busy); return; }
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.equal(run.cli.code, 0, out);
        const r = run.results!;
        assert.deepEqual(failed(r), [], out);
        assert.equal(r.selection?.apiVersion, v);
        const expected = apiChecksAt(v);
        assert.deepEqual(r.checks.map(c => c.id).sort(), expected, 'the checks run are those of the version');
        const windows = requirementWindows();
        for (const c of r.checks)
          for (const id of c.requirements ?? []) assert.ok(existsAt(windows.get(id)!, v), `${c.id} names ${id}, which is not at ${v}`);
        const later = (r.notSelected ?? []).filter(c => API_SUITES.includes(c.suite));
        assert.equal(later.length, CATALOG.filter(c => API_SUITES.includes(c.suite)).length - expected.length);
        const reason = new RegExp(`--api-version ${v.replace(/\./g, '\\.')}: the check (appeared in|removed after) `);
        for (const c of later) assert.match(c.message ?? '', reason, c.id);
        assert.match(run.cli.stdout, new RegExp(`API version ${v.replace(/\./g, '\\.')}`));
      } finally { cleanup(run); }
    });
  }

  for (const group of FAULT_RUNS) {
    const v = group[0]!.version;
    const names = group.map(f => f.name);
    it(`${group.length > 1 ? 'faults' : 'fault'} ${names.join(', ')} at ${v} fail exactly the checks of their proofs that exist there`, async () => {
      for (const f of group) {
        assert.ok(FAULTS.some(x => x.name === f.name), `${f.name} is not a fault of the catalog`);
        assert.ok(f.expected.length, `no check of the proof of ${f.name} exists at ${v}: leave the version out of its proof`);
        assert.ok((await clean(sameAs(v))).read.has(f.name), `the suites at ${v} never ask about ${f.name}, so no run can show it caught`);
      }
      const run = await pooled(() => runReference(names, ['--api-version', v]));
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.ok(run.results, `no results.json:\n${out}`);
        assert.deepEqual(failed(run.results).map(x => x.id).sort(), [...new Set(group.flatMap(f => f.expected))].sort(), out);
        assert.equal(run.cli.code, 1, out);
      } finally { cleanup(run); }
    });
  }

  it('a fault of an operation the version does not have is refused, naming the version it needs', async () => {
    const r = await runCli(['run', '--api-version', '1.0.2', '--fault', 'renamed-consent-status', '--suites', 'session']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /applies from API version 2\.0\.0.*--api-version 2\.0\.0 or later/);
  });

  it('--list at a version lists only its checks; a version that does not exist is refused with the list', async () => {
    const list = await runCli(['run', '--list', '--api-version', '1.0.2', '--suites', 'session,payments', '--reporter', 'json']);
    assert.equal(list.code, 0, list.stderr);
    const ids = CATALOG.filter(c => ['session', 'payments'].includes(c.suite) && checkExistsAt(c, '1.0.2')).map(c => c.id);
    for (const id of ids) assert.ok(list.stdout.includes(id), id);
    assert.ok(!list.stdout.includes('session.lifecycle.create'), 'a 3.0.0 check was listed at 1.0.2');
    const bad = await runCli(['run', '--list', '--api-version', '2.1.0']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /'2\.1\.0' is not an API version.*1\.0\.0, .*3\.2\.0, or detect/);
  });
});
