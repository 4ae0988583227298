// What --grep selects: a run that selects no check could not be made (exit 2 with one sentence, no
// report folder, reports/latest unchanged); requirement ids select their checks as ids and titles do;
// `run --list`, Playwright's own selection and a run agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from '../helpers/cli.ts';
import { selectChecks } from '../../harness/cli/selection.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import { CATALOG } from '../../suites/catalog/index.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { resolveTarget } from '../../harness/config/config.ts';
import { splitTarget } from '../../harness/config/env.ts';
import { testContextEnv } from '../helpers/context.ts';

test('--grep that matches no check: exit 2, no report written, reports/latest unchanged', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pis-selection-'));
  try {
    const reports = join(root, 'reports');
    mkdirSync(join(reports, 'previous'), { recursive: true });
    symlinkSync('previous', join(reports, 'latest'));
    const r = await runCli(['run', '--suites', 'token', '--grep', 'nothing-matches-this', '--report', join(reports, 'new')], { timeoutMs: 120_000 });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /^pis-conformance run: \[PIS_BAD_FLAG\] .*--grep 'nothing-matches-this'/m);
    assert.equal(existsSync(join(reports, 'new')), false, 'no report folder');
    assert.equal(readlinkSync(join(reports, 'latest')), 'previous');
  } finally { rmSync(root, { recursive: true, force: true }); }
});

test('--grep matches the requirement ids --list shows, in --list and in a run (Playwright tags), as it matches ids and titles', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-grep-req-'));
  try {
    const list = await runCli(['run', '--list', '--grep', 'R4\\.1-obtain-token']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^token\.issue\.access-token +must +spec 4\.1 +R2\.1-access-token,R4\.1-obtain-token /m);
    assert.match(list.stdout, /^1 check in 1 suite \(token\)/m);
    // Before: 'No check matches --grep', exit 2.
    const r = await runCli(['run', '--suites', 'token', '--grep', 'R4\\.1-obtain-token', '--workers', '1', '--report', dir], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^ok {3}token\.issue\.access-token /m);
    assert.match(r.stdout, /Conformant: 1 passed, /);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

// One selection: the ids `run --list` prints are the ids Playwright's own --grep and file filters select (its
// --list, on the same config and a run context like run's), for every form a selection takes; and a run executes them.
const TABLE: { name: string; args: string[]; playwright: string[] }[] = [
  { name: 'an id in capitals (Playwright matches case-insensitively)', args: ['--grep', 'TOKEN.ISSUE'], playwright: ['--grep', 'TOKEN.ISSUE'] },
  { name: 'an id prefix', args: ['--grep', 'token.issue'], playwright: ['--grep', 'token.issue'] },
  { name: 'a /re/ pattern (keeps its case)', args: ['--grep', '/token\\.refresh/'], playwright: ['--grep', '/token\\.refresh/'] },
  { name: 'a /re/ pattern of the wrong case', args: ['--grep', '/Session\\./i'], playwright: ['--grep', '/Session\\./i'] },
  { name: 'a file name (part of the title path)', args: ['--grep', 'session\\.spec'], playwright: ['--grep', 'session\\.spec'] },
  { name: 'a requirement id (a tag)', args: ['--grep', 'R4\\.1-obtain-token'], playwright: ['--grep', 'R4\\.1-obtain-token'] },
  { name: 'a title word', args: ['--grep', 'bearer'], playwright: ['--grep', 'bearer'] },
  { name: '--suites', args: ['--suites', 'session,data'], playwright: ['session\\.spec\\.ts$', 'data\\.spec\\.ts$'] },
  { name: '--grep-invert', args: ['--grep-invert', 'TOKEN|webhook'], playwright: ['--grep-invert', 'TOKEN|webhook'] },
  { name: '--grep and --grep-invert', args: ['--grep', 'token', '--grep-invert', '/refresh|R4\\.1/'],
    playwright: ['--grep', 'token', '--grep-invert', '/refresh|R4\\.1/'] },
];

const execFileAsync = promisify(execFile);

async function listed(args: string[]): Promise<string[]> {
  const r = await runCli(['run', '--list', '--reporter', 'json', ...args]);
  if (r.code === 2 && /No check matches/.test(r.stderr)) return [];
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim().split('\n').map(l => (JSON.parse(l) as { id: string }).id).sort();
}

/** Playwright's own --list of the suites with `args`, in a run context of the bundled reference's latest version. */
async function playwrightListed(args: string[]): Promise<string[]> {
  const target = splitTarget(resolveTarget({ authUrl: 'http://127.0.0.1:9/auth', realm: 'r', clientId: 'c', baseUrl: 'http://127.0.0.1:9/api',
    controlUrl: 'http://127.0.0.1:9/control', clientSecret: 's' }));
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const env: NodeJS.ProcessEnv = { ...process.env, ...testContextEnv(target.open) };
  delete env.NODE_TEST_CONTEXT;
  const { stdout: out } = await execFileAsync(process.execPath, [cli, 'test', '-c', join(ROOT, 'suites/playwright.config.ts'), '--list', '--reporter', 'json',
    ...args], { env, cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 });
  interface PwSuite { specs?: { title: string }[]; suites?: PwSuite[] }
  const titles = (s: PwSuite): string[] => [...(s.specs ?? []).map(t => t.title), ...(s.suites ?? []).flatMap(titles)];
  return titles({ suites: (JSON.parse(out) as { suites: PwSuite[] }).suites }).map(t => t.split(' ')[0]!).sort();
}

test('run --list selects what Playwright selects, for every form of a selection (before: TOKEN.ISSUE, /re/ and file names disagreed)', async () => {
  // Two rows at a time: each starts two processes, and the machine may be shared.
  for (let i = 0; i < TABLE.length; i += 2) {
    await Promise.all(TABLE.slice(i, i + 2).map(async row => {
      const [ours, theirs] = await Promise.all([listed(row.args), playwrightListed(row.playwright)]);
      assert.deepEqual(ours, theirs, row.name);
    }));
  }
  assert.ok((await listed(['--grep', 'TOKEN.ISSUE'])).length > 0, 'a selection in capitals selects checks (before: none)');
});

test('a run executes the checks run --list prints, and no other', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-list-run-'));
  try {
    const args = ['--suites', 'token,session', '--grep', '/token\\.issue|session\\.lifecycle\\.create/'];
    const ids = await listed(args);
    assert.ok(ids.length >= 2, ids.join(','));
    const r = await runCli(['run', ...args, '--workers', '1', '--report', dir], { timeoutMs: 300_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.deepEqual(results.checks.map(c => c.id).sort(), ids);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('every check the selection leaves out names the option that did, in the order the options apply', () => {
  const choice = { suites: ['token'], grep: 'token\\.issue', grepInvert: 'no-store', profile: false, apiVersion: LATEST_API_VERSION };
  const { checks, notSelected } = selectChecks(CATALOG, choice);
  assert.equal(checks.length + notSelected.length, CATALOG.length, 'every check is either selected or left out');
  const why = new Map(notSelected.map(n => [n.id, n.reason]));
  assert.equal(why.get('session.lifecycle.create'), '--suites token');
  assert.equal(why.get('token.refresh.renews-tokens'), "--grep 'token\\.issue'");
  assert.equal(why.get('token.issue.no-store'), "--grep-invert 'no-store'");
  assert.ok(checks.every(c => c.suite === 'token' && c.level !== 'profile' && c.id.startsWith('token.issue.')), checks.map(c => c.id).join(','));
  // Profile checks are left out before --grep applies: each says --no-profile (or, at another version, the version).
  const profiles = CATALOG.filter(c => c.suite === 'token' && c.level === 'profile').map(c => why.get(c.id));
  assert.ok(profiles.length > 0 && profiles.includes('--no-profile'), profiles.join(', '));
  assert.ok(profiles.every(r => r === '--no-profile' || r!.startsWith('--api-version')), profiles.join(', '));
});
