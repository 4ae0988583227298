// The reference cases compare what the sink recorded with what the reference logged: an attempt lost on the
// network (never written, or a connection error) may be missing; one the sink answered may not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameAttempts } from './reference-cases.ts';
import type { SinkPlan } from '../../harness/sink/plan.ts';

const plan = new Map([['p', { control: { id: 'c1' } }]]) as unknown as SinkPlan;
const sent = (status: string, at: number, outcome = 'delivered', written = true, error?: string) =>
  ({ checkoutId: 'c1', status, sentAtMs: at, outcome: outcome as 'delivered', written, attempt: 1, ...(error ? { error } : {}) });
const got = (...statuses: string[]) => statuses.map(status => ({ checkoutId: 'c1', body: JSON.stringify({ status }) }));

test('the same attempts in the same order: nothing to say', () => {
  assert.deepEqual(sameAttempts(got('STARTED', 'PAYMENT_INITIATED'), [sent('STARTED', 1), sent('PAYMENT_INITIATED', 2)], plan), []);
});

test('an attempt closed under its request, or never written, may be missing from the sink', () => {
  const logged = [sent('STARTED', 1), sent('PAYMENT_INITIATED', 2, 'error', true, 'UND_ERR_SOCKET'), sent('PAYMENT_INITIATED', 3),
    sent('PAYMENT_COMPLETED', 4, 'timeout', false), sent('PAYMENT_COMPLETED', 5)];
  assert.deepEqual(sameAttempts(got('STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'), logged, plan), []);
});

test('an attempt the sink answered but did not record is named, with how each attempt ended', () => {
  const problems = sameAttempts(got('STARTED'), [sent('STARTED', 1), sent('PAYMENT_INITIATED', 2, 'http-500')], plan);
  assert.deepEqual(problems, ['checkout c1: the sink got STARTED, the reference sent STARTED, PAYMENT_INITIATED (http-500)']);
  assert.equal(sameAttempts(got('STARTED'), [sent('STARTED', 1), sent('PAYMENT_INITIATED', 2)], plan).length, 1);
});

test('an attempt the reference never sent, or one for no planned checkout, is named', () => {
  assert.equal(sameAttempts(got('STARTED', 'STARTED'), [sent('STARTED', 1)], plan).length, 1);
  const stranger = [...got('STARTED'), { checkoutId: 'x', body: '{"status":"STARTED"}' }];
  assert.deepEqual(sameAttempts(stranger, [sent('STARTED', 1)], plan), ['the sink recorded 1 attempts for no checkout the drive made']);
});
