// Every check names the requirements it enforces where it is defined, and
// contracts/requirements.yaml names the same checks back; every requirement
// has checks or a reason. The rules are harness/requirements/rules.ts; these
// tests run them on the real files and show each rule catches its mistake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG } from '../../suites/catalog/index.ts';
import { loadRequirements, type Requirement } from '../../harness/requirements/load.ts';
import { linkProblems, listProblems, type CheckMeta } from '../../harness/requirements/rules.ts';

const REQS = loadRequirements();

test('the requirement list is consistent: ids match their sections, profile decisions have sources, versions are in order', () => {
  assert.deepEqual(listProblems(REQS), []);
});

test('every check names its requirements, and each requirement names the check back', () => {
  assert.deepEqual(linkProblems(REQS, CATALOG), []);
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
  ({ id: 'R6.5-min-delay', section: '6.5', level: 'must', binds: 'sender', quote: 'q', checks: ['webhook.backoff.min-delay'], ...r });
const check = (c: Partial<CheckMeta>): CheckMeta => ({ id: 'webhook.backoff.min-delay', level: 'must', requirements: ['R6.5-min-delay'], ...c });

test('a check that names no requirement, or one that does not exist, fails', () => {
  assert.match(linkProblems([req({})], [check({ requirements: [] })]).join('\n'), /names no requirement/);
  assert.match(linkProblems([req({})], [check({ requirements: ['R6.5-no-such'] })]).join('\n'),
    /R6.5-no-such, which contracts\/requirements.yaml does not have/);
});

test('a requirement that lists a check which does not name it back (or the reverse) fails', () => {
  assert.match(linkProblems([req({ checks: ['webhook.backoff.min-delay', 'webhook.backoff.growth'] })],
    [check({}), check({ id: 'webhook.backoff.growth', requirements: ['R6.5-other'] })]).join('\n'),
    /lists check webhook.backoff.growth, which does not name it/);
  assert.match(linkProblems([req({ checks: ['webhook.backoff.growth'] })], [check({}), check({ id: 'webhook.backoff.growth' })]).join('\n'),
    /names requirement R6.5-min-delay, whose checks do not list it/);
  assert.match(linkProblems([req({ checks: ['webhook.gone.check'] })], [check({})]).join('\n'), /lists check webhook.gone.check, which does not exist/);
});

test('ids, sections, sources and version order are checked', () => {
  assert.match(listProblems([req({ section: '6.4' })]).join('\n'), /set section to '6.5'/);
  assert.match(listProblems([req({}), req({})]).join('\n'), /appears twice/);
  assert.match(listProblems([req({ id: 'P-webhook-x', section: undefined, level: 'must' })]).join('\n'), /give its source.*\n.*its level is profile/);
  assert.match(listProblems([req({ since: '3.0.0', renamedIn: '2.0.0', formerly: 'x' })]).join('\n'), /renamed in 2.0.0, not after it appeared/);
  assert.deepEqual(listProblems([req({ since: '2.0.0', renamedIn: '3.0.0', formerly: 'GET /consent' })]), []);
});
