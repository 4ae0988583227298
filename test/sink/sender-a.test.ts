// The first half of the sender cases of sender-cases.ts.
import { test } from 'node:test';
import { CASES, senderCase } from './sender-cases.ts';

test('webhook checks against right and wrong senders (first half)', { concurrency: true }, async t => {
  await Promise.all(CASES.filter((_, i) => i % 2 === 0).map(c => senderCase(t, c)));
});
