// The first half of the reference's webhook faults: each fails its prefix, nothing else.
import { test } from 'node:test';
import { WEBHOOK_FAULTS, faultCase } from './reference-cases.ts';

test('webhook faults of the reference (first half)', { concurrency: true }, async t => {
  await Promise.all(WEBHOOK_FAULTS.filter((_, i) => i % 2 === 0).map(f => faultCase(t, f)));
});
