// The plan: legal checkout paths, realistic valid bodies, the count the plan line promises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sequenceViolation } from '../../harness/contracts/rules.ts';
import { checkWebhookBody } from '../../harness/contracts/index.ts';
import { acceptsPlan, Ids, pathTo, planSize } from '../../harness/certify/plan.ts';
import { TRANSITION_KINDS, TRANSITION_PLACES, TRANSITIONS } from '../../harness/places/transitions.ts';
import { makePlan, planLine } from '../../harness/certify/certify.ts';
import { statusIn } from '../../harness/certify/state.ts';
import { DEFAULTS } from '../../harness/certify/options.ts';

test('every accepts checkout follows a path the service sends, and every body is valid', () => {
  const plan = acceptsPlan(new Ids());
  for (const [group, checkouts] of Object.entries(plan)) {
    for (const c of checkouts) {
      const statuses = c.events.map(e => e.status);
      assert.equal(sequenceViolation(statuses), null, `${group}: ${statuses.join(' > ')}`);
      for (const e of c.events) {
        // contracts/webhook-*.yaml type amount as a JSON number (docs/profile.md); spec 2.2 says "decimal", which a receiver takes as a string too.
        const v = checkWebhookBody(e.body).violations.filter(x => x.level === 'must' && !(group === 'decimal-amount' && x.pointer.endsWith('/amount')));
        assert.deepEqual(v, [], `${group} ${c.label} ${e.status}`);
        // What is sent is the body as it stands once the plan is made, edits included.
        assert.equal(e.text, JSON.stringify(e.body), `${group} ${c.label} ${e.status}`);
      }
    }
  }
  assert.deepEqual(pathTo('PAYMENT_NONTRACKABLE'), ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_NONTRACKABLE']);
  const batch = plan['payment-scheduled-date'][0].events[0].body.payments as Record<string, unknown>[];
  assert.ok(batch.every(p => 'paymentScheduledDate' in p && !('scheduledDate' in p)));
  const normal = plan['payment-scheduled-date'][1].events[1].body.payment as Record<string, unknown>;
  assert.deepEqual(['paymentScheduledDate' in normal, 'scheduledDate' in normal], [true, false]);
});

test('the bodies of one checkout are built once: createdDate, originalAmount and the ids do not drift between its events', () => {
  const plan = acceptsPlan(new Ids());
  const same = (b: Record<string, unknown>) => JSON.stringify({
    id: b.id, referenceId: b.referenceId, endToEndId: b.endToEndId, createdDate: b.createdDate,
    originalAmount: [b.payment, ...((b.payments as unknown[] | undefined) ?? [])].map(p => (p as Record<string, unknown> | undefined)?.originalAmount),
  });
  let checkouts = 0;
  for (const c of Object.values(plan).flat()) {
    checkouts++;
    assert.equal(new Set(c.events.map(e => same(e.body))).size, 1, c.label);
  }
  assert.ok(checkouts > 40, `${checkouts} checkouts`);
  // Every move spec 3.1 allows is the last move of one normal and one batch checkout.
  assert.deepEqual(plan.transitions.map(c => c.events.at(-1)!.place), TRANSITION_PLACES);
  assert.deepEqual(plan.transitions.map(c => `${c.kind} ${c.events.at(-1)!.status}`), TRANSITION_KINDS.flatMap(k => TRANSITIONS.map(t => `${k} ${t.to}`)));
  // In a batch, every event's payments carry different transactionStatus values, in a body validate finds nothing in.
  for (const c of plan.transitions.filter(x => x.kind === 'batch')) for (const e of c.events) {
    const values = (e.body.payments as Record<string, unknown>[]).map(p => p.transactionStatus);
    assert.ok(new Set(values).size > 1, `${c.label}, ${e.status}: ${values.join(', ')}`);
    assert.deepEqual(checkWebhookBody(e.body), { kind: 'batch', violations: [] }, `${c.label}, ${e.status}`);
  }
});

test('the plan line counts what the plan sends, and --max-requests refuses a larger plan', () => {
  const opts = { url: 'http://127.0.0.1:1/hooks', apiKey: 'k', timeScale: 1, concurrency: 50, maxRequests: DEFAULTS.maxRequests, insecure: false };
  const plan = makePlan(opts);
  const accepts = Object.values(plan.accepts).flat().reduce((n, c) => n + c.events.length, 0);
  assert.equal(plan.size.accepts, accepts);
  assert.equal(plan.size.total, planSize(plan.accepts, 50, false).total);
  assert.match(planLine(plan, opts), new RegExp(`^${plan.size.total} requests will go to http://127\\.0\\.0\\.1:1/hooks \\(`));
  assert.throws(() => makePlan({ ...opts, maxRequests: plan.size.total - 1 }), /raise --max-requests to \d+ or lower --concurrency/);
});

test('the state URL answer is read in the shapes merchants use', () => {
  assert.equal(statusIn({ status: 'PAYMENT_COMPLETED' }, ''), 'PAYMENT_COMPLETED');
  assert.equal(statusIn({ checkout: { checkoutStatus: 'CANCELLED' } }, ''), 'CANCELLED');
  assert.equal(statusIn(undefined, 'STARTED\n'), 'STARTED');
  assert.equal(statusIn({ status: 'paid' }, ''), undefined);
});
