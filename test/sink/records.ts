// Hand-made delivery records for the webhook analysis: one conforming record of
// every probe, and named changes to it that break one rule each. The changes
// are the `records` proofs of contracts/proofs.yaml (which names the exact
// checks each must fail); ALLOWED changes are behaviour the spec allows, which
// must fail nothing.
import type { DeliveryAttempt } from '../../harness/results/model.ts';
import { CONTROL_EXTENSIONS, LONG_CHAIN_PLAN, type CheckoutPlan, type SinkPlan } from '../../harness/sink/plan.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';
import { EVENT_POSITIONS } from '../../harness/places/event-positions.ts';
import { ABORT_REASON_STATUSES, ABORT_REASONS } from '../../harness/contracts/enums.ts';

export const KEY = 'analysis-key-0001';
export const S = 1000; // spec ms per second; time scale 1, so record ms = spec ms

interface Spec { id: string; status: string; at: number; answer?: DeliveryAttempt['answer']; probe?: string; took?: number; key?: string | null;
  body?: string; scheduledDate?: string; batch?: boolean }
let seq = 0;
/** What every checkout's request gives and its bodies return (spec 2.2): one creation date, its endToEndId and referenceId. */
const CREATED = '2026-11-22T10:00:00.000Z';
const e2e = (id: string) => `E2E-${id}`;
const ref = (id: string) => `ref-${id}`;
/** lastModifiedDate: seconds after creation by the status's step (so it never goes back within a checkout, whenever the body is built). */
const STEP: Record<string, number> = { STARTED: 0, PAYMENT_CREATED: 1, PAYMENT_INITIATED: 2, later: 4 };
const modified = (status: string) => new Date(Date.parse(CREATED) + (STEP[status] ?? 3) * 1000).toISOString();
function body(id: string, status: string, more: Partial<Parameters<typeof buildWebhookBody>[0]> = {}): string {
  return JSON.stringify(buildWebhookBody({ kind: 'normal', id, status, createdDate: CREATED, lastModifiedDate: modified(status),
    endToEndId: e2e(id), referenceId: ref(id), ...more }));
}
export function att(s: Spec): DeliveryAttempt {
  const answer = s.answer ?? 200, took = s.took ?? 0.01;
  return {
    seq: ++seq, checkoutId: s.id, arrivedMs: s.at * S, headers: s.key === null ? {} : { 'api-key': s.key ?? KEY },
    body: s.body ?? body(s.id, s.status, { ...(s.scheduledDate ? { scheduledDate: s.scheduledDate } : {}), ...(s.batch ? { kind: 'batch' } : {}) }),
    probe: s.probe ?? (answer === 200 ? 'ok' : answer === 'reset' ? 'reset' : `status-${answer}`), answer,
    ...(answer === 'none' ? { closedMs: (s.at + took) * S } : { answeredMs: (s.at + took) * S }),
  };
}

const SCHEDULED = '2026-12-01';

const SHORT = ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];
/** The other forbidden requests of the suite's plan (harness/sink/plan.ts), each refused in the conforming record. */
const FORBIDDEN: Record<string, string[]> = {
  'forbidden-after-final': ['STARTED', 'CANCELLED', 'PAYMENT_INITIATED'],
  'forbidden-poller-after-created': ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_FAILED'],
  'forbidden-not-started-first': ['PAYMENT_INITIATED', 'PAYMENT_COMPLETED'],
};

/** A forbidden request accepted (201) and delivered as asked, or only `sent` of it. */
const acceptForbidden = (id: string, sent?: string[]): Change => (a, plan) => {
  plan.get(id)!.control = { status: 201, id };
  (sent ?? plan.get(id)!.plan.request!.statuses).forEach((st, k) => a.push(att({ id, status: st, at: 1 + k * 0.1,
    body: body(id, st, { lastModifiedDate: new Date(Date.parse(CREATED) + k * 1000).toISOString() }) })));
};

/** An enum value as a record's name has it: PAYMENT_FAILED is payment-failed. */
const kebab = (v: string) => v.toLowerCase().replace(/_/g, '-');

/** The poller's final statuses no other conforming checkout ends with; the second one's checkout is a batch. */
const POLLER_ENDS = ['PAYMENT_FAILED', 'PAYMENT_CANCELLED', 'PAYMENT_NONTRACKABLE'];
/** A conforming checkout that ends with each final status of spec 3.1 (a faulty sender sends another status after it). */
const ENDED_BY: Record<string, string> = { CANCELLED: 'late', FAILED: 'steps', TIMED_OUT: 'held', PAYMENT_COMPLETED: 'clean',
  ...Object.fromEntries(POLLER_ENDS.map(e => [e, `poll-${e}`])) };
/** The status the i-th abortReason's checkout ends with (the three of spec 2.4 in turn). */
const abortedWith = (i: number) => ABORT_REASON_STATUSES[i % ABORT_REASON_STATUSES.length];

/** One checkout per event position (harness/places/event-positions.ts), named `p-<kind>-<where>`. */
const POSITIONS = EVENT_POSITIONS.map(p =>
  ({ p, id: `p-${p.replace(' ', '-')}`, batch: p.startsWith('batch'), at: ['first', 'middle', 'final'].indexOf(p.split(' ')[1]) }));

/**
 * A checkout whose event at one position fails as the suite's `*-fails` and `*-chain` plans make it, in one
 * checkout (as the passive sink's `*-fails`): the sender gives up on a 6 s answer at 5 s, retries 10.1 s later
 * into a 500, 20.1 s after that into another, and 40.1 s after that is answered 200; the other events go at once.
 */
function failingAt(x: typeof POSITIONS[number]): Spec[] {
  const out: Spec[] = [];
  let t = 0;
  SHORT.forEach((status, i) => {
    const one = { id: x.id, status, batch: x.batch };
    if (i !== x.at) { out.push({ ...one, at: t }); t += 0.1; return; }
    out.push({ ...one, at: t, probe: 'slow-6s', answer: 'none', took: 5 }, { ...one, at: t + 15.1, answer: 500 }, { ...one, at: t + 35.2, answer: 500 },
      { ...one, at: t + 75.3 });
    t += 75.4;
  });
  return out;
}

/** The answer classes past 500, 201, 302 and a reset, each failing a checkout's first attempt once: [status, probe]. */
const CLASSES: ReadonlyArray<[number, string]> = [
  [204, 'status-204'], [400, 'status-400'], [401, 'status-401'], [403, 'status-403'], [404, 'status-404'], [410, 'status-410'], [413, 'status-413'],
  [429, 'status-429'], [429, 'status-429-retry-after'], [503, 'status-503'],
];

/** A conforming record of every probe: clean checkouts, one retry per failure kind, slow answers, a held chain of 3 failures and a late checkout. */
export function conforming(): { attempts: DeliveryAttempt[]; plan: SinkPlan } {
  const a: Spec[] = [
    { id: 'clean', status: 'STARTED', at: 0 }, { id: 'clean', status: 'PAYMENT_INITIATED', at: 0.1 }, { id: 'clean', status: 'PAYMENT_COMPLETED', at: 0.2 },
    { id: 'e500', status: 'STARTED', at: 0, answer: 500 }, { id: 'e500', status: 'STARTED', at: 10.1 }, { id: 'e500', status: 'CANCELLED', at: 10.2 },
    { id: 'e201', status: 'STARTED', at: 0, answer: 201 }, { id: 'e201', status: 'STARTED', at: 10.1 },
    { id: 'e302', status: 'STARTED', at: 0, answer: 302 }, { id: 'e302', status: 'STARTED', at: 10.1 },
    { id: 'rst', status: 'STARTED', at: 0, answer: 'reset' }, { id: 'rst', status: 'STARTED', at: 10.1 },
    ...CLASSES.flatMap(([code, probe]): Spec[] => [
      { id: `e${probe}`, status: 'STARTED', at: 0, answer: code, probe }, { id: `e${probe}`, status: 'STARTED', at: 10.1 }]),
    { id: 'slow4', status: 'STARTED', at: 1, probe: 'slow-4s', took: 4 }, { id: 'slow4', status: 'CANCELLED', at: 5.1 },
    { id: 'slow6', status: 'STARTED', at: 1, probe: 'slow-6s', answer: 'none', took: 5 }, { id: 'slow6', status: 'STARTED', at: 16.1 },
    { id: 'trickle', status: 'STARTED', at: 1, probe: 'slow-trickle', answer: 'none', took: 5 }, { id: 'trickle', status: 'STARTED', at: 16.1 },
    { id: 'held', status: 'STARTED', at: 0, answer: 500 }, { id: 'held', status: 'STARTED', at: 10.1, answer: 500 },
    { id: 'held', status: 'STARTED', at: 30.2, answer: 500 }, { id: 'held', status: 'STARTED', at: 70.3 }, { id: 'held', status: 'TIMED_OUT', at: 70.4 },
    { id: 'late', status: 'STARTED', at: 1 },
    { id: 'late', status: 'CANCELLED', at: 1.1, body: body('late', 'CANCELLED', { abortReason: 'PAYMENT_REJECTED' }) },
    { id: 'sched', status: 'STARTED', at: 0, scheduledDate: SCHEDULED }, { id: 'sched', status: 'PAYMENT_INITIATED', at: 0.1, scheduledDate: SCHEDULED },
    { id: 'sched', status: 'PAYMENT_COMPLETED', at: 0.2, scheduledDate: SCHEDULED },
    { id: 'sca', status: 'STARTED', at: 0 }, { id: 'sca', status: 'PAYMENT_CREATED', at: 0.1 }, { id: 'sca', status: 'PAYMENT_INITIATED', at: 0.2 },
    { id: 'sca', status: 'PAYMENT_COMPLETED', at: 0.3 },
    { id: 'steps', status: 'STARTED', at: 0 }, { id: 'steps', status: 'PAYMENT_CREATED', at: 0.1 }, { id: 'steps', status: 'FAILED', at: 0.2 },
    ...POSITIONS.flatMap(failingAt),
    ...POLLER_ENDS.flatMap((end, i): Spec[] =>
      ['STARTED', 'PAYMENT_INITIATED', end].map((status, k) => ({ id: `poll-${end}`, status, at: k * 0.1, batch: i === 1 }))),
    ...ABORT_REASONS.flatMap((r, i): Spec[] => [{ id: `abort-${r}`, status: 'STARTED', at: 0 },
      { id: `abort-${r}`, status: abortedWith(i), at: 0.1, body: body(`abort-${r}`, abortedWith(i), { abortReason: r }) }]),
  ];
  const plan: SinkPlan = new Map();
  // The control API echoes the optional fields it took (docs/control-api.md).
  const add = (id: string, p: Partial<CheckoutPlan>) => plan.set(id, { plan: { name: id, answers: [], ...p },
    control: { status: 201, id, echoed: CONTROL_EXTENSIONS.filter(f => p.request?.[f] !== undefined) } });
  const asked = (id: string, statuses: string[], more: Partial<NonNullable<CheckoutPlan['request']>> = {}) =>
    ({ kind: 'normal' as const, statuses, endToEndId: e2e(id), referenceId: ref(id), ...more });
  for (const id of new Set(a.map(x => x.id))) add(id, { request: asked(id, []) });
  add('held', { role: 'held', request: asked('held', ['STARTED', 'TIMED_OUT']) });
  add('late', { role: 'late', request: asked('late', ['STARTED', 'CANCELLED']) });
  add('sched', { request: asked('sched', ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'], { scheduledDate: SCHEDULED }) });
  add('sca', { request: asked('sca', ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'], { sca: true }) });
  add('steps', { request: asked('steps', ['STARTED', 'PAYMENT_CREATED', 'FAILED']) });
  for (const x of POSITIONS) add(x.id, { request: asked(x.id, SHORT, x.batch ? { kind: 'batch' } : {}) });
  POLLER_ENDS.forEach((end, i) =>
    add(`poll-${end}`, { request: asked(`poll-${end}`, ['STARTED', 'PAYMENT_INITIATED', end], i === 1 ? { kind: 'batch' } : {}) }));
  ABORT_REASONS.forEach((r, i) => add(`abort-${r}`, { request: asked(`abort-${r}`, ['STARTED', abortedWith(i)], { abortReason: r }) }));
  plan.set('forbidden', { plan: { name: 'forbidden', answers: [], forbidden: true, request: { kind: 'normal', statuses: ['STARTED', 'PAYMENT_COMPLETED'] } },
    control: { status: 400, reason: 'no' } });
  for (const [id, statuses] of Object.entries(FORBIDDEN))
    plan.set(id, { plan: { name: id, answers: [], forbidden: true, request: { kind: 'normal', statuses } }, control: { status: 400, reason: 'no' } });
  return { attempts: a.map(att), plan };
}

export type Change = (a: DeliveryAttempt[], plan: SinkPlan) => void;

/**
 * The long chain of run --long-chains (LONG_CHAIN_PLAN): STARTED fails 6 times, retried each time at a gentle
 * factor (x1.2, so the chain ends inside the records' 300 s), delivered at its 7th attempt, then CANCELLED;
 * `givesUpAfter` ends the retries after that many failures, CANCELLED following at once.
 */
export const withLongChain = (givesUpAfter?: number): Change => (a, plan) => {
  const id = 'long';
  const delays = [10.1, 12.1, 14.5, 17.4, 20.8, 25];
  let t = 0;
  delays.slice(0, givesUpAfter ?? delays.length).forEach((d, i) => {
    a.push(att({ id, status: 'STARTED', at: t, answer: 500 }));
    t += i + 1 === givesUpAfter ? 0.1 : d;
  });
  if (givesUpAfter === undefined) { a.push(att({ id, status: 'STARTED', at: t })); t += 0.1; }
  a.push(att({ id, status: 'CANCELLED', at: t }));
  const request = { kind: 'normal' as const, statuses: ['STARTED', 'CANCELLED'], endToEndId: e2e(id), referenceId: ref(id) };
  plan.set(id, { plan: { ...LONG_CHAIN_PLAN, request }, control: { status: 201, id, echoed: ['endToEndId', 'referenceId'] } });
};

const status = (x: DeliveryAttempt) => (JSON.parse(x.body) as { status?: string }).status;
const editBody = (x: DeliveryAttempt, edit: (b: Record<string, any>) => void) => { const b = JSON.parse(x.body); edit(b); x.body = JSON.stringify(b); };
export const moveTo = (x: DeliveryAttempt, t: number) => { x.arrivedMs = t * S; x.answeredMs = (t + 0.01) * S; };
const drop = (a: DeliveryAttempt[], ok: (x: DeliveryAttempt) => boolean) => { a.splice(a.findIndex(ok), 1); };

/** Each change breaks one rule; proofs.yaml names the checks it must fail. */
export const RECORDS: Record<string, Change> = {
  // A sender that drops an event after its sixth failed attempt (1 + 5 retries) and goes on to the next.
  'gives-up-after-6-failures': withLongChain(6),
  'retry-2s-after-500': a => { a.find(x => x.checkoutId === 'e500' && x.answer === 200 && status(x) === 'STARTED')!.arrivedMs = 2 * S; },
  // A sender without jitter whose every retry comes 10.1 s after its failure.
  'delays-never-grow': (a, plan) => backoffOf([10.1, 10.1, 10.1])(a, plan),
  // A sender without jitter (every first retry 10.1 s after its failure), so the shape of held's chain is judged.
  'delays-grow-linearly': (a, plan) => backoffOf([10.1, 20.1, 30.1])(a, plan),
  'delays-capped-at-20s': (a, plan) => backoffOf([10.1, 20.1, 20.1])(a, plan),
  'no-retry-after-500': a => drop(a, x => x.checkoutId === 'e500' && x.answer === 200),
  '201-taken-for-delivery': a => drop(a, x => x.checkoutId === 'e201' && x.answer === 200),
  'no-retry-after-302': a => drop(a, x => x.checkoutId === 'e302' && x.answer === 200),
  'no-retry-after-giving-up': a => drop(a, x => x.checkoutId === 'slow6' && x.probe === 'ok'),
  // PAYMENT_COMPLETED sent and acknowledged before PAYMENT_INITIATED was ever sent: out of the 3.1 order asked for.
  'statuses-reordered': a => moveTo(a.find(y => y.checkoutId === 'sched' && status(y) === 'PAYMENT_INITIATED')!, 0.3),
  // A global retry queue: e500's retry waits until the held checkout's event is delivered at 70.3 s.
  // The third attempts of two batch chains held until held's event is acknowledged at 70.31 s, each then at once
  // (their last delay then 80 s, so that delays still grow): held is at another event position (normal first), and
  // the batch checkouts that failed with them waited as long, so only the sender's own longest delay before a third
  // attempt (20.09 s, where nothing was acknowledged) shows the wait.
  'batch-retries-held-by-other-checkout': a => {
    for (const [id, at] of [['p-batch-first', 70.35], ['p-batch-middle', 70.45]] as const) {
      const xs = a.filter(x => x.checkoutId === id).sort((p, q) => p.arrivedMs - q.arrivedMs);
      const i = xs.findIndex(x => x.answer !== 200);
      const late = at - xs[i + 2].arrivedMs / S;
      for (const x of xs.slice(i + 2)) shift(x, late);
      const last = at + 80 - xs[i + 3].arrivedMs / S;
      for (const x of xs.slice(i + 3)) shift(x, last);
    }
  },
  // One queue for every checkout's retries: e500 (failed with held) and slow6 (given up on at 6 s, while held waited)
  // retry only once held's event is acknowledged at 70.31 s. A single such retry would be taken for a late one.
  'retry-held-by-other-checkout': a => {
    moveTo(a.find(y => y.checkoutId === 'e500' && y.answer === 200 && status(y) === 'STARTED')!, 70.35);
    moveTo(a.find(y => y.checkoutId === 'e500' && status(y) === 'CANCELLED')!, 70.45);
    moveTo(a.find(y => y.checkoutId === 'slow6' && y.answer === 200)!, 70.55);
  },
  // One queue for every checkout's retries, as the webhook-global-retry-queue fault: a checkout's first failure takes a
  // place in it, and its retries begin only once every checkout that failed before it was delivered. Every probe.
  'retries-in-one-queue': a => {
    const byCheckout = new Map<string, DeliveryAttempt[]>();
    for (const x of a) byCheckout.set(x.checkoutId!, [...(byCheckout.get(x.checkoutId!) ?? []), x]);
    const chains = [...byCheckout.values()].map(xs => xs.sort((p, q) => p.arrivedMs - q.arrivedMs))
      .flatMap(xs => { const i = xs.findIndex(x => x.answer !== 200); return i < 0 ? [] : [{ xs, i, end: xs[i].answeredMs ?? xs[i].closedMs! }]; })
      .sort((p, q) => p.end - q.end);
    let free = 0;
    for (const { xs, i } of chains) {
      const wait = Math.max(0, (free - xs[i + 1].arrivedMs) / S + 0.02);
      for (const x of xs.slice(i + 1)) shift(x, wait);
      const ok = xs.slice(i + 1).find(x => x.answer === 200)!;
      free = Math.max(free, ok.answeredMs!);
    }
  },
  // A later event's first attempt without the api-key, delivered so: no retry is missing, the key is.
  'event-sent-without-key': a => { a.find(y => y.checkoutId === 'sched' && status(y) === 'PAYMENT_COMPLETED')!.headers = {}; },
  'amount-not-original': a => editBody(a.find(y => y.checkoutId === 'clean' && status(y) === 'PAYMENT_COMPLETED')!,
    b => { b.payment.amount = b.payment.originalAmount - 1; }),
  // Dates as RFC 7231 gives them (a date, but not ISO 8601): one lastModifiedDate of a normal body, every createdDate of
  // a batch checkout (one checkout's createdDate stays the same in each of its bodies).
  'last-modified-not-iso8601': a => editBody(a.find(y => y.checkoutId === 'clean' && status(y) === 'PAYMENT_COMPLETED')!,
    b => { b.lastModifiedDate = new Date(b.lastModifiedDate).toUTCString(); }),
  'created-not-iso8601-batch': a => { for (const x of a.filter(y => y.checkoutId === 'poll-PAYMENT_CANCELLED'))
    editBody(x, b => { b.createdDate = new Date(b.createdDate).toUTCString(); }); },
  'card-payment-id-unasked': a => editBody(a.find(y => y.checkoutId === 'clean' && status(y) === 'STARTED')!, b => { b.payment.cardPaymentId = 'card-0001'; }),
  // An inactivity limit instead of 5 s in total: the trickled answer read to its end at 7.5 s and taken.
  'trickled-answer-taken': a => {
    const t = a.find(x => x.checkoutId === 'trickle' && x.probe === 'slow-trickle')!;
    t.answer = 200;
    delete t.closedMs;
    t.answeredMs = t.arrivedMs + 7.5 * S;
    drop(a, x => x.checkoutId === 'trickle' && x.probe === 'ok');
  },
  'no-transaction-status-once-authorised': a => editBody(a.find(y => status(y) === 'PAYMENT_COMPLETED')!, b => { delete b.payment.transactionStatus; }),
  'no-retry-after-reset': a => drop(a, x => x.checkoutId === 'rst' && x.answer === 200),
  ...Object.fromEntries(CLASSES.map(([, probe]) => [`no-retry-after-${probe.slice('status-'.length)}`,
    (a: DeliveryAttempt[]) => drop(a, x => x.checkoutId === `e${probe}` && x.answer === 200)])),
  // Each other forbidden request accepted and delivered as asked.
  ...Object.fromEntries(Object.keys(FORBIDDEN).map(id => [`${id}-delivered`, acceptForbidden(id)])),
  // One CheckoutStatus each never sent by a checkout that asked for it, while its other statuses were.
  ...Object.fromEntries(Object.entries({ STARTED: 'steps', CANCELLED: 'late', FAILED: 'steps', TIMED_OUT: 'held', PAYMENT_INITIATED: 'sched',
    PAYMENT_COMPLETED: 'sched', ...Object.fromEntries(POLLER_ENDS.map(e => [e, `poll-${e}`])) })
    .map(([st, id]) => [`status-never-sent-${kebab(st)}`, (a: DeliveryAttempt[]) => drop(a, x => x.checkoutId === id && status(x) === st)])),
  // One abortReason each answered with another value.
  ...Object.fromEntries(ABORT_REASONS.map((r, i) => [`abort-reason-not-the-one-asked-${kebab(r)}`,
    (a: DeliveryAttempt[]) => editBody(a.find(x => x.checkoutId === `abort-${r}` && status(x) === abortedWith(i))!,
      b => { b.abortReason = ABORT_REASONS[(i + 1) % ABORT_REASONS.length]; })])),
  // One abortReason each sent in lower case, outside the values of spec 2.4.
  ...Object.fromEntries(ABORT_REASONS.map((r, i) => [`abort-reason-not-a-value-${kebab(r)}`,
    (a: DeliveryAttempt[]) => editBody(a.find(x => x.checkoutId === `abort-${r}` && status(x) === abortedWith(i))!,
      b => { b.abortReason = r.toLowerCase(); })])),
  // One final status each followed by another status: the sequence broken at that status only.
  ...Object.fromEntries(Object.entries(ENDED_BY).map(([st, id]) => [`status-after-${kebab(st)}`, (a: DeliveryAttempt[]) => {
    const mine = a.filter(x => x.checkoutId === id), last = mine.reduce((m, x) => x.arrivedMs > m.arrivedMs ? x : m);
    const after = mine.some(x => status(x) === 'PAYMENT_INITIATED') ? 'CANCELLED' : 'PAYMENT_INITIATED';
    const kind = JSON.parse(last.body).payments ? 'batch' as const : 'normal' as const;
    a.push(att({ id, status: after, at: last.arrivedMs / S + 0.1, body: body(id, after, { kind, lastModifiedDate: modified('later') }) }));
  }])),
  // At one event position each: the rule kept everywhere else.
  ...Object.fromEntries(POSITIONS.flatMap(({ id, at }) => {
    const failing = (a: DeliveryAttempt[]) => a.filter(x => x.checkoutId === id && status(x) === SHORT[at]);
    const name = id.slice(2);
    const changes: Array<[string, Change]> = [
      [`no-retry-after-giving-up-at-${name}`, a => { for (const x of failing(a).slice(1)) drop(a, y => y === x); }],
      [`gave-up-after-3s-at-${name}`, a => { const x = failing(a)[0]; x.closedMs = x.arrivedMs + 3 * S; }],
      [`retry-2s-after-giving-up-at-${name}`, a => { const [x, y] = failing(a); moveTo(y, (x.closedMs! + 2 * S) / S); }],
      // Still waiting at 6 s, the late 200 taken for delivery: the event's retries never come.
      [`took-the-6s-answer-at-${name}`, a => {
        const [x, ...retries] = failing(a); x.answer = 200; delete x.closedMs; x.answeredMs = x.arrivedMs + 6 * S;
        for (const y of retries) drop(a, z => z === y);
      }],
      // Every retry 10.1 s after its failure at this position only: the backoff grows for the other positions' events.
      [`delays-never-grow-at-${name}`, a => {
        failing(a).slice(1).reduce((p, x) => { moveTo(x, ((p.closedMs ?? p.answeredMs!) + 10.1 * S) / S); return x; });
      }],
    ];
    // The next event (a middle or final one, named by its position) sent in the failing one's backoff, before its acknowledgement.
    if (at < 2) changes.push([`sent-before-ack-at-${name.replace(/first|middle/, w => w === 'first' ? 'middle' : 'final')}`, a => {
      const next = a.find(x => x.checkoutId === id && status(x) === SHORT[at + 1])!;
      moveTo(next, (failing(a)[0].closedMs! + 1 * S) / S);
    }]);
    return changes;
  })),
  'gave-up-after-3s': a => {
    const s = a.find(x => x.probe === 'slow-4s')!; s.answer = 'none'; delete s.answeredMs; s.closedMs = s.arrivedMs + 3 * S;
    moveTo(a.find(x => x.checkoutId === 'slow4' && x.probe === 'ok')!, 14.2);
    a.push(att({ id: 'slow4', status: 'STARTED', at: 14.1 }));
  },
  'took-the-6s-answer': a => {
    const s = a.find(x => x.probe === 'slow-6s')!; s.answer = 200; delete s.closedMs; s.answeredMs = s.arrivedMs + 6 * S;
    drop(a, x => x.checkoutId === 'slow6' && x.probe === 'ok');
  },
  'copy-after-a-later-event-acknowledged': a => { a.push(att({ id: 'clean', status: 'STARTED', at: 0.15 })); },
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
  'amount-not-a-decimal': a => editBody(a[0], b => { b.payment.amount = '10,00'; }),
  'body-not-json': a => { a[0].body = '{"id": "clean", "status": STARTED'; },
  'wrong-checkout-id': a => editBody(a[0], b => { b.id = 'other'; }),
  'completed-without-initiated': a => drop(a, x => x.checkoutId === 'clean' && status(x) === 'PAYMENT_INITIATED'),
  'forbidden-sequence-accepted': (_, plan) => { plan.get('forbidden')!.control = { status: 201, id: 'forbidden' }; },
  'abort-reason-with-completed': a => editBody(a.find(y => status(y) === 'PAYMENT_COMPLETED')!, b => { b.abortReason = 'BANK_ERROR'; }),
  'older-variant': a => {
    a[0].body = JSON.stringify(buildWebhookBody({ kind: 'older', id: 'clean', status: 'STARTED', createdDate: CREATED, referenceId: ref('clean') }));
  },
  'not-a-post': a => { a[1].method = 'PUT'; },
  'end-to-end-id-changed': a => editBody(a.find(x => x.checkoutId === 'clean' && status(x) === 'PAYMENT_COMPLETED')!, b => { b.endToEndId = 'E2E-made-up'; }),
  'end-to-end-id-missing': a => editBody(a.find(x => x.checkoutId === 'clean' && status(x) === 'PAYMENT_COMPLETED')!, b => { delete b.endToEndId; }),
  'reference-id-ignored': a => { for (const x of a.filter(y => y.checkoutId === 'late')) editBody(x, b => { b.referenceId = 'order-123'; }); },
  'scheduled-date-missing': a => editBody(a.find(x => x.checkoutId === 'sched' && status(x) === 'PAYMENT_INITIATED')!,
    b => { delete b.payment.scheduledDate; }),
  'scheduled-date-on-unscheduled-payment': a => editBody(a.find(x => x.checkoutId === 'clean')!, b => { b.payment.scheduledDate = SCHEDULED; }),
  'last-modified-before-created': a => editBody(a.find(x => x.checkoutId === 'clean' && status(x) === 'STARTED')!,
    b => { b.lastModifiedDate = '2026-11-22T09:59:59.000Z'; }),
  'last-modified-goes-back': a => editBody(a.find(x => x.checkoutId === 'clean' && status(x) === 'PAYMENT_COMPLETED')!,
    b => { b.lastModifiedDate = '2026-11-22T10:00:01.000Z'; }),
  'created-date-changed': a => editBody(a.find(x => x.checkoutId === 'clean' && status(x) === 'PAYMENT_INITIATED')!,
    b => { b.createdDate = '2026-11-22T09:59:55.000Z'; }),
  'original-amount-changed': a => editBody(a.find(x => x.checkoutId === 'sca' && status(x) === 'PAYMENT_INITIATED')!,
    b => { b.payment.originalAmount += 1; b.payment.amount += 1; }),
  'completed-with-transaction-status-started': a => editBody(a.find(x => x.checkoutId === 'sched' && status(x) === 'PAYMENT_COMPLETED')!,
    b => { b.payment.transactionStatus = 'STARTED'; }),
  'final-transaction-status-changed': a => editBody(a.find(x => x.checkoutId === 'sca' && status(x) === 'PAYMENT_INITIATED')!,
    b => { b.payment.transactionStatus = 'PAYMENT_FAILED'; }),
  'status-never-sent': a => drop(a, x => x.checkoutId === 'steps' && status(x) === 'PAYMENT_CREATED'),
  'sca-without-payment-created': a => drop(a, x => x.checkoutId === 'sca' && status(x) === 'PAYMENT_CREATED'),
  // A sender that never sends the key, seen by the passive sink (no plan): nothing of it is attributable, and the key check says so.
  'no-api-key-at-all': (a, plan) => { for (const x of a) x.headers = {}; plan.clear(); },
};

/** A stranger's posts to the sink's address: no key or another key, junk, a body that never ended. */
function strangers(): DeliveryAttempt[] {
  const x = (over: Partial<DeliveryAttempt>): DeliveryAttempt => ({ seq: ++seq, checkoutId: '(no id)', arrivedMs: 2 * S, headers: {}, body: 'hello',
    probe: 'ok', answer: 200, answeredMs: 2.01 * S, ...over });
  return [
    x({}),
    x({ checkoutId: 'clean-copy', headers: { 'api-key': 'guess' }, body: body('clean-copy', 'STARTED'), arrivedMs: 0.15 * S, answeredMs: 0.16 * S }),
    x({ checkoutId: 'other-7', headers: { 'api-key': 'guess' }, body: body('other-7', 'PAYMENT_COMPLETED'), arrivedMs: 3 * S, answeredMs: 3.01 * S,
      method: 'GET' }),
    x({ probe: 'incomplete', answer: 408, arrivedMs: 1 * S, answeredMs: 11 * S,
      body: '{"id"…[the body never finished: 5 bytes in all, sha256 00; the first 5 kept]', bodyBytes: 5, bodySha256: '00' }),
  ];
}

/** Moves an attempt and its answer or hang-up by `s` spec seconds. */
const shift = (x: DeliveryAttempt, s: number) => {
  x.arrivedMs += s * S;
  if (x.answeredMs !== undefined) x.answeredMs += s * S;
  if (x.closedMs !== undefined) x.closedMs += s * S;
};

/**
 * The record as a sender whose k-th retry of an event comes `delays[k - 1]`
 * spec seconds after the failed attempt ended (each checkout's later attempts
 * move with it), and whose attempts after `until` are not seen.
 */
export function backoffOf(delays: readonly number[], until = 300): Change {
  return a => {
    const byCheckout = new Map<string, DeliveryAttempt[]>();
    for (const x of [...a].sort((p, q) => p.arrivedMs - q.arrivedMs)) byCheckout.set(x.checkoutId, [...(byCheckout.get(x.checkoutId) ?? []), x]);
    for (const list of byCheckout.values()) {
      let moved = 0;
      list.forEach((x, i) => {
        const before = list.slice(0, i).filter(y => status(y) === status(x));
        const prev = before[before.length - 1];
        if (prev && prev.answer !== 200) {
          const end = Math.min(prev.closedMs ?? prev.answeredMs ?? prev.arrivedMs, prev.arrivedMs + 5 * S);
          moved = (delays[Math.min(before.length, delays.length) - 1] * S - (x.arrivedMs + moved * S - end)) / S + moved;
        }
        shift(x, moved);
      });
    }
    for (const x of [...a]) if (x.arrivedMs > until * S) a.splice(a.indexOf(x), 1);
  };
}

/** Behaviour the spec allows, and traffic that is not the sender's: every check still passes. */
export const ALLOWED: Record<string, Change> = {
  // Spec 6.5 sets a minimum and no maximum: retries past the run's wait are not run, never failed.
  'a backoff of 60 s, 5 min and 30 min, its later retries past the run\'s end': backoffOf([60, 300, 1800]),
  'a backoff growing x4 per retry (10, 40, 160 s)': backoffOf([10, 40, 160]),
  'a backoff growing x1.2 per retry (10, 12, 14.4 s)': backoffOf([10.1, 12.1, 14.6]),
  // Spec 6.5 does not say where the 10 s start: 10 s after an attempt given up on at 5 s began is 5 s after it ended.
  'the 10 s counted from the start of an attempt the sender gave up on': a => {
    moveTo(a.find(x => x.checkoutId === 'slow6' && x.probe === 'ok')!, 11.1);
  },
  // Spec 2.2 types amount "decimal": a decimal string carries it as well as a number.
  'amount as a decimal string': a => {
    const decimal = (p: Record<string, any> | undefined) => { if (typeof p?.amount === 'number') p.amount = p.amount.toFixed(2); };
    for (const x of a) editBody(x, b => { decimal(b.payment); if (Array.isArray(b.payments)) b.payments.forEach(decimal); });
  },
  // A serialiser that omits nulls leaves out a debtor not known yet.
  'no debtor in STARTED bodies': a => { for (const x of a.filter(y => status(y) === 'STARTED')) editBody(x, b => { delete b.debtor; }); },
  'strangers posting to the sink': a => { a.push(...strangers()); },
  // Nine keyless posts that name the sender's checkouts (the sink prints their ids): bodies that break the
  // contract, change fields, come out of order and before the acknowledgement; never the sender's, never judged.
  'strangers naming the sender\'s checkouts without the key': a => {
    const x = (id: string, status: string, at: number, b?: string, key: string | null = null) => att({ id, status, at, key, ...(b ? { body: b } : {}) });
    a.push(x('clean', 'STARTED', 0.05, '{"id":"clean","status":'), x('clean', 'PAYMENT_COMPLETED', 0.01),
      x('clean', 'PAYMENT_INITIATED', 0.15, body('clean', 'PAYMENT_INITIATED', { endToEndId: 'E2E-forged' })),
      x('held', 'TIMED_OUT', 1), x('held', 'STARTED', 10.15), x('e500', 'CANCELLED', 1), x('e500', 'STARTED', 2, undefined, 'guess'),
      x('late', 'PAYMENT_COMPLETED', 1.05, body('late', 'PAYMENT_COMPLETED', { abortReason: 'BANK_ERROR' })), x('sca', 'STARTED', 0.05, 'not json'));
  },
  'duplicates after a 200': a => { a.push(att({ id: 'clean', status: 'STARTED', at: 0.05 }), att({ id: 'held', status: 'TIMED_OUT', at: 71 })); },
  // The bodies carry the service's own endToEndId and referenceId, and no PAYMENT_CREATED comes.
  'a control API that takes none of the optional sca, endToEndId and referenceId': (a, plan) => {
    for (const p of plan.values()) if (p.control) delete p.control.echoed;
    for (const x of a) editBody(x, b => { if ('endToEndId' in b) b.endToEndId = `E2E-own-${x.checkoutId}`; b.referenceId = `own-${x.checkoutId}`; });
    drop(a, x => x.checkoutId === 'sca' && status(x) === 'PAYMENT_CREATED');
  },
  'a control API that accepts a forbidden request but delivers only its legal start': acceptForbidden('forbidden-after-final', ['STARTED', 'CANCELLED']),
  'jitter of 25 % upward': a => {
    const h = a.filter(x => x.checkoutId === 'held' && status(x) === 'STARTED'); [0, 12.5, 32.6, 72.7].forEach((t, i) => moveTo(h[i], t));
    for (const x of a.filter(x => x.checkoutId === 'held' && status(x) === 'TIMED_OUT')) moveTo(x, 72.8);
  },
};
