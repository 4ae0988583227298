// The analysis on hand-made attempt records: deterministic, no clock, no load.
// Each check passes on a conforming record and fails on one that breaks its
// rule (and only that check fails), so every check is shown able to fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeliveryAttempt } from '../../harness/report/model.ts';
import { analyze, WEBHOOK_CHECKS } from '../../harness/sink/analysis/index.ts';
import type { CheckoutPlan, SinkPlan } from '../../harness/sink/plan.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';

const KEY = 'analysis-key-0001';
const S = 1000; // spec ms per second; time scale 1 below, so record ms = spec ms

interface Spec { id: string; status: string; at: number; answer?: DeliveryAttempt['answer']; probe?: string; took?: number; key?: string | null; body?: string }
let seq = 0;
function att(s: Spec): DeliveryAttempt {
  const answer = s.answer ?? 200, took = s.took ?? 0.01;
  return {
    seq: ++seq, checkoutId: s.id, arrivedMs: s.at * S, headers: s.key === null ? {} : { 'api-key': s.key ?? KEY },
    body: s.body ?? JSON.stringify(buildWebhookBody({ kind: 'normal', id: s.id, status: s.status })), probe: s.probe ?? (answer === 200 ? 'ok' : answer === 'reset' ? 'reset' : `status-${answer}`), answer,
    ...(answer === 'none' ? { closedMs: (s.at + took) * S } : { answeredMs: (s.at + took) * S }),
  };
}

/** A conforming record of every probe: clean checkouts, one retry per failure kind, slow answers, a held chain of 3 failures and a late checkout. */
function conforming(): { attempts: DeliveryAttempt[]; plan: SinkPlan } {
  const a: Spec[] = [
    { id: 'clean', status: 'STARTED', at: 0 }, { id: 'clean', status: 'PAYMENT_INITIATED', at: 0.1 }, { id: 'clean', status: 'PAYMENT_COMPLETED', at: 0.2 },
    { id: 'e500', status: 'STARTED', at: 0, answer: 500 }, { id: 'e500', status: 'STARTED', at: 10.1 }, { id: 'e500', status: 'CANCELLED', at: 10.2 },
    { id: 'e201', status: 'STARTED', at: 0, answer: 201 }, { id: 'e201', status: 'STARTED', at: 10.1 },
    { id: 'e302', status: 'STARTED', at: 0, answer: 302 }, { id: 'e302', status: 'STARTED', at: 10.1 },
    { id: 'rst', status: 'STARTED', at: 0, answer: 'reset' }, { id: 'rst', status: 'STARTED', at: 10.1 },
    { id: 'slow4', status: 'STARTED', at: 1, probe: 'slow-4s', took: 4 }, { id: 'slow4', status: 'CANCELLED', at: 5.1 },
    { id: 'slow6', status: 'STARTED', at: 1, probe: 'slow-6s', answer: 'none', took: 5 }, { id: 'slow6', status: 'STARTED', at: 16.1 },
    { id: 'held', status: 'STARTED', at: 0, answer: 500 }, { id: 'held', status: 'STARTED', at: 10.1, answer: 500 },
    { id: 'held', status: 'STARTED', at: 30.2, answer: 500 }, { id: 'held', status: 'STARTED', at: 70.3 }, { id: 'held', status: 'TIMED_OUT', at: 70.4 },
    { id: 'late', status: 'STARTED', at: 1 },
    { id: 'late', status: 'CANCELLED', at: 1.1, body: JSON.stringify(buildWebhookBody({ kind: 'normal', id: 'late', status: 'CANCELLED', abortReason: 'PAYMENT_REJECTED' })) },
  ];
  const plan: SinkPlan = new Map();
  const add = (id: string, p: Partial<CheckoutPlan>) => plan.set(id, { plan: { name: id, answers: [], ...p }, control: { status: 201, id } });
  for (const id of new Set(a.map(x => x.id))) add(id, { request: { kind: 'normal', statuses: [] } });
  add('held', { role: 'held', request: { kind: 'normal', statuses: ['STARTED', 'TIMED_OUT'] } });
  add('late', { role: 'late', request: { kind: 'normal', statuses: ['STARTED', 'CANCELLED'] } });
  plan.set('forbidden', { plan: { name: 'forbidden', answers: [], forbidden: true, request: { kind: 'normal', statuses: ['STARTED', 'PAYMENT_COMPLETED'] } }, control: { status: 400, reason: 'no' } });
  return { attempts: a.map(att), plan };
}

const judge = (attempts: DeliveryAttempt[], plan: SinkPlan) =>
  analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S, toleranceFloorMs: 25 });
const failedIds = (attempts: DeliveryAttempt[], plan: SinkPlan) => judge(attempts, plan).filter(c => c.status === 'failed').map(c => c.id);

test('a conforming record passes every check, none skipped', () => {
  const { attempts, plan } = conforming();
  const checks = judge(attempts, plan);
  assert.deepEqual(checks.map(c => c.id), WEBHOOK_CHECKS.map(c => c.id));
  assert.deepEqual(checks.filter(c => c.status !== 'passed').map(c => `${c.id}: ${c.message}`), []);
});

/** Each mutation breaks one rule; exactly the named checks fail. */
const MUTATIONS: Array<{ name: string; fails: string[]; mutate(a: DeliveryAttempt[], plan: SinkPlan): void }> = [
  { name: 'a retry 2 s after a 500', fails: ['webhook.backoff.min-delay'], mutate: a => { a.find(x => x.checkoutId === 'e500' && x.answer === 200 && JSON.parse(x.body).status === 'STARTED')!.arrivedMs = 2 * S; } },
  { name: 'held delays 10, 10, 10', fails: ['webhook.backoff.growth'], mutate: a => { const h = a.filter(x => x.checkoutId === 'held' && JSON.parse(x.body).status === 'STARTED'); [0, 10.1, 20.2, 30.3].forEach((t, i) => { h[i].arrivedMs = t * S; h[i].answeredMs = (t + 0.01) * S; }); } },
  { name: 'no retry after a 500', fails: ['webhook.retry.after-500'], mutate: a => { a.splice(a.findIndex(x => x.checkoutId === 'e500' && x.answer === 200), 1); } },
  { name: '201 taken for delivery', fails: ['webhook.retry.after-other-2xx'], mutate: a => { a.splice(a.findIndex(x => x.checkoutId === 'e201' && x.answer === 200), 1); } },
  { name: 'no retry after a 302', fails: ['webhook.retry.after-3xx-4xx'], mutate: a => { a.splice(a.findIndex(x => x.checkoutId === 'e302' && x.answer === 200), 1); } },
  { name: 'no retry after giving up at 5 s', fails: ['webhook.retry.after-timeout'], mutate: a => { a.splice(a.findIndex(x => x.checkoutId === 'slow6' && x.probe === 'ok'), 1); } },
  { name: 'no transactionStatus once authorised', fails: ['webhook.body.advice'], mutate: a => { const x = a.find(y => JSON.parse(y.body).status === 'PAYMENT_COMPLETED')!; const b = JSON.parse(x.body); delete b.payment.transactionStatus; x.body = JSON.stringify(b); } },
  { name: 'no retry after a reset', fails: ['webhook.retry.after-reset'], mutate: a => { a.splice(a.findIndex(x => x.checkoutId === 'rst' && x.answer === 200), 1); } },
  { name: 'gave up after 3 s (and retried)', fails: ['webhook.timeout.waits-5s'], mutate: a => {
    const s = a.find(x => x.probe === 'slow-4s')!; s.answer = 'none'; delete s.answeredMs; s.closedMs = s.arrivedMs + 3 * S;
    const next = a.find(x => x.checkoutId === 'slow4' && x.probe === 'ok')!; next.arrivedMs = 14.2 * S; next.answeredMs = 14.21 * S;
    a.push(att({ id: 'slow4', status: 'STARTED', at: 14.1 }));
  } },
  { name: 'took the 6 s answer', fails: ['webhook.timeout.late-answer-not-taken'], mutate: a => { const s = a.find(x => x.probe === 'slow-6s')!; s.answer = 200; delete s.closedMs; s.answeredMs = s.arrivedMs + 6 * S; a.splice(a.findIndex(x => x.checkoutId === 'slow6' && x.probe === 'ok'), 1); } },
  { name: 'event sent during the previous one\'s backoff', fails: ['webhook.order.ack-gated'], mutate: a => { a.find(x => x.checkoutId === 'e500' && JSON.parse(x.body).status === 'CANCELLED')!.arrivedMs = 5 * S; } },
  { name: 'late waits for held', fails: ['webhook.parallel.not-held-by-backoff'], mutate: a => { for (const x of a.filter(x => x.checkoutId === 'late')) { x.arrivedMs += 80 * S; x.answeredMs! += 80 * S; } } },
  { name: 'a retry without api-key', fails: ['webhook.auth.api-key'], mutate: a => { a.find(x => x.checkoutId === 'held' && x.answer === 200)!.headers = {}; } },
  { name: 'amount as a string', fails: ['webhook.body.valid'], mutate: a => { const b = JSON.parse(a[0].body); b.payment.amount = '10.00'; a[0].body = JSON.stringify(b); } },
  { name: 'not JSON', fails: ['webhook.body.valid'], mutate: a => { a[0].body = '{"id": "clean", "status": STARTED'; } },
  { name: 'a wrong id', fails: ['webhook.body.matches-checkout'], mutate: a => { const b = JSON.parse(a[0].body); b.id = 'other'; a[0].body = JSON.stringify(b); } },
  { name: 'PAYMENT_COMPLETED without PAYMENT_INITIATED', fails: ['webhook.states.sequence'], mutate: a => { a.splice(a.findIndex(x => x.checkoutId === 'clean' && JSON.parse(x.body).status === 'PAYMENT_INITIATED'), 1); } },
  { name: 'the forbidden sequence accepted', fails: ['webhook.states.forbidden-refused'], mutate: (_, plan) => { plan.get('forbidden')!.control = { status: 201, id: 'forbidden' }; } },
  { name: 'abortReason with PAYMENT_COMPLETED', fails: ['webhook.states.abort-reason'], mutate: a => { const x = a.find(y => JSON.parse(y.body).status === 'PAYMENT_COMPLETED')!; const b = JSON.parse(x.body); b.abortReason = 'BANK_ERROR'; x.body = JSON.stringify(b); } },
  { name: 'the older variant', fails: ['webhook.body.current-variant'], mutate: a => { a[0].body = JSON.stringify(buildWebhookBody({ kind: 'older', id: 'clean', status: 'STARTED' })); } },
  { name: 'duplicates after a 200 (allowed)', fails: [], mutate: a => { a.push(att({ id: 'clean', status: 'STARTED', at: 0.05 }), att({ id: 'held', status: 'TIMED_OUT', at: 71 })); } },
  { name: 'jitter of 25 % upward (allowed)', fails: [], mutate: a => { const h = a.filter(x => x.checkoutId === 'held' && JSON.parse(x.body).status === 'STARTED'); [0, 12.5, 32.6, 72.7].forEach((t, i) => { h[i].arrivedMs = t * S; h[i].answeredMs = (t + 0.01) * S; }); for (const x of a.filter(x => x.checkoutId === 'held' && JSON.parse(x.body).status === 'TIMED_OUT')) { x.arrivedMs = 72.8 * S; x.answeredMs = 72.81 * S; } } },
];

for (const m of MUTATIONS) {
  test(`${m.name}: ${m.fails.length ? m.fails.join(', ') + ' fails, nothing else' : 'every check still passes'}`, () => {
    const { attempts, plan } = conforming();
    m.mutate(attempts, plan);
    assert.deepEqual(failedIds(attempts, plan), m.fails, JSON.stringify(judge(attempts, plan).filter(c => c.status === 'failed').map(c => c.message)));
  });
}

test('checkouts that never have attempts open together fail webhook.parallel.concurrent', () => {
  const serial = [
    att({ id: 'A', status: 'STARTED', at: 0, probe: 'slow-4s', took: 4 }), att({ id: 'B', status: 'STARTED', at: 4.1 }),
    att({ id: 'B', status: 'CANCELLED', at: 4.2 }), att({ id: 'A', status: 'CANCELLED', at: 4.3 }),
  ];
  const c = judge(serial, new Map()).find(x => x.id === 'webhook.parallel.concurrent')!;
  assert.equal(c.status, 'failed');
  assert.match(c.message!, /no two checkouts ever had attempts open at the same time/);
  serial[1].arrivedMs = 2 * S; serial[1].answeredMs = 2.01 * S;
  assert.equal(judge(serial, new Map()).find(x => x.id === 'webhook.parallel.concurrent')!.status, 'passed');
});

test('a failed check says expected and seen and carries the attempts that show it', () => {
  const { attempts, plan } = conforming();
  MUTATIONS[0].mutate(attempts, plan);
  const c = judge(attempts, plan).find(x => x.id === 'webhook.backoff.min-delay')!;
  assert.match(c.message!, /came 1\.99 s after the failed attempt ended/);
  assert.ok(c.expected && c.seen);
  const ev = c.evidence.find(e => e.kind === 'delivery');
  assert.ok(ev && ev.kind === 'delivery' && ev.attempts.length === 2 && ev.attempts.every(x => x.checkoutId === 'e500'));
});

test("the sink's own scheduling delay widens the timing tolerance, and past the timeout check's allowance it is not judged", () => {
  const { attempts, plan } = conforming();
  // Retry of e500 stamped 9.7 s after the failure: beyond the tolerance of max(25 ms, 2 % of 10 s)...
  attempts.find(x => x.checkoutId === 'e500' && x.answer === 200 && JSON.parse(x.body).status === 'STARTED')!.arrivedMs = 9.7 * S;
  const minDelay = (delay?: number) => analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S, toleranceFloorMs: 25, schedulingDelayMs: delay })
    .find(c => c.id === 'webhook.backoff.min-delay')!;
  assert.equal(minDelay().status, 'failed');
  // ...but within it once the sink says it ran up to 150 ms late.
  assert.equal(minDelay(150).status, 'passed');
  // A real fault is still caught with that allowance.
  attempts.find(x => x.checkoutId === 'e500' && x.answer === 200 && JSON.parse(x.body).status === 'STARTED')!.arrivedMs = 2 * S;
  assert.equal(minDelay(150).status, 'failed');
  const waits = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S, schedulingDelayMs: 2_000 })
    .find(c => c.id === 'webhook.timeout.waits-5s')!;
  assert.equal(waits.status, 'skipped');
  assert.match(waits.message!, /the sink itself ran up to 2(\.00)? s late/);
});
