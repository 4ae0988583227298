// Test data a real bank accepts: execution dates on business days, a creditor
// other than the debtor (a second account, else an external one with valid
// check digits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { businessDate, creditorAccount } from '../../suites/support/payment-data.ts';

/** ISO 13616 mod-97 check of an IBAN. */
function ibanValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  const digits = [...moved].map(c => (c >= 'A' && c <= 'Z' ? String(c.charCodeAt(0) - 55) : c)).join('');
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % 97;
  return r === 1;
}

test('an execution date 7 days out that falls on a Saturday or Sunday moves to the Monday; a weekday stays', () => {
  const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
  assert.equal(businessDate(7, at('2026-11-27')), '2026-12-04'); // Friday -> Friday
  assert.equal(businessDate(7, at('2026-11-28')), '2026-12-07'); // Saturday -> Monday
  assert.equal(businessDate(7, at('2026-11-29')), '2026-12-07'); // Sunday -> Monday
  for (let d = 0; d < 14; d++) {
    const day = new Date(businessDate(7, at('2026-11-23') + d * 86_400_000) + 'T00:00:00Z').getUTCDay();
    assert.ok(day >= 1 && day <= 5, `day ${d}: weekday ${day}`);
  }
});

test('the creditor is the second account, else an external account of the debtor\'s country, never the debtor', () => {
  const first = { iban: 'NO9386011117947', bban: '86011117947' }, second = { iban: 'NO7112345678903' };
  assert.equal(creditorAccount([first, second], 'NO'), second);
  for (const country of ['NO', 'SE', 'FI', 'DK', 'DE']) {
    const c = creditorAccount([{ bban: '1' }], country);
    assert.ok(c && typeof c.iban === 'string' && c.iban.startsWith(country) && ibanValid(c.iban), `${country}: ${JSON.stringify(c)}`);
    assert.notEqual(c.bban, '1');
  }
  assert.equal(creditorAccount([first], 'SE')!.iban, 'NO5015032080119', 'the IBAN country wins over the bank country');
  assert.equal(creditorAccount([{ bban: '1' }], 'XX'), undefined);
});
