// Places a rule binds: the tables, the tally a check keeps while it iterates
// them, CheckContext.everyPlace's outcome for each mix of places, and the
// coverage column (places exercised out of places bound).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { membersOf } from '../../harness/places/index.ts';
import { operationsAt } from '../../harness/places/operations.ts';
import { describeTally, PlaceLedger } from '../../harness/results/places.ts';
import { placeCoverage } from '../../harness/requirements/places.ts';
import { loadRequirements } from '../../harness/requirements/load.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import { CheckContext, settle } from '../../suites/support/check.ts';

test('the operations of a version: 21 at 3.2.0, fewer before, each with a path key and session-bound flag', () => {
  const latest = operationsAt('3.2.0');
  assert.equal(latest.length, 21);
  assert.equal(new Set(latest.map(o => o.id)).size, latest.length, 'ids are unique');
  assert.ok(latest.filter(o => o.sessionBound).every(o => /accounts|confirm-funds|payments/.test(o.id)));
  const first = operationsAt('1.0.0').map(o => o.id);
  assert.ok(first.includes('GET /accounts') && !first.includes('POST /confirm-funds') && !first.includes('GET /banks/{bankId}'));
  assert.ok(!first.some(o => o.includes('authorize')), 'authorize arrived in 1.0.1');
  assert.deepEqual(membersOf('product', '3.0.0'), ['sepa-credit', 'domestic-transfer']);
  assert.equal(membersOf('bank', '3.2.0'), undefined, 'banks are the target\'s');
});

test('a ledger counts a failed place as exercised and names every unexercised place with its reason', () => {
  const l = new PlaceLedger('operation', ['a', 'b', 'c', 'd']);
  l.pass('a'); l.fail('b'); l.skip('c', 'no account');
  const t = l.tally();
  assert.deepEqual(t.exercised, ['a', 'b']);
  assert.deepEqual(t.failed, ['b']);
  assert.deepEqual(t.notExercised, [{ place: 'c', reason: 'no account' }, { place: 'd', reason: 'not reached' }]);
  assert.equal(describeTally(t), '2 of 4 operations, broke at 1');
});

const def = { id: 'token.use.x', title: 't', spec: '4.1', quote: 'q' };
const places = ['one', 'two', 'three'].map(name => ({ name, value: name }));

test('everyPlace passes only when every place held, and says how many', async () => {
  const c = new CheckContext(def);
  const o = await settle(c, b => b.everyPlace('operation', places, async () => {}), 5000);
  assert.equal(o.status, 'passed');
  assert.match(o.message ?? '', /held at 3 of 3 operations/);
  assert.equal(c.places?.exercised.length, 3);
});

test('everyPlace goes on after a broken place and fails naming each broken place, with the first expected and seen', async () => {
  const c = new CheckContext(def);
  const visited: string[] = [];
  const o = await settle(c, b => b.everyPlace('operation', places, async (v, name) => {
    visited.push(name);
    if (v !== 'one') b.fail(`served ${v}`, '401', `200 at ${v}`);
  }), 5000);
  assert.deepEqual(visited, ['one', 'two', 'three']);
  assert.equal(o.status, 'failed');
  assert.match(o.message!, /broke the rule at 2 of 3 operations \(two: served two; three: served three\)/);
  assert.equal(o.seen, '200 at two');
  assert.deepEqual(c.places?.failed, ['two', 'three']);
});

test('everyPlace is not run when a place could not be exercised, naming it; a failure elsewhere still fails', async () => {
  const c = new CheckContext(def);
  const o = await settle(c, b => b.everyPlace('operation', places, async v => { if (v === 'two') b.skip('no payment id'); }), 5000);
  assert.equal(o.status, 'skipped');
  assert.equal(o.skipKind, 'not-run');
  assert.match(o.message!, /exercised 2 of 3 operations; not at two: no payment id/);
  const c2 = new CheckContext(def);
  const o2 = await settle(c2, b => b.everyPlace('operation', places, async v => {
    if (v === 'two') b.skip('no payment id');
    if (v === 'three') b.fail('served', '401', '200');
  }), 5000);
  assert.equal(o2.status, 'failed');
  const c3 = new CheckContext(def);
  assert.equal((await settle(c3, b => b.everyPlace('operation', [], async () => {}), 5000)).status, 'skipped');
});

test('coverage counts places exercised out of places bound', () => {
  assert.equal(placeCoverage(undefined, [{}], '3.2.0').text, '1 place');
  const one = placeCoverage('operation', [{}], '3.2.0');
  assert.deepEqual([one.bound, one.exercised, one.text], [21, 1, '1 of 21 operations']);
  const every = placeCoverage('operation', [{ bindsAt: { family: 'operation' } }], '3.0.0');
  assert.deepEqual([every.bound, every.exercised, every.missing], [operationsAt('3.0.0').length, operationsAt('3.0.0').length, undefined]);
  const some = placeCoverage('product', [{ bindsAt: { family: 'product', only: ['sepa-credit'] } }], '3.2.0');
  assert.deepEqual([some.exercised, some.missing], [1, ['domestic-transfer', 'domestic-scheduled-transfer', 'sepa-scheduled-credit']]);
  assert.equal(placeCoverage('bank', [{ bindsAt: { family: 'bank' } }], '3.2.0').text, 'every bank of the target');
  assert.equal(placeCoverage('bank', [{}], '3.2.0').text, '1 bank, of every bank of the target');
});

test('a statement that binds some members of a family is held to those only, and names members of its family', () => {
  const finals = ['CANCELLED', 'FAILED', 'TIMED_OUT'];
  const c = placeCoverage('checkout-status', [{ bindsAt: { family: 'checkout-status', only: ['STARTED', 'CANCELLED', 'FAILED'] } }], '3.2.0', finals);
  assert.deepEqual([c.bound, c.exercised, c.missing, c.text], [3, 2, ['TIMED_OUT'], '2 of 3 checkout-statuses']);
  const whole = placeCoverage('checkout-status', [{ bindsAt: { family: 'checkout-status' } }], '3.2.0', finals);
  assert.deepEqual([whole.bound, whole.exercised], [3, 3]);
  const some = loadRequirements().filter(r => r.placesOnly);
  assert.ok(some.some(r => r.id === 'R3.1-final-statuses'));
  for (const r of some) {
    const members = membersOf(r.places!, LATEST_API_VERSION) ?? [];
    assert.deepEqual(r.placesOnly!.filter(m => !members.includes(m)), [], `${r.id}: placesOnly names members outside ${r.places}`);
  }
});
