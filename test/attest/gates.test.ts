// Declared deviations and the CI baseline on small real runs (the token.issue
// checks against the bundled reference, clean and with the fault
// token-type-mac): a deviation never turns a failed must check into a pass,
// an expired or unused one is reported, the policy decides whether declared
// deviations are acceptable; the baseline passes known failures, fails new
// ones, and names the fixed and stale entries.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';
import { statementOf } from './independent.ts';

const tmp = mkdtempSync(join(tmpdir(), 'pis-gates-'));
const clean = join(tmp, 'clean'), faulty = join(tmp, 'faulty'), key = join(tmp, 'k.key'), pub = join(tmp, 'k.pub');
const devs = join(tmp, 'deviations.yaml');
const RUN = ['run', '--grep', 'token\\.issue\\.'];
let faultyRun = { code: null as number | null, out: '' };

const entry = (what: string, expires: string) =>
  `  - ${what}\n    justification: our tokens are MAC tokens until the migration\n    expires: ${expires}\n    link: https://example.com/waivers/7\n`;

before(async () => {
  assert.equal((await runCli(['keygen', '--out', join(tmp, 'k')])).code, 0);
  writeFileSync(devs, 'deviations:\n' + entry('check: token.issue.token-type', '2999-12-31') + entry('requirement: R2.1-token-type-bearer', '2001-01-01')
    + entry('requirement: R2.1-expires-in', '2999-12-31'));
  const [a, b] = await Promise.all([
    runCli([...RUN, '--report', clean]),
    runCli([...RUN, '--fault', 'token-type-mac', '--report', faulty, '--deviations', devs, '--attest', key]),
  ]);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  faultyRun = { code: b.code, out: b.stdout + b.stderr };
});
after(() => rmSync(tmp, { recursive: true, force: true }));

test('a declared deviation never turns a failed must check into a pass; expired and unused ones are reported', () => {
  assert.equal(faultyRun.code, 1, faultyRun.out);
  assert.match(faultyRun.out, /^Not conformant \(3 declared deviations\)\.$/m);
  assert.match(faultyRun.out, /^Declared deviation: check token\.issue\.token-type \(until 2999-12-31\) covers the failed token\.issue\.token-type/m);
  assert.match(faultyRun.out, /^Expired deviation: requirement R2\.1-token-type-bearer expired on 2001-01-01 and covers the failed token\.issue\.token-type/m);
  assert.match(faultyRun.out, /^Unused deviation: requirement R2\.1-expires-in \(until 2999-12-31\) covers no failed check of this run/m);
  const s = statementOf(readFileSync(join(faulty, 'attestation.intoto.json'), 'utf8'));
  assert.equal(s.predicate.result, 'FAILED');
  assert.deepEqual(s.predicate.failedTests, ['token.issue.token-type']);
  const c = s.predicate.conformance as { verdict: string; verdictLine: string; deviations: { covers: string[]; expired: boolean }[] };
  assert.deepEqual([c.verdict, c.verdictLine], ['not-conformant', 'Not conformant (3 declared deviations)']);
  assert.deepEqual(c.deviations.map(d => [d.covers, d.expired]), [[['token.issue.token-type'], false], [['token.issue.token-type'], true], [[], false]]);
});

test('the declared deviations are in results.json and index.html, written before the certificate digests them', async () => {
  const results = JSON.parse(readFileSync(join(faulty, 'results.json'), 'utf8'));
  assert.equal(results.summary.verdict, 'not-conformant');
  assert.deepEqual(results.deviations.map((d: { check?: string; requirement?: string; covers: string[]; expired: boolean; link: string }) =>
    [d.check ?? d.requirement, d.covers, d.expired, d.link]), [
    ['token.issue.token-type', ['token.issue.token-type'], false, 'https://example.com/waivers/7'],
    ['R2.1-token-type-bearer', ['token.issue.token-type'], true, 'https://example.com/waivers/7'],
    ['R2.1-expires-in', [], false, 'https://example.com/waivers/7'],
  ]);
  const page = readFileSync(join(faulty, 'index.html'), 'utf8');
  assert.match(page, /<p id="deviations-line"><a href="#deviations">3 declared deviations<\/a> \(1 expired\)/);
  assert.equal(page.split('<section id="deviations">')[1]!.split('</section>')[0]!.split('<tr').length - 2, 3);
  assert.match(page, /our tokens are MAC tokens until the migration/);
  assert.equal(JSON.parse(readFileSync(join(clean, 'results.json'), 'utf8')).deviations, undefined);
  assert.doesNotMatch(readFileSync(join(clean, 'index.html'), 'utf8'), /id="deviations/);
  const v = await runCli(['verify', join(faulty, 'attestation.intoto.json'), '--key', pub, '--report', faulty]);
  assert.equal(v.code, 0, v.stdout + v.stderr);
  assert.match(v.stdout, /^Verified: .*checked the files of /m, 'the certificate digests the files with the deviations in them');
});

test('verify --policy: deviations refused unless the policy accepts them, an expired one refused even then', async () => {
  const strict = join(tmp, 'strict.yaml'), lenient = join(tmp, 'lenient.yaml'), current = join(tmp, 'current.yaml');
  writeFileSync(strict, '{}\n');
  writeFileSync(lenient, 'acceptDeviations: true\napiVersions: [3.2.0]\n');
  writeFileSync(current, 'deviations:\n' + entry('check: token.issue.token-type', '2999-12-31'));
  const env = join(faulty, 'attestation.intoto.json'), resigned = join(tmp, 'current.intoto.json');
  assert.equal((await runCli(['attest', faulty, '--key', key, '--deviations', current, '--out', resigned])).code, 0);
  const [s, l, ok] = await Promise.all([
    runCli(['verify', env, '--key', pub, '--report', faulty, '--policy', strict]),
    runCli(['verify', env, '--key', pub, '--report', faulty, '--policy', lenient]),
    runCli(['verify', resigned, '--key', pub, '--report', faulty, '--policy', lenient]),
  ]);
  assert.equal(s.code, 1);
  assert.match(s.stdout, /^The certificate declares a deviation for check token\.issue\.token-type, and the policy does not accept declared deviations/m);
  assert.match(s.stdout, /^token\.issue\.token-type failed\.$/m);
  assert.equal(l.code, 1);
  assert.match(l.stdout, /^The declared deviation for requirement R2\.1-token-type-bearer expired on 2001-01-01\.$/m);
  assert.doesNotMatch(l.stdout, /declares a deviation/);
  // Accepted and unexpired: the failed check no longer refuses; the requirements of the suites this run left out still do.
  assert.equal(ok.code, 1);
  assert.doesNotMatch(ok.stdout, /token\.issue\.token-type failed|R2\.1-token-type-bearer|deviation/);
  assert.match(ok.stdout, /^Requirement R3\.\S+ is not among the passed checks/m);
});

test('a deviations file off its schema, or naming a check that does not exist, stops with exit 2 before anything is signed', async () => {
  const noLink = join(tmp, 'no-link.yaml'), unknown = join(tmp, 'unknown.yaml');
  writeFileSync(noLink, 'deviations:\n  - check: token.issue.token-type\n    justification: x\n    expires: 2999-12-31\n');
  writeFileSync(unknown, 'deviations:\n' + entry('check: token.issue.no-such-check', '2999-12-31'));
  const [a, b, c] = await Promise.all([
    runCli(['attest', clean, '--key', key, '--deviations', noLink, '--out', join(tmp, 'x.json')]),
    runCli(['attest', clean, '--key', key, '--deviations', unknown, '--out', join(tmp, 'y.json')]),
    runCli([...RUN, '--report', join(tmp, 'never'), '--deviations', unknown]),
  ]);
  for (const r of [a, b, c]) assert.deepEqual([r.code, r.stderr.match(/\[(\w+)\]/)?.[1]], [2, 'PIS_BAD_CONFIG'], r.stderr);
  assert.match(a.stderr, /must have required property 'link'/);
  assert.match(b.stderr, /names check token\.issue\.no-such-check, which this tool does not have/);
});

test('--baseline: known failures exit 0, a new failure exits 1; fixed and stale entries are named', async () => {
  // A baseline that also failed a session check this run does not select: a stale entry.
  const withStale = JSON.parse(readFileSync(join(faulty, 'results.json'), 'utf8'));
  const other = withStale.notSelected.find((c: { suite: string }) => c.suite === 'session');
  withStale.notSelected = withStale.notSelected.filter((c: { id: string }) => c.id !== other.id);
  withStale.checks.push({ ...other, status: 'failed', skipKind: undefined, message: 'failed before' });
  const staleBaseline = join(tmp, 'stale-baseline.json');
  writeFileSync(staleBaseline, JSON.stringify(withStale));
  const [fresh, known, fixed] = await Promise.all([
    runCli([...RUN, '--fault', 'token-type-mac', '--report', join(tmp, 'n1'), '--baseline', join(clean, 'results.json')]),
    runCli([...RUN, '--fault', 'token-type-mac', '--report', join(tmp, 'n2'), '--baseline', staleBaseline]),
    runCli([...RUN, '--report', join(tmp, 'n3'), '--baseline', join(faulty, 'results.json')]),
  ]);
  assert.equal(fresh.code, 1, fresh.stdout);
  assert.match(fresh.stdout, /^Baseline: 1 new failure \(token\.issue\.token-type\)\.$/m);
  assert.equal(known.code, 0, known.stdout);
  assert.match(known.stdout, /^Baseline: no new failure\.$/m);
  assert.match(known.stdout, new RegExp(`^Baseline: 1 stale entry \\(${other.id.replace(/\./g, '\\.')}\\): these checks did not run now\\.$`, 'm'));
  assert.equal(fixed.code, 0, fixed.stdout);
  assert.match(fixed.stdout, /^Baseline: 1 fixed \(token\.issue\.token-type\): remove them from the baseline\.$/m);
  const bad = await runCli([...RUN, '--report', join(tmp, 'n4'), '--baseline', join(tmp, 'nothing.json')]);
  assert.deepEqual([bad.code, bad.stderr.match(/\[(\w+)\]/)?.[1]], [2, 'PIS_BAD_INPUT']);
});
