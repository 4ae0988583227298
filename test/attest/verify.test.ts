// verify's parts on hand-made report folders, where the point is the
// judgement, not a run: a statement that disagrees with results.json is
// refused even when its signature and files hold; a subject outside the report
// files and a report file left out are findings; the policy names a missing
// or unaccepted API version; the baseline's exit statuses; and the matrix
// escapes what a signed statement says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReportFiles } from '../../harness/report/writer.ts';
import { summarize } from '../../harness/report/verdict.ts';
import type { CheckResult, RunResults } from '../../harness/results/model.ts';
import { buildStatement } from '../../harness/attest/statement.ts';
import { recomputedFindings, subjectFindings } from '../../harness/attest/verify.ts';
import { policyFindings } from '../../harness/attest/policy.ts';
import { baselineExit, compareBaseline } from '../../harness/attest/baseline.ts';
import { renderMatrix } from '../../harness/attest/matrix-page.ts';
import { CATALOG } from '../../suites/catalog/index.ts';

const c = (id: string, over: Partial<CheckResult> = {}): CheckResult => ({
  id: `token.issue.${id}`, suite: 'token', title: id, spec: '2.1', level: 'must', status: 'passed', evidence: [], durationMs: 1, ...over,
});

function results(checks: CheckResult[], interrupted = false): RunResults {
  return { tool: { name: 'pis-conformance', version: '0.1.0' }, command: 'run', target: { baseUrl: 'https://user:pw@api.example/v3' }, timeScale: 1,
    startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z', selection: { apiVersion: '3.2.0', suites: ['token'] },
    checks, summary: summarize(checks, { interrupted }), ...(interrupted ? { interrupted } : {}) };
}

function folder(r: RunResults): string {
  const dir = mkdtempSync(join(tmpdir(), 'pis-verify-'));
  writeReportFiles(dir, r);
  writeFileSync(join(dir, 'results.jsonl'), r.checks.map(x => JSON.stringify(x)).join('\n') + '\n');
  return dir;
}

test('a statement that disagrees with results.json is refused, though every file matches', () => {
  const dir = folder(results([c('a'), c('token-type', { status: 'failed', message: 'seen mac' })]));
  try {
    const s = buildStatement({ dir, results: results([c('a'), c('token-type', { status: 'failed' })]) });
    assert.deepEqual([...subjectFindings(s, dir), ...recomputedFindings(s, dir)], []);
    const target = s.predicate.configuration.find(d => d.name === 'target')!;
    assert.equal(target.annotations!.baseUrl, 'https://[redacted]@api.example/v3', 'userinfo is not in the certificate');
    const lying = { ...s, predicate: { ...s.predicate, result: 'PASSED' as const, failedTests: [], passedTests: ['token.issue.a', 'token.issue.token-type'] } };
    assert.deepEqual(recomputedFindings(lying, dir), [
      'The statement says PASSED, but results.json gives FAILED.',
      "The statement's passedTests differ from the checks of results.json.",
      "The statement's failedTests differ from the checks of results.json.",
    ]);
    // A subject outside the report files is named, never read; a report file the statement leaves out is named.
    const odd = { ...s, subject: [...s.subject.filter(x => x.name !== 'junit.xml'), { name: '../../etc/passwd', digest: { sha256: '0' } }] };
    assert.deepEqual(subjectFindings(odd, dir), ['The statement names "../../etc/passwd", which is not a file of a report folder.',
      `${join(dir, 'junit.xml')} is in the folder but not in the statement.`]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('the policy: a certificate without an API version, or of one the policy does not accept, is refused', () => {
  const dir = folder(results([c('a')]));
  try {
    const s = buildStatement({ dir, results: results([c('a')]) });
    const noVersion = { ...s, predicate: { ...s.predicate, conformance: { ...s.predicate.conformance, apiVersion: undefined } } };
    assert.match(policyFindings(noVersion, {}, CATALOG, '2026-01-02')[0]!, /names no API version of spec 9/);
    assert.equal(policyFindings(s, { apiVersions: ['2.0.0'] }, CATALOG, '2026-01-02')[0],
      'The certificate is for API version 3.2.0; the policy accepts 2.0.0.');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('baseline exit: 2 interrupted whatever the baseline, 1 for a must check that did not run unless allowed, 0 for known failures', () => {
  const base = results([c('a', { status: 'failed' })]);
  const known = results([c('a', { status: 'failed' }), c('b', { level: 'should', status: 'failed' })]);
  const d = compareBaseline(known, base);
  assert.deepEqual([d.new, d.newMust], [['token.issue.b'], []]);
  assert.equal(baselineExit(known, d, false), 0);
  const cut = results([c('a', { status: 'failed' })], true);
  assert.equal(baselineExit(cut, compareBaseline(cut, base), true), 2);
  const notRun = results([c('a', { status: 'failed' }), c('b', { status: 'skipped', skipKind: 'not-run' })]);
  assert.equal(baselineExit(notRun, compareBaseline(notRun, base), false), 1);
  assert.equal(baselineExit(notRun, compareBaseline(notRun, base), true), 0);
});

test('the matrix escapes what a signed statement says', () => {
  const dir = folder(results([c('a')]));
  try {
    const s = buildStatement({ dir, results: results([c('a')]), name: '<img src=x onerror=alert(1)>' });
    const html = renderMatrix([{ file: 'x".json', statement: s }], [{ file: '<b>bad</b>.json', why: 'no <signature>' }], () => []);
    assert.ok(!html.includes('<img src=x'), 'an implementation name became markup');
    assert.ok(!html.includes('<b>bad</b>') && !html.includes('<signature>'));
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
