// The rules a schema cannot state (harness/contracts/rules.ts): each one both
// passes what the spec allows and fails what it forbids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RULES, abortReasonAllowed, bicFormatOk, bicLengthOk, isCalendarDate, isIsoDateTime, nordicStatusOk, sequenceFinding, sequenceViolation,
  transactionStatusExpected,
} from '../../harness/contracts/rules.ts';
import { ABORT_REASON_STATUSES, CHECKOUT_STATUSES, FINAL_CHECKOUT_STATUSES, POLLER_STATUSES } from '../../harness/contracts/enums.ts';

test('sequences the spec allows pass, including repeats (duplicates) and transitions it does not show', () => {
  for (const s of [
    ['STARTED'],
    ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'],
    ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_NONTRACKABLE'],
    ['STARTED', 'CANCELLED'],
    ['STARTED', 'STARTED', 'PAYMENT_INITIATED', 'PAYMENT_INITIATED', 'PAYMENT_FAILED', 'PAYMENT_FAILED'],
    ['STARTED', 'PAYMENT_CREATED', 'TIMED_OUT'],
    ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_CANCELLED'],
  ]) assert.equal(sequenceViolation(s), null, s.join(','));
});

test('every poller status without an earlier PAYMENT_INITIATED is forbidden (spec 3.1, must)', () => {
  for (const p of POLLER_STATUSES) {
    const f = sequenceFinding(['STARTED', 'PAYMENT_CREATED', p]);
    assert.equal(f?.rule.id, 'sequence.poller-after-initiated', p);
    assert.equal(f?.rule.level, 'must');
    assert.equal(f?.index, 2);
    assert.match(sequenceViolation(['STARTED', p]) ?? '', /without an earlier PAYMENT_INITIATED/);
  }
});

test('anything after a final status is forbidden; a non-STARTED start, unknown statuses and the empty sequence too', () => {
  for (const final of FINAL_CHECKOUT_STATUSES) {
    const before = POLLER_STATUSES.includes(final) ? ['STARTED', 'PAYMENT_INITIATED', final] : ['STARTED', final];
    assert.equal(sequenceFinding([...before, 'PAYMENT_CREATED'])?.rule.id, 'sequence.nothing-after-final', final);
  }
  assert.equal(sequenceFinding(['PAYMENT_CREATED', 'PAYMENT_INITIATED'])?.rule.id, 'sequence.starts-with-started');
  assert.equal(sequenceFinding([])?.rule.id, 'sequence.starts-with-started');
  assert.equal(sequenceFinding(['STARTED', 'DONE'])?.rule.id, 'sequence.known-statuses');
  assert.ok(!FINAL_CHECKOUT_STATUSES.includes('PAYMENT_INITIATED'), 'PAYMENT_INITIATED is not final: the poller follows it');
});

test('abortReason only with TIMED_OUT, FAILED or CANCELLED (spec 2.4, should); absent or null always fine', () => {
  assert.equal(RULES['abort-reason.status'].level, 'should');
  for (const s of CHECKOUT_STATUSES) {
    assert.equal(abortReasonAllowed(s, 'BANK_ERROR'), ABORT_REASON_STATUSES.includes(s), s);
    assert.equal(abortReasonAllowed(s, undefined), true);
    assert.equal(abortReasonAllowed(s, null), true);
  }
});

test('transactionStatus is expected from PAYMENT_INITIATED on (spec 6.1)', () => {
  assert.deepEqual(CHECKOUT_STATUSES.filter(transactionStatusExpected), ['PAYMENT_INITIATED', ...POLLER_STATUSES]);
});

test('BIC: "" or 8 or 11 characters (spec 2.6, must); the ISO 9362 shape is a should', () => {
  for (const ok of ['', 'DNBANOKK', 'ESSESESSXXX']) assert.ok(bicLengthOk(ok) && bicFormatOk(ok), ok);
  for (const bad of ['DNBANOKKX', 'DNB', 'ESSESESSXXXX']) assert.ok(!bicLengthOk(bad), bad);
  assert.ok(bicLengthOk('12345678') && !bicFormatOk('12345678'));
});

test('dates: ISO 8601 is a profile rule with or without zone; YYYY-MM-DD must be a real day', () => {
  for (const ok of ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.123+01:00', '2026-11-22T10:00:00', '2026-11-22'])
    assert.ok(isIsoDateTime(ok), ok);
  for (const bad of ['22.11.2026', 'yesterday', '2026-11-22T25', '']) assert.ok(!isIsoDateTime(bad), bad);
  assert.equal(RULES['date.iso-8601'].level, 'profile');
  assert.ok(isCalendarDate('2028-02-29'));
  for (const bad of ['2026-02-29', '2026-13-01', '2026-1-01', '2026-12-01T00:00:00Z']) assert.ok(!isCalendarDate(bad), bad);
});

test('Nordic banks answer only the nine codes (spec 3.3, must); other banks are not restricted', () => {
  for (const c of ['NO', 'SE', 'FI', 'DK', 'no']) {
    assert.ok(nordicStatusOk(c, 'ACSC'), c);
    assert.ok(!nordicStatusOk(c, 'ACTC'), c);
    assert.ok(!nordicStatusOk(c, undefined), c);
  }
  assert.ok(nordicStatusOk('DE', 'ACTC'));
  assert.equal(RULES['payment-status.nordic'].level, 'must');
});
