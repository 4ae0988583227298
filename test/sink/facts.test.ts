// The facts the sink takes from a whole body travel with the recorded attempt
// as a field of their own: a copy keeps them (they used to sit in a map keyed
// by the object, which a copy silently lost, and the analysis then read the
// kept prefix of the body instead), and the report's records never carry them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRun } from '../../harness/sink/checks/index.ts';
import { readBody, type RecordedAttempt } from '../../harness/sink/checks/facts.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';

const KEY = 'facts-key-1';

function recorded(): RecordedAttempt {
  const whole = JSON.stringify(buildWebhookBody({ kind: 'normal', id: 'c-1', status: 'PAYMENT_CREATED', createdDate: '2026-11-22T10:00:00.000Z' }));
  return {
    seq: 1, checkoutId: 'c-1', arrivedMs: 1_000, headers: { 'api-key': '[redacted]' }, apiKeyCheck: { verdict: 'registered' },
    // The sink keeps a prefix of a long body: not JSON on its own.
    body: whole.slice(0, 40), probe: 'ok', answer: 200, answeredMs: 1_010, facts: readBody(whole),
  };
}

test('a copy of a recorded attempt is judged by the facts of its whole body, and the report record has no facts', () => {
  const copy = { ...recorded() };
  const { deliveries } = analyzeRun([copy], new Map(), { timeScale: 1, apiKey: KEY, observedUntilMs: 10_000 });
  assert.equal(deliveries.length, 1);
  assert.equal(deliveries[0]!.bodyStatus, 'PAYMENT_CREATED', 'the status read from the facts, not from the kept prefix');
  assert.equal('facts' in deliveries[0]!, false, 'the report keeps the record only');
  // Without the facts (a hand-made record of the same prefix) the body is unreadable: the field is what made the difference.
  const { facts: _facts, ...bare } = recorded();
  const { deliveries: unread } = analyzeRun([bare], new Map(), { timeScale: 1, apiKey: KEY, observedUntilMs: 10_000 });
  assert.notEqual(unread[0]!.bodyStatus, 'PAYMENT_CREATED');
});
