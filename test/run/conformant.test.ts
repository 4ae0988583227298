// The clean reference and the reference with each quirk (behaviour the spec
// allows that a careless suite would flag) are conformant, with no failed
// check at all: a quirk must not even raise a warning.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QUIRKS } from '../../harness/reference/catalog.ts';
import { cleanup, failed, runReference } from './runs.ts';

describe('run against the clean reference and each quirk', { concurrency: 4 }, () => {
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
});
