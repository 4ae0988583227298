// The reporter of `run` turns Playwright's test results into report checks:
// from the pis-check attachment when there is one, else from the test's
// annotation and Playwright's verdict (a test that timed out or threw before
// attaching), and it redacts what it is handed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullResult, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import PisReporter from '../../harness/report/playwright-reporter.ts';
import type { CheckResult, RunResults } from '../../harness/results/model.ts';

const meta = { id: 'token.issue.token-type', suite: 'token', title: 'token_type is bearer', spec: '2.1', level: 'must' };

function testCase(title: string, annotations: { type: string; description?: string }[] = []): TestCase {
  const file = { type: 'file', title: 'token.spec.ts', location: { file: '/x/suites/token.spec.ts' } } as unknown as Suite;
  return { title, annotations, timeout: 30_000, location: { file: '/x/suites/support/check.ts', line: 1, column: 1 }, parent: file } as unknown as TestCase;
}

function result(status: TestResult['status'], attachments: TestResult['attachments'] = [], error?: string): TestResult {
  return { status, attachments, duration: 1234, ...(error ? { error: { message: error } } : {}) } as unknown as TestResult;
}

test('checks come from attachments or, failing that, from annotations; secrets are redacted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-reporter-'));
  const saved = { ...process.env };
  const write = process.stdout.write;
  try {
    Object.assign(process.env, { PIS_CLIENT_SECRET: 'secret-value-1' });
    let printed = '';
    process.stdout.write = ((s: string) => { printed += s; return true; }) as typeof process.stdout.write;
    const r = new PisReporter({ reportDir: dir, header: { command: 'run', target: {}, timeScale: 1 }, stdout: 'line',
      secretVariables: ['PIS_CLIENT_SECRET', 'PIS_WEBHOOK_API_KEY'] });
    const cases = [testCase('token.issue.token-type token_type is bearer', [{ type: 'pis-check', description: JSON.stringify(meta) }]),
      testCase('session.lifecycle.create starts a session'), testCase('webhook.retry.after-500 retries')];
    r.onBegin({}, { allTests: () => cases } as unknown as Suite);
    const attached: CheckResult = { ...meta, suite: 'token', level: 'must', status: 'failed', message: 'token_type is not bearer', seen: 'seen secret-value-1',
      evidence: [{ kind: 'note', text: 'secret-value-1' }], durationMs: 5 };
    r.onTestEnd(cases[0]!, result('failed', [{ name: 'pis-check', contentType: 'application/json', body: Buffer.from(JSON.stringify(attached)) }]));
    r.onTestEnd(cases[1]!, result('timedOut'));
    r.onTestEnd(cases[2]!, result('failed', [], 'Error: boom\n  at x'));
    await r.onEnd({ status: 'failed' } as FullResult);
    process.stdout.write = write;

    const out = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.deepEqual(out.checks.map(c => [c.id, c.status]),
      [['token.issue.token-type', 'failed'], ['session.lifecycle.create', 'failed'], ['webhook.retry.after-500', 'skipped']]);
    assert.equal(out.checks[0]!.seen, 'seen [redacted]');
    assert.deepEqual(out.checks[0]!.evidence, [{ kind: 'note', text: '[redacted]' }]);
    assert.match(out.checks[1]!.message!, /did not finish within 30 s/);
    assert.match(out.checks[2]!.message!, /the harness could not finish the check: Error: boom/);
    assert.equal(out.checks[2]!.skipKind, 'not-run', 'a harness exception is never a failed check');
    assert.equal(out.summary.conformant, false);
    assert.match(printed, /Running 3 checks in 1 suite \(token\)/);
    assert.match(printed, /FAIL token\.issue\.token-type \[must, spec 2\.1\]/);
    assert.doesNotMatch(printed, /secret-value-1/);
  } finally {
    process.stdout.write = write;
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});
