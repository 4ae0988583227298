// A case whose timing the sink's lateness blurred runs again: at a whole check
// ("could not be judged") and at one place of it (the sink's own lateness named).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeable } from './stall.ts';

const PLACE_BLURRED = "exercised 4 of 6 event-positions; not at normal first: the sender gave up after 4.20 s: with the sink's own lateness " +
  'around the attempt (0.58 s, measured) and a head start of up to 0.00 s (the sender\'s quickest turnaround) it waited between 3.61 s and ' +
  '4.78 s, on both sides of 4.00 s';

for (const message of ['2 of 2 hang-ups could not be judged: the sink itself ran up to 0.60 s late around them (measured lag)', PLACE_BLURRED]) {
  test(`a run judged again when the sink was late: ${message.slice(0, 60)}…`, async () => {
    const runs = [{ checks: [{ status: 'skipped', message }] }, { checks: [{ status: 'passed' }] }];
    let made = 0;
    const { result, blurred } = await judgeable(async () => runs[made++]!, 10_000, r => r.checks.every(c => c.status === 'passed'));
    assert.equal(made, 2);
    assert.equal(result.checks[0]!.status, 'passed');
    assert.equal(blurred, '');
  });
}

test('a run whose skip is not the sink\'s lateness is not made again', async () => {
  let made = 0;
  const { result } = await judgeable(async () => { made++; return { checks: [{ status: 'skipped', message: 'no batch checkout was created' }] }; },
    10_000, r => r.checks.every(c => c.status === 'passed'));
  assert.equal(made, 1);
  assert.equal(result.checks[0]!.status, 'skipped');
});
