// Declared deviations (run --deviations) in results.json and on index.html:
// the schema of results.json takes them as judged (covers, expired); the page
// lists each one, what it names, the failed checks it covers linked to them,
// why, until when, the link, and marks the expired and the unused; a run
// without deviations shows no section. Their values are escaped, and only an
// http(s) link is clickable. (test/attest/gates.test.ts shows a real run
// writing them; test/report/hostile-report.test.ts opens hostile ones in Chromium.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckResult, DeclaredDeviation, RunResults } from '../../harness/results/model.ts';
import { renderPage } from '../../harness/report/html/page.ts';
import { summarize } from '../../harness/report/verdict.ts';
import { validateContract } from '../../harness/contracts/index.ts';

const checks: CheckResult[] = [
  { id: 'token.issue.token-type', suite: 'token', title: 'token_type is bearer', spec: '2.1', level: 'must', status: 'failed',
    requirements: ['R2.1-token-type-bearer'], message: 'token_type is mac', evidence: [], durationMs: 5 },
  { id: 'token.issue.expires-in', suite: 'token', title: 'expires_in', spec: '2.1', level: 'must', status: 'passed', evidence: [], durationMs: 5 },
];
const DEVIATIONS: DeclaredDeviation[] = [
  { check: 'token.issue.token-type', justification: 'MAC tokens until the <migration> & after', expires: '2999-12-31',
    link: 'https://example.com/waivers/7?a=1&b=2', covers: ['token.issue.token-type'], expired: false },
  { requirement: 'R2.1-token-type-bearer', justification: 'old waiver', expires: '2001-01-01', link: 'javascript:alert(1)',
    covers: ['token.issue.token-type'], expired: true },
  { requirement: 'R2.1-expires-in', justification: 'never needed', expires: '2999-12-31', link: 'https://example.com/w/8', covers: [], expired: false },
];
const run = (deviations?: DeclaredDeviation[]): RunResults => ({
  tool: { name: 'pis-conformance', version: '0.1.0' }, command: 'run', target: {}, timeScale: 1,
  startedAt: '2026-11-22T10:00:00.000Z', finishedAt: '2026-11-22T10:00:09.000Z', summary: summarize(checks), checks,
  ...(deviations ? { deviations } : {}),
});

test('results.json takes the judged deviations; one without covers, or naming neither a check nor a requirement, is refused', () => {
  assert.deepEqual(validateContract('results', run(DEVIATIONS)).filter(v => v.level === 'must'), []);
  const { covers: _, ...uncovered } = DEVIATIONS[0]!;
  assert.notDeepEqual(validateContract('results', run([uncovered as DeclaredDeviation])).filter(v => v.level === 'must'), []);
  const { check: __, ...nameless } = DEVIATIONS[0]!;
  assert.notDeepEqual(validateContract('results', run([nameless])).filter(v => v.level === 'must'), []);
});

test('index.html lists each deviation with its check, what it covers, reason, expiry and link; expired and unused marked; escaped', () => {
  const page = renderPage(run(DEVIATIONS));
  assert.match(page, /<p id="deviations-line"><a href="#deviations">3 declared deviations<\/a> \(1 expired\): listed below; a deviation never changes/);
  const section = page.slice(page.indexOf('<section id="deviations">'), page.indexOf('</section>', page.indexOf('<section id="deviations">')));
  const rows = section.split('<tr').slice(2);
  assert.equal(rows.length, 3);
  assert.match(rows[0]!, /check <code><a href="#token\.issue\.token-type">token\.issue\.token-type<\/a><\/code>/);
  assert.match(rows[0]!, /<a href="#token\.issue\.token-type"><code>token\.issue\.token-type<\/code><\/a>/);
  assert.match(rows[0]!, /MAC tokens until the &lt;migration&gt; &amp; after/);
  assert.match(rows[0]!, /<a href="https:\/\/example\.com\/waivers\/7\?a=1&amp;b=2" rel="noopener noreferrer">/);
  assert.match(rows[1]!, /^ class="expired">.*requirement <code>R2\.1-token-type-bearer<\/code>.*2001-01-01 \(expired\)/s);
  assert.doesNotMatch(section, /href="javascript/i, 'a link that is not http(s) is text');
  assert.match(rows[1]!, /<td class="url">javascript:alert\(1\)<\/td>/);
  assert.match(rows[2]!, /^ class="unused">.*no failed check \(unused\)/s);
  // The verdict stays the run's.
  assert.match(page, /<h1 id="verdict" data-verdict="not-conformant"[^>]*>Not conformant<\/h1>/);
});

test('a run without deviations has no deviation line or section', () => {
  for (const page of [renderPage(run()), renderPage(run([]))]) {
    assert.doesNotMatch(page, /id="deviations/);
  }
});
