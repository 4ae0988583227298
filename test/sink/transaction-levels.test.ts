// What 3.2 does not state outright is judged at should, never must: a batch at
// PAYMENT_INITIATED whose payment is still PAYMENT_RETRYABLE passes
// webhook.body.transaction-status and is a finding of transaction-status-agrees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, WEBHOOK_CHECKS } from '../../harness/sink/checks/index.ts';
import { KEY, S, conforming } from './records.ts';

test('a batch payment still PAYMENT_RETRYABLE at PAYMENT_INITIATED: a should finding, the must check passes', () => {
  const { attempts, plan } = conforming();
  const x = attempts.find(a => a.checkoutId === 'p-batch-final' && JSON.parse(a.body).status === 'PAYMENT_INITIATED')!;
  const b = JSON.parse(x.body);
  b.payments[1].transactionStatus = 'PAYMENT_RETRYABLE';
  x.body = JSON.stringify(b);
  const checks = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S });
  assert.equal(checks.find(c => c.id === 'webhook.body.transaction-status')!.status, 'passed');
  const agrees = checks.find(c => c.id === 'webhook.body.transaction-status-agrees')!;
  assert.equal(agrees.status, 'failed');
  assert.equal(agrees.level, 'should');
  assert.match(agrees.message!, /payment 1: transactionStatus PAYMENT_RETRYABLE with status PAYMENT_INITIATED/);
  assert.equal(WEBHOOK_CHECKS.find(c => c.id === 'webhook.body.transaction-status-agrees')!.level, 'should');
});
