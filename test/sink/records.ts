// Hand-made delivery records for the webhook analysis: one conforming record of
// every probe, and named changes to it that break one rule each. The changes
// are the `records` proofs of contracts/proofs.yaml (which names the exact
// checks each must fail); ALLOWED changes are behaviour the spec allows, which
// must fail nothing.
import type { DeliveryAttempt } from '../../harness/report/model.ts';
import type { CheckoutPlan, SinkPlan } from '../../harness/sink/plan.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';

export const KEY = 'analysis-key-0001';
export const S = 1000; // spec ms per second; time scale 1, so record ms = spec ms

interface Spec { id: string; status: string; at: number; answer?: DeliveryAttempt['answer']; probe?: string; took?: number; key?: string | null; body?: string }
let seq = 0;
export function att(s: Spec): DeliveryAttempt {
  const answer = s.answer ?? 200, took = s.took ?? 0.01;
  return {
    seq: ++seq, checkoutId: s.id, arrivedMs: s.at * S, headers: s.key === null ? {} : { 'api-key': s.key ?? KEY },
    body: s.body ?? JSON.stringify(buildWebhookBody({ kind: 'normal', id: s.id, status: s.status })), probe: s.probe ?? (answer === 200 ? 'ok' : answer === 'reset' ? 'reset' : `status-${answer}`), answer,
    ...(answer === 'none' ? { closedMs: (s.at + took) * S } : { answeredMs: (s.at + took) * S }),
  };
}

/** A conforming record of every probe: clean checkouts, one retry per failure kind, slow answers, a held chain of 3 failures and a late checkout. */
export function conforming(): { attempts: DeliveryAttempt[]; plan: SinkPlan } {
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

export type Change = (a: DeliveryAttempt[], plan: SinkPlan) => void;

const status = (x: DeliveryAttempt) => (JSON.parse(x.body) as { status?: string }).status;
const editBody = (x: DeliveryAttempt, edit: (b: Record<string, any>) => void) => { const b = JSON.parse(x.body); edit(b); x.body = JSON.stringify(b); };
const moveTo = (x: DeliveryAttempt, t: number) => { x.arrivedMs = t * S; x.answeredMs = (t + 0.01) * S; };
const drop = (a: DeliveryAttempt[], ok: (x: DeliveryAttempt) => boolean) => { a.splice(a.findIndex(ok), 1); };

/** Each change breaks one rule; proofs.yaml names the checks it must fail. */
export const RECORDS: Record<string, Change> = {
  'retry-2s-after-500': a => { a.find(x => x.checkoutId === 'e500' && x.answer === 200 && status(x) === 'STARTED')!.arrivedMs = 2 * S; },
  'delays-never-grow': a => { const h = a.filter(x => x.checkoutId === 'held' && status(x) === 'STARTED'); [0, 10.1, 20.2, 30.3].forEach((t, i) => moveTo(h[i], t)); },
  'no-retry-after-500': a => drop(a, x => x.checkoutId === 'e500' && x.answer === 200),
  '201-taken-for-delivery': a => drop(a, x => x.checkoutId === 'e201' && x.answer === 200),
  'no-retry-after-302': a => drop(a, x => x.checkoutId === 'e302' && x.answer === 200),
  'no-retry-after-giving-up': a => drop(a, x => x.checkoutId === 'slow6' && x.probe === 'ok'),
  'no-transaction-status-once-authorised': a => editBody(a.find(y => status(y) === 'PAYMENT_COMPLETED')!, b => { delete b.payment.transactionStatus; }),
  'no-retry-after-reset': a => drop(a, x => x.checkoutId === 'rst' && x.answer === 200),
  'gave-up-after-3s': a => {
    const s = a.find(x => x.probe === 'slow-4s')!; s.answer = 'none'; delete s.answeredMs; s.closedMs = s.arrivedMs + 3 * S;
    moveTo(a.find(x => x.checkoutId === 'slow4' && x.probe === 'ok')!, 14.2);
    a.push(att({ id: 'slow4', status: 'STARTED', at: 14.1 }));
  },
  'took-the-6s-answer': a => {
    const s = a.find(x => x.probe === 'slow-6s')!; s.answer = 200; delete s.closedMs; s.answeredMs = s.arrivedMs + 6 * S;
    drop(a, x => x.checkoutId === 'slow6' && x.probe === 'ok');
  },
  'sent-during-previous-backoff': a => { a.find(x => x.checkoutId === 'e500' && status(x) === 'CANCELLED')!.arrivedMs = 5 * S; },
  'late-held-by-backoff': a => { for (const x of a.filter(x => x.checkoutId === 'late')) { x.arrivedMs += 80 * S; x.answeredMs! += 80 * S; } },
  // Checkouts whose attempts never overlap: no two were ever in flight at once.
  'checkouts-one-at-a-time': (a, plan) => {
    a.splice(0, a.length,
      att({ id: 'A', status: 'STARTED', at: 0, probe: 'slow-4s', took: 4 }), att({ id: 'B', status: 'STARTED', at: 4.1 }),
      att({ id: 'B', status: 'CANCELLED', at: 4.2 }), att({ id: 'A', status: 'CANCELLED', at: 4.3 }));
    plan.clear();
  },
  'retry-without-api-key': a => { a.find(x => x.checkoutId === 'held' && x.answer === 200)!.headers = {}; },
  'amount-as-string': a => editBody(a[0], b => { b.payment.amount = '10.00'; }),
  'body-not-json': a => { a[0].body = '{"id": "clean", "status": STARTED'; },
  'wrong-checkout-id': a => editBody(a[0], b => { b.id = 'other'; }),
  'completed-without-initiated': a => drop(a, x => x.checkoutId === 'clean' && status(x) === 'PAYMENT_INITIATED'),
  'forbidden-sequence-accepted': (_, plan) => { plan.get('forbidden')!.control = { status: 201, id: 'forbidden' }; },
  'abort-reason-with-completed': a => editBody(a.find(y => status(y) === 'PAYMENT_COMPLETED')!, b => { b.abortReason = 'BANK_ERROR'; }),
  'older-variant': a => { a[0].body = JSON.stringify(buildWebhookBody({ kind: 'older', id: 'clean', status: 'STARTED' })); },
};

/** Behaviour the spec allows: every check still passes. */
export const ALLOWED: Record<string, Change> = {
  'duplicates after a 200': a => { a.push(att({ id: 'clean', status: 'STARTED', at: 0.05 }), att({ id: 'held', status: 'TIMED_OUT', at: 71 })); },
  'jitter of 25 % upward': a => {
    const h = a.filter(x => x.checkoutId === 'held' && status(x) === 'STARTED'); [0, 12.5, 32.6, 72.7].forEach((t, i) => moveTo(h[i], t));
    for (const x of a.filter(x => x.checkoutId === 'held' && status(x) === 'TIMED_OUT')) moveTo(x, 72.8);
  },
};
