// Every check names the requirements it enforces where it is defined, and
// nowhere else: contracts/requirements.yaml lists no checks, the list of each
// requirement is computed from the checks (harness/requirements/view.ts).
// Every must requirement is named by a check or says why none can. The rules
// are harness/requirements/rules.ts; these tests run them on the real files
// and show each rule catches its mistake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG } from '../../suites/catalog/index.ts';
import { loadRequirements, type Requirement } from '../../harness/requirements/load.ts';
import { linkProblems, listProblems, type CheckMeta } from '../../harness/requirements/rules.ts';
import { checksByRequirement, withChecks } from '../../harness/requirements/view.ts';

const REQS = loadRequirements();

test('the requirement list is consistent: ids match their sections, profile decisions have sources, versions are in order', () => {
  assert.deepEqual(listProblems(REQS), []);
});

test('every check names requirements that exist, and every requirement is named by a check or says why not', () => {
  assert.deepEqual(linkProblems(REQS, CATALOG), []);
});

test('every must requirement is named by a check, or declared untestable', () => {
  const named = checksByRequirement(CATALOG);
  const loose = REQS.filter(r => r.level === 'must' && !named.has(r.id) && !r.untestable).map(r => r.id);
  assert.deepEqual(loose, []);
});

test('every spec section with testable statements is in the list', () => {
  const sections = new Set(REQS.filter(r => r.section).map(r => r.section!.split('.')[0]));
  for (const s of ['2', '3', '4', '5', '6', '7', '8', '9']) assert.ok(sections.has(s), `no requirement from section ${s}`);
  for (const s of ['2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '3.1', '3.2', '3.3', '4.1', '4.2', '4.3', '4.4'])
    assert.ok(REQS.some(r => r.section === s), `no requirement from section ${s}`);
});

test('section 9\'s history is recorded on the requirements it changed', () => {
  const by = (id: string) => REQS.find(r => r.id === id)!;
  assert.equal(by('R4.4-confirm-funds').since, '1.0.2');
  assert.deepEqual([by('R4.4-confirm-funds').renamedIn, by('R4.4-confirm-funds').formerly], ['3.0.0', 'POST /fundsconfirmations']);
  assert.deepEqual([by('R4.4-session-status').since, by('R4.4-session-status').formerly], ['2.0.0', 'GET /consent']);
  assert.equal(by('R4.4-consent-psu-ip-address').since, '3.2.0');
  assert.equal(by('R4.4-domestic-scheduled-payment').since, '3.1.0');
  assert.equal(by('R4.4-psu-id-encrypted').since, '3.0.1');
  assert.equal(by('R9-sca-redirect').since, '1.0.1');
});

// The rules on small hand-made lists: each mistake is caught, with a sentence that names the fix.
const req = (r: Partial<Requirement>): Requirement =>
  ({ id: 'R6.5-min-delay', section: '6.5', level: 'must', binds: 'sender', quote: 'q', ...r });
const check = (c: Partial<CheckMeta>): CheckMeta => ({ id: 'webhook.backoff.min-delay', level: 'must', requirements: ['R6.5-min-delay'], ...c });

test('the rules accept a requirement named by its check, and one no check names that says why', () => {
  assert.deepEqual(linkProblems([req({}), req({ id: 'R6.7-lost', section: '6.7', untestable: 'not within a run' })], [check({})]), []);
  assert.deepEqual(linkProblems([req({ level: 'should', uncovered: 'no check yet' })], []), []);
});

test('a check that names no requirement, or one that does not exist, fails', () => {
  assert.match(linkProblems([req({})], [check({}), check({ id: 'webhook.x.y', requirements: [] })]).join('\n'), /names no requirement/);
  assert.match(linkProblems([req({})], [check({}), check({ id: 'webhook.x.y', requirements: ['R6.5-no-such'] })]).join('\n'),
    /R6.5-no-such, which contracts\/requirements.yaml does not have/);
});

test('a requirement no check names, a must left uncovered, or an untestable one a check names, fails', () => {
  assert.match(linkProblems([req({})], []).join('\n'), /R6.5-min-delay is named by no check: add 'R6.5-min-delay' to the requirements/);
  assert.match(linkProblems([req({ uncovered: 'later' })], []).join('\n'), /is a must statement left uncovered/);
  assert.match(linkProblems([req({ untestable: 'never' })], [check({})]).join('\n'),
    /R6.5-min-delay is untestable, but webhook.backoff.min-delay names it/);
});

test('the view lists each requirement\'s checks in the checks\' order, once each', () => {
  const view = withChecks([req({}), req({ id: 'R6.7-lost', section: '6.7' })],
    [check({ id: 'webhook.b.b' }), check({ id: 'webhook.a.a', requirements: ['R6.5-min-delay', 'R6.5-min-delay', 'R6.7-lost'] })]);
  assert.deepEqual(view.map(r => [r.id, r.checks]), [['R6.5-min-delay', ['webhook.b.b', 'webhook.a.a']], ['R6.7-lost', ['webhook.a.a']]]);
});

test('ids, sections, sources and version order are checked', () => {
  assert.match(listProblems([req({ section: '6.4' })]).join('\n'), /set section to '6.5'/);
  assert.match(listProblems([req({}), req({})]).join('\n'), /appears twice/);
  assert.match(listProblems([req({ id: 'P-webhook-x', section: undefined, level: 'must' })]).join('\n'), /give its source.*\n.*its level is profile/);
  assert.match(listProblems([req({ since: '3.0.0', renamedIn: '2.0.0', formerly: 'x' })]).join('\n'), /renamed in 2.0.0, not after it appeared/);
  assert.deepEqual(listProblems([req({ since: '2.0.0', renamedIn: '3.0.0', formerly: 'GET /consent' })]), []);
});
