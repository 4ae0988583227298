// Every token, session, data and payments fault of the reference's catalog is
// caught by a check under the fault's prefix, and by nothing outside it
// (issue 4, "a table-driven test over the fault catalog"); a `should` fault
// leaves the run conformant with a warning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FAULTS } from '../../harness/reference/catalog.ts';
import { cleanup, failed, runReference } from './runs.ts';

const OURS = /^(token|session|data|payments)\./;

describe('run against each fault of the catalog', { concurrency: 4 }, () => {
  for (const fault of FAULTS.filter(f => OURS.test(f.prefix + '.'))) {
    it(`${fault.name} fails ${fault.prefix} and nothing else`, async () => {
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
