// The control API of docs/control-api.md over real HTTP: checkouts become one
// webhook per status at a real receiver; forbidden sequences are refused with
// 400 and a reason (spec 3.1); the attempt log matches what the receiver saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generate } from 'selfsigned';
import { checkWebhookBody } from '../../harness/contracts/index.ts';
import { startReceiver } from './dispatcher/receiver.ts';
import { distinct } from './dispatcher/events.ts';
import { startControl } from './dispatcher/control-server.ts';

const KEY = 'control-test-key';
const FLOW = ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];

test('GET /health answers the time scale', async () => {
  const c = await startControl({ scale: 0.02 });
  try {
    assert.deepEqual(await c.get('/health'), { status: 200, body: { timeScale: 0.02 } });
  } finally { await c.close(); }
});

test('a normal checkout sends one webhook per status, in order, with the api-key and transactionStatus once authorised', async () => {
  const rx = await startReceiver();
  const c = await startControl();
  try {
    const created = await c.post('/checkouts', { kind: 'normal', statuses: FLOW, webhook: { url: rx.url, apiKey: KEY } });
    assert.equal(created.status, 201);
    const id = created.body.id;
    assert.match(id, /^[0-9a-f-]{36}$/);
    await c.control.settled(id);
    assert.deepEqual(distinct(rx.arrivals).map(a => a.body.status), FLOW);
    for (const a of rx.arrivals) {
      assert.deepEqual(checkWebhookBody(a.body), { kind: 'normal', violations: [] });
      assert.equal(a.body.id, id);
      assert.equal(a.headers['api-key'], KEY);
      assert.equal(a.headers['content-type'], 'application/json');
      assert.equal(typeof (a.body.payment as any).amount, 'number');
      assert.equal('abortReason' in a.body, false);
    }
    // Spec 6.1: transactionStatus "once the end user has authorized" (PAYMENT_INITIATED on).
    assert.deepEqual(distinct(rx.arrivals).map(a => (a.body.payment as any).transactionStatus),
      [undefined, undefined, 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED']);
    const dates = distinct(rx.arrivals).map(a => Date.parse(a.body.lastModifiedDate as string));
    assert.ok(dates.every((d, i) => i === 0 || d > dates[i - 1]), `lastModifiedDate does not grow: ${dates}`);
    assert.ok(rx.arrivals.every(a => a.body.createdDate === rx.arrivals[0].body.createdDate));
    // The attempt log, over the control API, matches the receiver attempt for attempt, without the key.
    const log = await c.get(`/checkouts/${id}/attempts`);
    assert.equal(log.status, 200);
    assert.equal(log.body.attempts.length, rx.arrivals.length, 'the log and the receiver disagree on the number of attempts');
    assert.deepEqual(log.body.attempts.filter((a: any) => a.outcome === 'delivered').map((a: any) => a.status), FLOW);
    assert.ok(!JSON.stringify(log.body).includes(KEY), 'the attempt log shows the api-key');
    assert.deepEqual(log.body.events.map((e: any) => e.state), ['delivered', 'delivered', 'delivered', 'delivered']);
    // GET /checkouts/{id}: the request as understood, without the api-key and without attempts.
    const view = await c.get(`/checkouts/${id}`);
    assert.deepEqual([view.status, view.body.kind, view.body.statuses, view.body.webhook], [200, 'normal', FLOW, { url: rx.url }]);
    assert.equal('payments' in view.body || 'attempts' in view.body, false);
  } finally { await c.close(); await rx.close(); }
});

test('a batch checkout carries its payments; abortReason only on the final FAILED', async () => {
  const rx = await startReceiver();
  const c = await startControl();
  try {
    const batch = await c.post('/checkouts', { kind: 'batch', payments: 3, statuses: ['STARTED', 'FAILED'], abortReason: 'BANK_ERROR',
      scheduledDate: '2026-12-01', webhook: { url: rx.url, apiKey: KEY } });
    assert.equal(batch.status, 201);
    await c.control.settled(batch.body.id);
    const [started, failed] = distinct(rx.arrivals).map(a => a.body);
    for (const body of [started, failed]) assert.deepEqual(checkWebhookBody(body), { kind: 'batch', violations: [] });
    assert.equal((started.payments as unknown[]).length, 3);
    assert.equal('payment' in started, false);
    assert.equal((started.payments as any[])[0].paymentScheduledDate, '2026-12-01');
    assert.equal('abortReason' in started, false);
    assert.equal(failed.abortReason, 'BANK_ERROR');
  } finally { await c.close(); await rx.close(); }
});

test('forbidden or malformed requests are refused with 400 and a reason', async () => {
  const c = await startControl();
  const webhook = { url: 'http://127.0.0.1:9/hooks', apiKey: KEY };
  try {
    const refused: Array<[unknown, RegExp]> = [
      [{ kind: 'normal', statuses: ['STARTED', 'PAYMENT_COMPLETED'], webhook }, /PAYMENT_INITIATED/],
      [{ kind: 'normal', statuses: ['PAYMENT_CREATED', 'PAYMENT_INITIATED'], webhook }, /STARTED/],
      [{ kind: 'normal', statuses: ['STARTED', 'CANCELLED', 'PAYMENT_CREATED'], webhook }, /final/],
      [{ kind: 'normal', statuses: ['STARTED', 'DONE'], webhook }, /not a CheckoutStatus/],
      [{ kind: 'normal', statuses: [], webhook }, /statuses/],
      [{ statuses: ['STARTED'], webhook }, /kind/],
      [{ kind: 'normal', statuses: ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'], abortReason: 'BANK_ERROR', webhook }, /2\.4/],
      [{ kind: 'normal', statuses: ['STARTED', 'FAILED'], abortReason: 'BROKE', webhook }, /abortReason/],
      [{ kind: 'single', statuses: ['STARTED'], webhook }, /kind/],
      [{ kind: 'normal', statuses: ['STARTED'], scheduledDate: '2026-02-30', webhook }, /scheduledDate/],
      [{ kind: 'normal', statuses: ['STARTED'], webhook: { url: 'ftp://x/y', apiKey: KEY } }, /http/],
      [{ kind: 'normal', statuses: ['STARTED'], webhook: { url: 'http://127.0.0.1:9/' } }, /apiKey/],
      [{ kind: 'normal', statuses: ['STARTED'] }, /webhook/],
      ['{not json', /JSON/],
      [JSON.stringify({ kind: 'normal', statuses: ['STARTED'], pad: 'x'.repeat(100_000) }), /larger/],
    ];
    for (const [body, reason] of refused) {
      const r = await c.post('/checkouts', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} was answered ${r.status}`);
      assert.match(r.body.reason, reason, JSON.stringify(body));
    }
    const seq = await c.post('/checkouts', { kind: 'normal', statuses: ['STARTED', 'PAYMENT_FAILED'], webhook });
    assert.deepEqual([seq.body.error, seq.body.spec, seq.body.rule], ['forbidden-sequence', '3.1', 'sequence.poller-after-initiated']);
    assert.equal((await c.get('/checkouts/nope/attempts')).status, 404);
    assert.equal((await c.get('/nowhere')).status, 404);
    assert.equal((await c.get('/checkouts')).status, 405);
    assert.equal(c.control.attempts().length, 0);
  } finally { await c.close(); }
});

test('without "webhook" the organisation\'s default webhook is used', async () => {
  const rx = await startReceiver();
  const c = await startControl({ defaultWebhook: { url: rx.url, apiKey: 'org-key' } });
  try {
    const r = await c.post('/checkouts', { kind: 'normal', statuses: ['STARTED', 'TIMED_OUT'] });
    assert.equal(r.status, 201);
    await c.control.settled(r.body.id);
    assert.deepEqual(distinct(rx.arrivals).map(a => [a.body.status, a.headers['api-key']]), [['STARTED', 'org-key'], ['TIMED_OUT', 'org-key']]);
  } finally { await c.close(); await rx.close(); }
});

test('statuses become events in order even when the event loop stalls (overdue timers)', async () => {
  const rx = await startReceiver();
  const c = await startControl();
  try {
    const statuses = ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push((await c.post('/checkouts', { kind: 'normal', statuses, webhook: { url: rx.url, apiKey: KEY } })).body.id);
      // A stall of 2-3 status steps now and then leaves timers of several checkouts overdue at once;
      // Node then runs them list by list (by duration), not in the order they were due.
      if (i % 10 === 9) { const until = performance.now() + 130; while (performance.now() < until); }
    }
    await c.control.settled();
    for (const id of ids) {
      const dates = distinct(rx.arrivals.filter(a => a.body.id === id)).map(a => a.body.lastModifiedDate as string);
      assert.deepEqual(dates, [...dates].sort(), `checkout ${id}: events arrived out of order`);
      assert.equal(new Set(dates).size, statuses.length);
    }
  } finally { await c.close(); await rx.close(); }
});

test('a webhook URL registered without https:// is called over HTTPS; a self-signed loopback certificate is accepted', async () => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }] } as Parameters<typeof generate>[1]);
  const rx = await startReceiver(undefined, { cert: pems.cert, key: pems.private });
  const c = await startControl();
  try {
    // Spec 4.3: "registered without the https:// part; the call is made over HTTPS".
    const schemeless = rx.url.replace('https://127.0.0.1', 'localhost');
    const r = await c.post('/checkouts', { kind: 'normal', statuses: ['STARTED'], webhook: { url: schemeless, apiKey: KEY } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await c.control.settled(r.body.id);
    assert.equal(c.control.attempts().at(-1)?.outcome, 'delivered');
    assert.equal(rx.arrivals[0].headers['api-key'], KEY);
  } finally { await c.close(); await rx.close(); }
});
