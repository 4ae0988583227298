// The faults and quirks that live in the control API and the bodies:
// webhook-forbidden-sequence, webhook-amount-string, webhook-no-sca-event,
// webhook-transaction-status-stale, extra-fields, webhook-decimal-amount and
// webhook-omits-nulls; and what a checkout
// request's sca, endToEndId, referenceId and scheduledDate do without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startReceiver } from './receiver.ts';
import { startControl } from './control-server.ts';
import { distinct } from './events.ts';

const KEY = 'faults-key';

test('webhook-forbidden-sequence: PAYMENT_COMPLETED without PAYMENT_INITIATED is accepted and delivered', async () => {
  const rx = await startReceiver();
  const c = await startControl({ faults: ['webhook-forbidden-sequence'] });
  try {
    const r = await c.post('/checkouts', { kind: 'normal', statuses: ['STARTED', 'PAYMENT_COMPLETED'], webhook: { url: rx.url, apiKey: KEY } });
    assert.equal(r.status, 201);
    await c.control.settled(r.body.id);
    assert.deepEqual(distinct(rx.arrivals).map(a => a.body.status), ['STARTED', 'PAYMENT_COMPLETED']);
    // Only the order rules are off: an unknown status is still refused.
    assert.equal((await c.post('/checkouts', { kind: 'normal', statuses: ['STARTED', 'DONE'], webhook: { url: rx.url, apiKey: KEY } })).status, 400);
  } finally { await c.close(); await rx.close(); }
});

/** One normal and one batch checkout under `faults`, STARTED then PAYMENT_INITIATED: their bodies as received. */
async function bodiesUnder(faults: string[]) {
  const rx = await startReceiver();
  const c = await startControl({ faults });
  try {
    const statuses = ['STARTED', 'PAYMENT_INITIATED'];
    const n = await c.post('/checkouts', { kind: 'normal', statuses, webhook: { url: rx.url, apiKey: KEY } });
    const b = await c.post('/checkouts', { kind: 'batch', statuses, webhook: { url: rx.url, apiKey: KEY } });
    await c.control.settled();
    const of = (id: unknown) => distinct(rx.arrivals.filter(a => a.body.id === id)).map(a => a.body as any);
    return { normal: of(n.body.id), batch: of(b.body.id) };
  } finally { await c.close(); await rx.close(); }
}

test('webhook-amount-string: payment.originalAmount and payments[].originalAmount are strings; amount stays a number', async () => {
  const { normal, batch } = await bodiesUnder(['webhook-amount-string']);
  assert.match(normal[0].payment.originalAmount, /^\d+\.\d{2}$/);
  assert.equal(typeof normal[0].payment.amount, 'number');
  assert.ok(batch[0].payments.every((p: any) => typeof p.originalAmount === 'string' && typeof p.amount === 'number'));
});

test('quirk webhook-decimal-amount: amount is a decimal string, originalAmount a number', async () => {
  const { normal, batch } = await bodiesUnder(['webhook-decimal-amount']);
  assert.match(normal[0].payment.amount, /^\d+\.\d{2}$/);
  assert.equal(Number(normal[0].payment.amount), normal[0].payment.originalAmount);
  assert.ok(batch[0].payments.every((p: any) => typeof p.amount === 'string' && typeof p.originalAmount === 'number'));
});

test('quirk webhook-omits-nulls: a STARTED body has no debtor key, a later one has the debtor', async () => {
  const { normal, batch } = await bodiesUnder(['webhook-omits-nulls']);
  for (const bodies of [normal, batch]) {
    assert.deepEqual(bodies.map(x => x.status), ['STARTED', 'PAYMENT_INITIATED']);
    assert.equal('debtor' in bodies[0], false);
    assert.equal(typeof bodies[1].debtor?.iban, 'string');
  }
});

test('quirk extra-fields: bodies carry fields no spec names; without it they do not', async () => {
  const rx = await startReceiver();
  const withExtra = await startControl({ faults: ['extra-fields'] });
  const plain = await startControl();
  try {
    const a = await withExtra.post('/checkouts', { kind: 'normal', statuses: ['STARTED'], webhook: { url: rx.url, apiKey: KEY } });
    const b = await plain.post('/checkouts', { kind: 'normal', statuses: ['STARTED'], webhook: { url: rx.url, apiKey: KEY } });
    await withExtra.control.settled();
    await plain.control.settled();
    const known = ['id', 'referenceId', 'payment', 'creditor', 'debtor', 'status', 'createdDate', 'lastModifiedDate', 'abortReason', 'endToEndId'];
    const extra = (id: string) => Object.keys(rx.arrivals.find(x => x.body.id === id)!.body).filter(k => !known.includes(k));
    assert.ok(extra(a.body.id).length > 0, 'no extra field under the quirk');
    assert.deepEqual(extra(b.body.id), []);
  } finally { await withExtra.close(); await plain.close(); await rx.close(); }
});

test('sca: PAYMENT_CREATED comes before PAYMENT_INITIATED; the request\'s endToEndId, referenceId and date come back unchanged', async () => {
  const rx = await startReceiver();
  const c = await startControl();
  const faulty = await startControl({ faults: ['webhook-no-sca-event'] });
  try {
    const asked = { kind: 'normal', statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'], sca: true, endToEndId: 'E2E/ünïcode+1',
      referenceId: 'order 42', scheduledDate: '2026-12-01', webhook: { url: rx.url, apiKey: KEY } };
    const r = await c.post('/checkouts', asked);
    const f = await faulty.post('/checkouts', asked);
    assert.deepEqual([r.status, f.status], [201, 201]);
    await c.control.settled(); await faulty.control.settled();
    const of = (id: string) => distinct(rx.arrivals.filter(a => a.body.id === id));
    assert.deepEqual(of(r.body.id).map(a => a.body.status), ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED']);
    assert.deepEqual(of(f.body.id).map(a => a.body.status), ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED']);
    for (const a of of(r.body.id)) {
      const b = a.body as any;
      assert.deepEqual([b.endToEndId, b.referenceId, b.payment.scheduledDate], ['E2E/ünïcode+1', 'order 42', '2026-12-01']);
    }
    assert.equal((await c.post('/checkouts', { ...asked, sca: 'yes' })).status, 400);
  } finally { await c.close(); await faulty.close(); await rx.close(); }
});

test('webhook-transaction-status-stale: transactionStatus stays STARTED once authorised; without it, it follows the status', async () => {
  const rx = await startReceiver();
  const stale = await startControl({ faults: ['webhook-transaction-status-stale'] });
  try {
    const r = await stale.post('/checkouts',
      { kind: 'normal', statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'], webhook: { url: rx.url, apiKey: KEY } });
    await stale.control.settled();
    assert.deepEqual(distinct(rx.arrivals.filter(a => a.body.id === r.body.id)).map(a => (a.body.payment as any).transactionStatus),
      ['STARTED', 'STARTED', 'STARTED']);
  } finally { await stale.close(); await rx.close(); }
});
