// harness/webhook/bodies.ts: every body it builds is valid against its own
// contract with no finding at all, and realistic in the ways others rely on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWebhookBody, makeIban, transactionStatusFor, newCheckoutId } from '../../harness/webhook/bodies.ts';
import { checkWebhookBody } from '../../harness/contracts/index.ts';
import { ABORT_REASONS, CHECKOUT_STATUSES, POLLER_STATUSES } from '../../harness/contracts/enums.ts';

function ibanOk(iban: string): boolean {
  const moved = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, c => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of moved) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

test('every kind x status x option combination is valid, classified as its kind, with no finding but the older variant\'s own', () => {
  for (const kind of ['normal', 'batch', 'older'] as const)
    for (const status of CHECKOUT_STATUSES)
      for (const extraFields of [false, true])
        for (const scheduledDate of [undefined, '2026-12-01'])
          for (const scheduledDateField of ['scheduledDate', 'paymentScheduledDate'] as const) {
            const body = buildWebhookBody({ kind, id: newCheckoutId(), status, extraFields, scheduledDate, scheduledDateField,
              abortReason: ABORT_REASONS[0], payments: 3 });
            const r = checkWebhookBody(body);
            assert.equal(r.kind, kind);
            // An older body is said to be judged as such (rule variant.older, should), nothing more.
            assert.deepEqual(r.violations.map(v => v.rule), kind === 'older' ? ['variant.older'] : [], `${kind} ${status}: ${JSON.stringify(r.violations)}`);
          }
});

test('transactionStatus appears once authorised; abortReason only with TIMED_OUT, FAILED or CANCELLED', () => {
  for (const status of CHECKOUT_STATUSES) {
    const normal = buildWebhookBody({ kind: 'normal', id: 'c-1', status, abortReason: 'BANK_ERROR' }) as
      { payment: Record<string, unknown>; abortReason?: string };
    const authorised = status === 'PAYMENT_INITIATED' || POLLER_STATUSES.includes(status);
    assert.equal(normal.payment.transactionStatus, authorised ? status : undefined, status);
    assert.equal(transactionStatusFor(status), authorised ? status : undefined);
    assert.equal(normal.abortReason, ['TIMED_OUT', 'FAILED', 'CANCELLED'].includes(status) ? 'BANK_ERROR' : undefined, status);
  }
  const older = buildWebhookBody({ kind: 'older', id: 'c-2', status: 'PAYMENT_COMPLETED' });
  assert.ok(!('id' in older) && !('endToEndId' in older));
  assert.deepEqual(Object.keys(older.payment as object), ['amount', 'currency', 'remittanceInfo']);
});

test('realistic values: IBAN check digits, numbers for amounts, ISO dates, one checkout agrees with itself', () => {
  const a = buildWebhookBody({ kind: 'batch', id: 'chk-42', status: 'STARTED', payments: 5, createdDate: '2026-11-22T10:00:00.000Z' }) as any;
  const b = buildWebhookBody({ kind: 'batch', id: 'chk-42', status: 'PAYMENT_INITIATED', payments: 5, createdDate: '2026-11-22T10:00:00.000Z' }) as any;
  assert.equal(a.payments.length, 5);
  assert.deepEqual(a.debtor, b.debtor, 'same checkout, same debtor');
  assert.equal(a.referenceId, b.referenceId);
  for (const p of a.payments) {
    assert.equal(typeof p.amount, 'number');
    assert.ok(ibanOk(p.creditorData.creditor.iban), p.creditorData.creditor.iban);
    assert.equal(p.paymentScheduledDate, undefined);
  }
  assert.ok(ibanOk(a.debtor.iban));
  assert.ok(!Number.isNaN(Date.parse(a.lastModifiedDate)));
  assert.equal(makeIban('NO', '86011117947'), 'NO9386011117947', 'the textbook Norwegian IBAN');
  assert.match(newCheckoutId(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
});
