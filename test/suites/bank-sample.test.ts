// The bank sample of a long list (every country and every distinct
// supportedServices set met within the cap) and the one-bank-per-behaviour
// choice of the payment flows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oneBankPerBehaviour, sampleBanks, servicesKey, type Bank } from '../../suites/support/bank-sample.ts';

const bank = (id: string, countryCode: string, supportedServices: unknown = []): Bank => ({ id, countryCode, supportedServices });

/** 60 banks: 50 Norwegian ones alike, then one per other country, two service sets that appear late. */
const LONG: Bank[] = [
  ...Array.from({ length: 50 }, (_, i) => bank(`no-${i}`, 'NO', ['domestic-scheduled-transfer'])),
  bank('se-1', 'SE', ['instant-domestic-transfer']), bank('se-2', 'SE', ['instant-domestic-transfer']),
  bank('fi-1', 'FI', []), bank('dk-1', 'DK', ['domestic-scheduled-transfer']), bank('de-1', 'DE', ['sepa-scheduled-credit']),
  bank('no-odd', 'NO', ['sepa-scheduled-credit', 'instant-domestic-transfer']), bank('no-bad', 'NO', 'a,b'),
  ...Array.from({ length: 3 }, (_, i) => bank(`de-x${i}`, 'DE', ['sepa-scheduled-credit'])),
];

test('a list within the cap is taken whole, in its order', () => {
  const few = LONG.slice(50, 55);
  assert.deepEqual(sampleBanks(few, 20), { banks: few, uncovered: [] });
});

test('a longer list is sampled to meet every country and services set, then filled in list order, keeping the order', () => {
  const s = sampleBanks(LONG, 10);
  assert.equal(s.banks.length, 10);
  assert.deepEqual(s.uncovered, []);
  const countries = new Set(s.banks.map(b => b.countryCode));
  assert.deepEqual([...countries].sort(), ['DE', 'DK', 'FI', 'NO', 'SE']);
  assert.deepEqual([...new Set(s.banks.map(servicesKey))].sort(), [...new Set(LONG.map(servicesKey))].sort());
  for (const id of ['no-odd', 'no-bad', 'fi-1', 'dk-1', 'de-1']) assert.ok(s.banks.some(b => b.id === id), id);
  const order = s.banks.map(b => LONG.indexOf(b));
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
});

test('a cap too small to meet everything says what it leaves out', () => {
  const s = sampleBanks(LONG, 2);
  assert.equal(s.banks.length, 2);
  assert.ok(s.uncovered.length > 0);
  assert.ok(s.uncovered.every(f => /^(country|services) /.test(f)), s.uncovered.join());
});

test('payment flows: the first bank of each behaviour, plus a bank for each service no chosen bank lists', () => {
  const c = (b: Bank, sca?: boolean, funds?: boolean) => ({ bank: b, behaviour: { sca, funds } });
  const a = bank('a', 'NO', []), b = bank('b', 'NO', ['instant-domestic-transfer']), d = bank('d', 'NO', []);
  const e = bank('e', 'DE', ['sepa-scheduled-credit']), f = bank('f', 'NO', []);
  const chosen = oneBankPerBehaviour([c(a, true, true), c(b, true, true), c(d, false, true), c(e, false, true), c(f, false, false)]);
  assert.deepEqual(chosen.map(x => x.bank.id), ['a', 'b', 'd', 'e', 'f']);
  const same = oneBankPerBehaviour([c(a, true, true), c(d, true, true), c(f, true, true)]);
  assert.deepEqual(same.map(x => x.bank.id), ['a']);
  assert.match(same[0]!.key, /NO, strong customer authentication, confirm-funds/);
});
