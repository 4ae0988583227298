// The transitions table: every move it lists makes a sequence spec 3.1 allows,
// and it lists the moves the service sends beyond the shortest paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sequenceViolation } from '../../harness/contracts/rules.ts';
import { FINAL_CHECKOUT_STATUSES, POLLER_STATUSES } from '../../harness/contracts/enums.ts';
import { pathThrough, TRANSITIONS } from '../../harness/places/transitions.ts';

test('every listed transition makes a sequence spec 3.1 allows, ending in the move', () => {
  for (const t of TRANSITIONS) {
    const path = pathThrough(t);
    assert.equal(sequenceViolation(path), null, t.id);
    assert.deepEqual(path.slice(-2), [t.from, t.to], t.id);
    assert.equal(FINAL_CHECKOUT_STATUSES.includes(t.from), false, `${t.id}: nothing follows a final status`);
  }
  assert.equal(new Set(TRANSITIONS.map(t => t.id)).size, TRANSITIONS.length);
});

test('the end-user finals after PAYMENT_CREATED and every poller status after PAYMENT_INITIATED are listed; no poller status without it', () => {
  const ids = TRANSITIONS.map(t => t.id);
  for (const s of ['CANCELLED', 'FAILED', 'TIMED_OUT', 'PAYMENT_INITIATED']) assert.ok(ids.includes(`PAYMENT_CREATED -> ${s}`), s);
  for (const s of POLLER_STATUSES) assert.ok(ids.includes(`PAYMENT_INITIATED -> ${s}`), s);
  assert.deepEqual(TRANSITIONS.filter(t => POLLER_STATUSES.includes(t.to) && t.from !== 'PAYMENT_INITIATED').map(t => t.id), []);
  assert.equal(TRANSITIONS.length, 13);
});
