// `run` against the reference's whole catalog (issue 4), in one pool so that
// no more than three runs load the machine at once:
// - the clean reference and each quirk (behaviour the spec allows that a
//   careless suite would flag): conformant, no failed check at all;
// - each token, session, data and payments fault: caught by a check of the
//   fault's level under its prefix, and nothing outside the prefix fails; a
//   `should` fault leaves the run conformant with a warning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FAULTS, QUIRKS } from '../../harness/reference/catalog.ts';
import { cleanup, failed, runReference } from './runs.ts';

const OURS = /^(token|session|data|payments)\./;

describe('run against the reference catalog', { concurrency: 3 }, () => {
  for (const names of [[], ...QUIRKS.map(q => [q.name])]) {
    it(names.length ? `quirk ${names[0]} passes` : 'the clean reference passes', async () => {
      const run = await runReference(names);
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.equal(run.cli.code, 0, out);
        assert.ok(run.results?.summary.conformant, out);
        assert.deepEqual(failed(run.results), [], out);
        assert.ok(run.results!.checks.length >= 60, `only ${run.results!.checks.length} checks ran`);
      } finally { cleanup(run); }
    });
  }

  for (const fault of FAULTS.filter(f => OURS.test(f.prefix + '.'))) {
    it(`fault ${fault.name} fails ${fault.prefix} and nothing else`, async () => {
      const run = await runReference([fault.name]);
      try {
        const out = `${run.cli.stdout}\n${run.cli.stderr}`;
        assert.ok(run.results, `no results.json:\n${out}`);
        const fails = failed(run.results);
        const outside = fails.filter(f => !f.id.startsWith(fault.prefix + '.'));
        assert.deepEqual(outside, [], `checks outside ${fault.prefix} failed:\n${out}`);
        const caught = fails.filter(f => f.id.startsWith(fault.prefix + '.') && f.level === fault.level);
        assert.ok(caught.length > 0, `no ${fault.level} check under ${fault.prefix} failed:\n${out}`);
        assert.equal(run.cli.code, fault.level === 'must' ? 1 : 0, out);
        assert.equal(run.results.summary.conformant, fault.level !== 'must');
      } finally { cleanup(run); }
    });
  }
});
