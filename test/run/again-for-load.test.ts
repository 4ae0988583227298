// A run that should end Conformant but fell short only by checks it left not
// run for the machine's load is made again, up to twice (test/run/runs.ts,
// againForLoad); one that failed a check, or left one not run for another
// reason, is asserted on as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { againForLoad, type Run } from './runs.ts';

const LOAD = { id: 'session.lifecycle.consent', level: 'must', status: 'skipped', message: 'the consent of dnb-no may have expired meanwhile',
  remedy: 'run with a larger --time-scale, or on a less busy machine, so that the calls end well within the consent lifetime' };
const PASSED = { id: 'data.banks.list', level: 'must', status: 'passed' };

/** A run with these checks, exiting 0 when every must check passed (Incomplete or Not conformant: 1). */
function run(...checks: object[]): Run {
  const code = checks.every(c => (c as { status: string }).status === 'passed') ? 0 : 1;
  return { cli: { code, stdout: '', stderr: '' }, results: { checks } as unknown as RunResults, dir: mkdtempSync(join(tmpdir(), 'pis-again-')) };
}

test('short only for the load: made again until it passes, or skipped with the checks after three tries', async () => {
  const notes: string[] = [];
  let made = 0;
  const passes = await againForLoad(run(PASSED, LOAD), async () => (++made === 1 ? run(PASSED, LOAD) : run(PASSED)), s => notes.push(s));
  assert.deepEqual([made, passes.busy, passes.run.cli.code], [2, undefined, 0]);
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /^run again \(1\): session\.lifecycle\.consent not run: the consent of dnb-no may have expired/);
  made = 0;
  const busy = await againForLoad(run(PASSED, LOAD), async () => { made++; return run(PASSED, LOAD); }, () => {});
  assert.equal(made, 2);
  assert.match(busy.busy ?? '', /^the machine was too busy to judge the run in three tries: session\.lifecycle\.consent not run/);
});

test('a failure, or a check not run for another reason, is not made again', async () => {
  for (const other of [{ ...PASSED, id: 'data.banks.get', status: 'failed' }, { ...LOAD, message: 'no bank offers payments', remedy: undefined }]) {
    let made = 0;
    const r = await againForLoad(run(PASSED, LOAD, other), async () => { made++; return run(PASSED); }, () => {});
    assert.deepEqual([made, r.busy, r.run.cli.code], [0, undefined, 1], other.id);
  }
});
