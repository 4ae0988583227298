// A target whose bodies use other names than docs/profile.md (the reference's
// renamed-fields quirk): with the description that says where its values live
// the run is conformant (test/run/catalog.test.ts runs it); without it, the
// run is not judged conformant, and the failure names the description key that
// would place the value, so the target learns what to describe.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, runReference } from './runs.ts';

it('renamed-fields without its description: not conformant, and the failure names where it looked and the description key', async () => {
  const run = await runReference(['renamed-fields'], [], 'session');
  try {
    const out = `${run.cli.stdout}\n${run.cli.stderr}`;
    assert.equal(run.cli.code, 1, out);
    const failed = (run.results?.checks ?? []).filter(c => c.status === 'failed' && c.level === 'must');
    assert.ok(failed.length, out);
    for (const c of failed) assert.match(`${c.expected ?? ''}`, /at \/\S+ \(description [a-z-]+\.[a-z-]+\)/, `${c.id}: ${c.expected}`);
  } finally { cleanup(run); }
});
