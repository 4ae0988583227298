// The second half of the reference's webhook faults: each fails its prefix, nothing else.
import { test } from 'node:test';
import { WEBHOOK_FAULTS, faultCase } from './reference-cases.ts';

test('webhook faults of the reference (second half)', { concurrency: true }, async t => {
  await Promise.all(WEBHOOK_FAULTS.filter((_, i) => i % 2 === 1).map(f => faultCase(t, f)));
});
