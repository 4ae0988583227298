import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDERERS, ReportWriter, writeReportFiles, type Renderer } from '../../harness/report/writer.ts';
import { Redactor } from '../../harness/report/redact.ts';
import type { CheckResult, RunResults } from '../../harness/results/model.ts';
import { runCli } from '../helpers/cli.ts';

const check = (over: Partial<CheckResult>): CheckResult => ({
  id: 'token.issue.contract', suite: 'token', title: 'Token response follows 2.1', spec: '2.1', level: 'must',
  status: 'passed', evidence: [], durationMs: 12, ...over,
});

test('writes jsonl as it goes, then json, junit and html, without secrets; a failed should does not decide', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  try {
    const w = new ReportWriter(dir, { command: 'run', target: { baseUrl: 'http://x' }, timeScale: 0.1 }, new Redactor().add('the-client-secret'));
    w.add(check({}));
    assert.equal(readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').length, 1);
    w.add(check({ id: 'token.issue.no-store', level: 'should', status: 'failed', message: 'no Cache-Control', seen: 'secret the-client-secret',
      evidence: [{ kind: 'note', text: 'Authorization: Bearer abc' }] }));
    const r = w.finish();
    assert.equal(r.summary.conformant, true);
    assert.deepEqual([r.summary.passed, r.summary.failed, r.summary.skipped], [1, 1, 0]);
    assert.deepEqual(readdirSync(dir).sort(), ['index.html', 'junit.xml', 'plan.json', 'results.json', 'results.jsonl']);
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), 'utf8');
      assert.equal(text.includes('the-client-secret'), false, f);
      assert.equal(text.includes('Bearer abc'), false, f);
    }
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /tests="2" failures="0"/);
    assert.match(readFileSync(join(dir, 'index.html'), 'utf8'), /data-conformant="true"/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('resultsOnly (a proof part of a batch): plan.json and results.json alone, results.json as the full report writes it', () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'pis-report-')), mkdtempSync(join(tmpdir(), 'pis-report-'))];
  try {
    const written = dirs.map((dir, i) => {
      const w = new ReportWriter(dir, { command: 'run', target: { baseUrl: 'http://x' }, timeScale: 0.1 }, new Redactor().add('the-client-secret'),
        undefined, { resultsOnly: i === 1 });
      w.add(check({}));
      w.add(check({ id: 'token.issue.no-store', level: 'should', status: 'failed', seen: 'secret the-client-secret',
        evidence: [{ kind: 'note', text: 'Authorization: Bearer abc' }] }));
      w.finish();
      // Its two times apart, results.json is the same text.
      return readFileSync(join(dir, 'results.json'), 'utf8').replace(/"(startedAt|finishedAt)": "[^"]*"/g, '"$1": ""');
    });
    assert.deepEqual(readdirSync(dirs[1]!).sort(), ['plan.json', 'results.json']);
    assert.equal(written[1], written[0]);
    assert.equal(written[1]!.includes('the-client-secret'), false);
  } finally { for (const d of dirs) rmSync(d, { recursive: true, force: true }); }
});

test('finish redacts a check again only when a secret was registered after the check was added', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  try {
    const redactor = new Redactor().add('the-client-secret');
    const w = new ReportWriter(dir, { command: 'run', target: {}, timeScale: 1 }, redactor);
    const early = w.add(check({ id: 'token.issue.contract', seen: 'key-learned-later-1234' }));
    // A key the owner (the sink, certify-receiver) registers after that check finished: results.json hides it all the same.
    redactor.add('key-learned-later-1234', 'PIS_WEBHOOK_API_KEY');
    const late = w.add(check({ id: 'token.issue.no-store', seen: 'key-learned-later-1234' }));
    let calls = 0;
    const result = redactor.result.bind(redactor);
    redactor.result = c => { calls++; return result(c); };
    const r = w.finish();
    assert.equal(readFileSync(join(dir, 'results.json'), 'utf8').includes('key-learned-later-1234'), false);
    assert.deepEqual(r.checks.map(c => c.seen), ['[redacted]', '[redacted]']);
    assert.equal(calls, 1, 'the check added before the key is redacted again, the one added after it is not');
    assert.notEqual(r.checks[0], early);
    assert.equal(r.checks[1], late);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a failed must makes the run not conformant and is a JUnit failure', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  try {
    const w = new ReportWriter(dir, { command: 'run', target: {}, timeScale: 1 }, new Redactor());
    w.add(check({ status: 'failed', message: 'expected bearer, seen mac', expected: 'bearer', seen: 'mac' }));
    const r = w.finish();
    assert.equal(r.summary.conformant, false);
    assert.match(readFileSync(join(dir, 'junit.xml'), 'utf8'), /<failure message="expected bearer, seen mac"/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('`report DIR` on a killed run (results.jsonl, no results.json): Interrupted, the selected checks without a result not run; ' +
  'an empty folder is exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  try {
    const selected = ['token.issue.access-token', 'token.issue.expires-in', 'token.refresh.answers-tokens']
      .map(id => ({ id, suite: 'token' as const, title: id, spec: '2.1', level: 'must' as const }));
    const w = new ReportWriter(dir, { command: 'run', target: {}, timeScale: 1, selection: { suites: ['token'] } }, new Redactor(), { selected });
    w.add(check({ id: 'token.issue.access-token', status: 'failed' }));
    appendFileSync(join(dir, 'results.jsonl'), '{"id":"token.issue.expires-in","sta'); // killed while writing the second line
    const ok = await runCli(['report', dir]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^Interrupted: 0 passed, 1 failed, 2 skipped \(2 not run\)\./m);
    const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.equal(r.summary.verdict, 'interrupted');
    assert.equal(r.summary.conformant, false);
    assert.deepEqual(r.checks.map(c => [c.id, c.status, c.skipKind ?? '']), [
      ['token.issue.access-token', 'failed', ''], ['token.issue.expires-in', 'skipped', 'not-run'], ['token.refresh.answers-tokens', 'skipped', 'not-run']]);
    assert.match(r.checks[1]!.message!, /the run was stopped before this check finished/);
    assert.deepEqual(r.selection, { suites: ['token'] });
    assert.match(readFileSync(join(dir, 'index.html'), 'utf8'), /<h1 id="verdict" data-verdict="interrupted"/);
    const empty = mkdtempSync(join(tmpdir(), 'pis-report-empty-'));
    const bad = await runCli(['report', empty]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^pis-conformance report: \[PIS_BAD_INPUT\] /);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    rmSync(empty, { recursive: true });
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a reused report folder loses the old report first: report DIR rebuilds the new run, never the old one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  try {
    const old = new ReportWriter(dir, { command: 'run', target: {}, timeScale: 1 }, new Redactor());
    old.add(check({ id: 'token.issue.expires-in' }));
    old.finish();
    const selected = [{ id: 'token.issue.access-token', suite: 'token' as const, title: 't', spec: '4.1', level: 'must' as const }];
    const again = new ReportWriter(dir, { command: 'run', target: {}, timeScale: 1 }, new Redactor(), { selected });
    assert.deepEqual(readdirSync(dir).sort(), ['plan.json', 'results.jsonl']);
    again.add(check({ id: 'token.issue.access-token' }));
    const r = await runCli(['report', dir]);
    assert.equal(r.code, 0, r.stderr);
    const rebuilt = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.deepEqual(rebuilt.checks.map(c => c.id), ['token.issue.access-token']);
    assert.equal(rebuilt.summary.verdict, 'interrupted');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a --report folder holding other files is refused at start, exit 2, and left as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  try {
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await runCli(['run', '--suites', 'token', '--report', dir]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^pis-conformance run: \[PIS_BAD_FLAG\] The report folder .* holds files but no report/);
    assert.deepEqual(readdirSync(dir), ['notes.txt']);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a renderer that throws costs only its file: results.json and the other files are written, stderr names it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-report-'));
  const write = process.stderr.write;
  let said = '';
  try {
    process.stderr.write = ((s: string) => { said += s; return true; }) as typeof process.stderr.write;
    const w = new ReportWriter(dir, { command: 'run', target: {}, timeScale: 1 }, new Redactor());
    w.add(check({}));
    const results = w.finish();
    const broken: Renderer = { name: 'HTML', file: 'index.html', render: () => { throw new Error('boom'); } };
    const failed = writeReportFiles(dir, results, [RENDERERS[0]!, broken]);
    process.stderr.write = write;
    assert.deepEqual(failed, ['HTML']);
    assert.ok(existsSync(join(dir, 'results.json')) && existsSync(join(dir, 'junit.xml')));
    assert.equal(existsSync(join(dir, 'index.html')), false);
    assert.match(said, /the HTML report \(index\.html\) could not be written \(boom\); results\.json holds every result/);
  } finally { process.stderr.write = write; rmSync(dir, { recursive: true, force: true }); }
});
