// The one verdict function: every case of conformant, not conformant,
// incomplete and interrupted, and how each kind of skip counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckResult } from '../../harness/results/model.ts';
import { judge, summarize, verdictExit, verdictLines } from '../../harness/report/verdict.ts';

const c = (id: string, over: Partial<CheckResult>): CheckResult => ({
  id: `token.issue.${id}`, suite: 'token', title: id, spec: '2.1', level: 'must', status: 'passed', evidence: [], durationMs: 1, ...over,
});

test('conformant: every must check ran and passed; failed should and profile checks are warnings', () => {
  const j = judge([c('a', {}), c('b', { level: 'should', status: 'failed' }), c('c', { level: 'profile', status: 'failed' })]);
  assert.equal(j.verdict, 'conformant');
  assert.deepEqual([j.passed, j.failed, j.warnings, j.skipped], [1, 2, 2, 0]);
  assert.equal(verdictExit(j.verdict), 0);
});

test('not conformant: a must check failed, whatever else did not run', () => {
  const j = judge([c('a', { status: 'failed' }), c('b', { status: 'skipped', skipKind: 'not-run' })]);
  assert.equal(j.verdict, 'not-conformant');
  assert.equal(j.warnings, 0);
  assert.equal(verdictExit(j.verdict, { allowIncomplete: true }), 1);
});

test('incomplete: no must check failed but a must check did not run; a skip without a kind counts as not-run', () => {
  for (const skipped of [c('b', { status: 'skipped', skipKind: 'not-run' }), c('b', { status: 'skipped' })]) {
    const j = judge([c('a', {}), skipped]);
    assert.equal(j.verdict, 'incomplete');
    assert.deepEqual(j.mustNotRun.map(x => x.id), ['token.issue.b']);
    assert.deepEqual([j.skipped, j.notRun], [1, 1]);
    assert.equal(verdictExit(j.verdict), 1);
    assert.equal(verdictExit(j.verdict, { allowIncomplete: true }), 0);
  }
});

test('a should or profile check that did not run leaves the run complete', () => {
  const j = judge([c('a', {}), c('b', { level: 'should', status: 'skipped' }), c('c', { level: 'profile', status: 'skipped', skipKind: 'not-run' })]);
  assert.equal(j.verdict, 'conformant');
  assert.equal(j.notRun, 2);
});

test('not-applicable keeps a run complete; not-selected is counted apart and never as skipped', () => {
  const j = judge([c('a', {}), c('b', { status: 'skipped', skipKind: 'not-applicable' }), c('c', { status: 'skipped', skipKind: 'not-selected' })]);
  assert.equal(j.verdict, 'conformant');
  assert.deepEqual([j.skipped, j.notApplicable, j.notSelected, j.notRun], [1, 1, 1, 0]);
});

test('interrupted wins over every other verdict and exits 2', () => {
  for (const checks of [[c('a', {})], [c('a', { status: 'failed' })], [c('a', { status: 'skipped' })], []]) {
    const j = judge(checks, { interrupted: true });
    assert.equal(j.verdict, 'interrupted');
    assert.equal(verdictExit(j.verdict, { allowIncomplete: true }), 2);
  }
});

test('the remedies of checks not run are said for Not conformant as for Incomplete, never for Conformant', () => {
  const base = { suite: 'session' as const, title: 't', spec: '4.4', evidence: [], durationMs: 1 };
  const failed: CheckResult = { ...base, id: 'session.lifecycle.create', level: 'must', status: 'failed', message: 'no sessionId' };
  const notRun: CheckResult = { ...base, id: 'session.lifecycle.expires', level: 'must', status: 'skipped', remedy: 'give --session-lifetime S',
    message: 'the spec does not say how long a session lasts' };
  assert.deepEqual(verdictLines(summarize([failed, notRun]), [failed, notRun]).slice(1),
    ['Not run: give --session-lifetime S to run session.lifecycle.expires.']);
  const passed: CheckResult = { ...failed, status: 'passed', message: undefined };
  assert.equal(verdictLines(summarize([passed]), [passed]).length, 1);
});
