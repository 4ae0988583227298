// The first half of the reference's webhook faults: each fails the checks contracts/proofs.yaml names, nothing outside its prefix.
import { test } from 'node:test';
import { WEBHOOK_FAULTS, faultCase, judgeAll } from './reference-cases.ts';

test('webhook faults of the reference (first half)', { concurrency: true }, async t => {
  await judgeAll(t, WEBHOOK_FAULTS.filter((_, i) => i % 2 === 0).map(f => faultCase(f)));
});
