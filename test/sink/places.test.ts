// Webhook checks that bind a family of places (answer classes, event
// positions): on the conforming record each bound place is exercised, a place
// never provoked makes the check not-run naming it, and a broken place is
// named in the failure's tally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeliveryAttempt } from '../../harness/results/model.ts';
import { analyze, WEBHOOK_CHECKS } from '../../harness/sink/checks/index.ts';
import type { SinkPlan } from '../../harness/sink/plan.ts';
import { ANSWER_CLASSES, STATUS_ANSWER_CLASSES } from '../../harness/places/answer-classes.ts';
import { EVENT_POSITIONS, GATED_EVENT_POSITIONS } from '../../harness/places/event-positions.ts';
import { ABORT_REASONS, CHECKOUT_STATUSES } from '../../harness/contracts/enums.ts';
import type { PlaceFamily } from '../../harness/results/places.ts';
import { KEY, RECORDS, S, conforming } from './records.ts';

const judge = (attempts: DeliveryAttempt[], plan: SinkPlan) =>
  analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S, toleranceFloorMs: 25 });
const bound = WEBHOOK_CHECKS.filter(c => c.bindsAt);
/** The result of check `id` on the conforming record changed by the named record of records.ts. */
function withRecord(name: string, id: string) {
  const { attempts, plan } = conforming();
  RECORDS[name](attempts, plan);
  return judge(attempts, plan).find(r => r.id === id)!;
}
const FAMILIES: Partial<Record<PlaceFamily, readonly string[]>> = {
  'event-position': EVENT_POSITIONS, 'gated-event-position': GATED_EVENT_POSITIONS, 'status-answer-class': STATUS_ANSWER_CLASSES,
  'answer-class': ANSWER_CLASSES, 'checkout-status': CHECKOUT_STATUSES, 'abort-reason': ABORT_REASONS,
};

test('on the conforming record every check that binds places exercised each of them', () => {
  assert.ok(bound.length >= 10, `${bound.length} webhook checks bind places`);
  const { attempts, plan } = conforming();
  for (const c of judge(attempts, plan).filter(r => bound.some(b => b.id === r.id))) {
    const decl = bound.find(b => b.id === c.id)!.bindsAt!;
    assert.equal(c.status, 'passed', `${c.id}: ${c.message}`);
    assert.equal(c.places?.family, decl.family, c.id);
    const members: readonly string[] = decl.only ?? FAMILIES[decl.family]!;
    assert.deepEqual(c.places?.exercised, [...members], c.id);
    assert.match(c.message!, /held at \d+ of \d+/);
  }
});

test('an answer class never provoked leaves its check not run, naming the class', () => {
  const { attempts, plan } = conforming();
  const kept = attempts.filter(a => a.checkoutId !== 'estatus-410');
  const c = judge(kept, plan).find(r => r.id === 'webhook.retry.after-3xx-4xx')!;
  assert.equal(c.status, 'skipped');
  assert.match(c.message!, /exercised 8 of 9 status answer classes; not at 410: not reached/);
  assert.deepEqual(c.places?.exercised.includes('410'), false);
});

test('a class that was not retried fails its check and only that class is named broken', () => {
  const c = withRecord('no-retry-after-429-retry-after', 'webhook.retry.after-3xx-4xx');
  assert.equal(c.status, 'failed');
  assert.deepEqual(c.places?.failed, ['429 with Retry-After']);
  assert.equal(c.places?.exercised.length, 9);
});

test('a failure at one event position fails its check there only, and a position never provoked leaves it not run', () => {
  const c = withRecord('gave-up-after-3s-at-batch-middle', 'webhook.timeout.waits-5s');
  assert.equal(c.status, 'failed');
  assert.deepEqual(c.places?.failed, ['batch middle']);
  const fresh = conforming();
  const kept = fresh.attempts.filter(a => a.checkoutId !== 'p-normal-final');
  for (const id of ['webhook.retry.after-timeout', 'webhook.timeout.waits-5s', 'webhook.timeout.late-answer-not-taken', 'webhook.backoff.min-delay']) {
    const r = judge(kept, fresh.plan).find(x => x.id === id)!;
    assert.equal(r.status, 'skipped', id);
    assert.match(r.message!, /exercised 5 of 6 event-positions; not at normal final: not reached/, id);
  }
  // The gate binds the waiting event: the final event that waited on p-normal-middle's failing one still exercises normal final.
  assert.equal(judge(kept, fresh.plan).find(x => x.id === 'webhook.order.ack-gated')!.status, 'passed');
});

test('an event sent before the previous one was acknowledged breaks the gate at its own position only; the first event is never gated', () => {
  assert.deepEqual(GATED_EVENT_POSITIONS, ['normal middle', 'normal final', 'batch middle', 'batch final']);
  for (const p of GATED_EVENT_POSITIONS) {
    const c = withRecord(`sent-before-ack-at-${p.replace(' ', '-')}`, 'webhook.order.ack-gated');
    assert.equal(c.status, 'failed', p);
    assert.deepEqual(c.places?.failed, [p]);
    assert.deepEqual(c.places?.exercised, [...GATED_EVENT_POSITIONS]);
  }
});

test('a late 200 taken at one event position fails late-answer-not-taken there only; the other five held', () => {
  const c = withRecord('took-the-6s-answer-at-normal-final', 'webhook.timeout.late-answer-not-taken');
  assert.equal(c.status, 'failed');
  assert.deepEqual(c.places?.failed, ['normal final']);
  assert.deepEqual(c.places?.exercised, [...EVENT_POSITIONS]);
  assert.match(c.message!, /checkout p-normal-final: the sender was still waiting when the 200 came 6\.00 s after sending/);
});

test('a status after each final one, an abortReason outside spec 2.4, a backoff that never grows: each breaks its check at that place only', () => {
  const sequencePlaces = CHECKOUT_STATUSES.filter(st => st !== 'PAYMENT_INITIATED');
  for (const [prefix, id, members] of [['status-after-', 'webhook.states.sequence', sequencePlaces],
    ['abort-reason-not-a-value-', 'webhook.states.abort-reason-value', ABORT_REASONS],
    ['delays-never-grow-at-', 'webhook.backoff.growth', EVENT_POSITIONS]] as const) {
    const names = Object.keys(RECORDS).filter(n => n.startsWith(prefix));
    assert.ok(names.length >= 6, prefix);
    for (const name of names) {
      const c = withRecord(name, id);
      assert.equal(c.status, 'failed', name);
      assert.deepEqual(c.places?.failed, members.filter(m => name === prefix + m.toLowerCase().replace(/[_ ]/g, '-')), name);
      assert.equal(c.places?.exercised.length, members.length, name);
    }
  }
});

test('the sequence broken at each status it binds, the final ones above and STARTED and PAYMENT_CREATED here; PAYMENT_INITIATED is no place', () => {
  const places = WEBHOOK_CHECKS.find(c => c.id === 'webhook.states.sequence')!.bindsAt!;
  assert.deepEqual(places.only, CHECKOUT_STATUSES.filter(st => st !== 'PAYMENT_INITIATED'));
  for (const [name, at] of [['forbidden-not-started-first-delivered', 'STARTED'], ['forbidden-poller-after-created-delivered', 'PAYMENT_CREATED']]) {
    const c = withRecord(name, 'webhook.states.sequence');
    assert.equal(c.status, 'failed', name);
    assert.deepEqual(c.places?.failed, [at], name);
  }
});
