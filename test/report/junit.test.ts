// junit.xml for each verdict: a CI view is red whenever the exit status is not
// 0 (a failure for a failed must check, an error for Incomplete and
// Interrupted), a testcase is named by its check id alone, and a failure's body
// carries expected and seen, the exchange and the curl line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderJunit } from '../../harness/report/junit.ts';
import { summarize } from '../../harness/report/verdict.ts';
import type { CheckResult, HttpEvidence, RunResults } from '../../harness/results/model.ts';

const http: HttpEvidence = {
  kind: 'http', primary: true, request: { method: 'GET', url: 'http://t/api/banks', headers: {} },
  response: { status: 200, headers: {}, body: [{ id: 'b-1', countryCode: 'no' }] }, startedAt: '2026-11-22T10:00:00Z', durationMs: 3,
  curl: "curl -sS 'http://t/api/banks' -H \"Authorization: Bearer $PIS_ACCESS_TOKEN\"",
};
const base = { suite: 'data' as const, spec: '2.6', title: 'Banks have a country code', evidence: [], durationMs: 10 };
const passed: CheckResult = { ...base, id: 'data.banks.list', level: 'must', status: 'passed' };
const failed: CheckResult = { ...base, id: 'data.banks.country-code', level: 'must', status: 'failed', expected: 'two capital letters',
  seen: '"no"', message: 'countryCode of b-1 is not two capital letters', evidence: [http] };
const notRun: CheckResult = { ...base, id: 'data.sessions.expiry', level: 'must', status: 'skipped', remedy: 'give --session-lifetime S',
  message: 'the spec does not say how long a session lasts' };

function results(checks: CheckResult[], interrupted = false): RunResults {
  return { tool: { name: 'pis-conformance', version: '0' }, command: 'run', target: {}, timeScale: 1, startedAt: '', finishedAt: '',
    interrupted, summary: summarize(checks, { interrupted }), checks };
}

const attr = (xml: string, el: string, name: string) => xml.match(new RegExp(`<${el} [^>]*\\b${name}="(\\d+)"`))?.[1];

test('Conformant: no failure, no error; the testcase name is the check id alone, its title a property', () => {
  const xml = renderJunit(results([passed]));
  assert.equal(attr(xml, 'testsuites', 'failures'), '0');
  assert.equal(attr(xml, 'testsuites', 'errors'), '0');
  assert.match(xml, /<testcase classname="data" name="data\.banks\.list" time="0\.010"><properties><property name="title" value="Banks have a country code"\/>/);
  assert.doesNotMatch(xml, /<error|<failure|<testsuite name="verdict"/);
});

test('Not conformant: a failure whose body is expected and seen first, then the exchange, the response body and the curl line', () => {
  const xml = renderJunit(results([passed, failed]));
  assert.equal(attr(xml, 'testsuites', 'failures'), '1');
  const body = xml.match(/<failure [^>]*>([^<]*)<\/failure>/)?.[1] ?? '';
  const lines = body.split('\n');
  assert.deepEqual(lines.slice(0, 4), ['expected: two capital letters', 'seen: &quot;no&quot;', 'countryCode of b-1 is not two capital letters',
    'exchange: GET http://t/api/banks -&gt; 200']);
  assert.match(body, /response body:\n\[\n {2}\{\n {4}&quot;id&quot;: &quot;b-1&quot;/);
  assert.match(body, /reproduce:\ncurl -sS &apos;http:\/\/t\/api\/banks&apos; -H &quot;Authorization: Bearer \$PIS_ACCESS_TOKEN&quot;$/);
});

test('Incomplete: an errored "verdict" testcase names what did not run and the remedy (before: failures="0" errors="0")', () => {
  const xml = renderJunit(results([passed, notRun]));
  assert.equal(attr(xml, 'testsuites', 'failures'), '0');
  assert.equal(attr(xml, 'testsuites', 'errors'), '1');
  assert.match(xml, /<testsuite name="verdict" tests="1" failures="0" errors="1"/);
  assert.match(xml, /<testcase classname="verdict" name="verdict" time="0\.000"><error message="Incomplete: 1 passed, 0 failed, 1 skipped \(1 not run\)\." type="Incomplete">/);
  assert.match(xml, /Not run: give --session-lifetime S to run data\.sessions\.expiry\.<\/error>/);
  assert.equal(attr(xml, 'testsuites', 'tests'), '3');
});

test('Interrupted: an errored "verdict" testcase says the run was stopped', () => {
  const xml = renderJunit(results([passed, notRun], true));
  assert.equal(attr(xml, 'testsuites', 'errors'), '1');
  assert.match(xml, /<error message="Interrupted: [^"]*" type="Interrupted">[^<]*The run was stopped before it finished/);
});
