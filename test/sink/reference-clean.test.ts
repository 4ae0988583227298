// The clean reference and every webhook quirk: every webhook check passes, and
// the reference's own attempt log equals what the sink recorded.
import { test } from 'node:test';
import { cleanCase, judgeAll } from './reference-cases.ts';

test('webhook checks pass against the clean reference and its quirks', { concurrency: true }, async t => {
  await judgeAll(t, ['', 'webhook-jitter', 'webhook-duplicates', 'extra-fields', 'control-forbidden-legal', 'control-first-fields',
    'webhook-long-backoff', 'webhook-backoff-gentle', 'webhook-decorrelated-jitter', 'webhook-backoff-from-start', 'webhook-decimal-amount',
    'webhook-omits-nulls'].map(q => cleanCase(q)));
});
