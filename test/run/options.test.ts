// --grep picks checks by id and --no-profile leaves profile-level checks out;
// the progress line of every check reaches the terminal as it finishes; every
// report file records the selection, and the checks left out are listed as
// not selected, each with the option that left it out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { runCli } from '../helpers/cli.ts';
import { CATALOG } from '../../suites/catalog/index.ts';

test('--grep and --no-profile narrow the run, the report records the selection and lists the rest as not selected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-options-'));
  try {
    const r = await runCli(['run', '--suites', 'token', '--grep', 'token\\.errors\\.', '--no-profile', '--report', dir], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const ran = results.checks.filter(c => c.skipKind !== 'not-selected');
    assert.ok(ran.length >= 5, `${ran.length} checks`);
    assert.ok(ran.every(c => c.id.startsWith('token.errors.') && c.level === 'must'), ran.map(c => `${c.id} ${c.level}`).join(', '));
    for (const c of ran) assert.match(r.stdout, new RegExp(`ok   ${c.id.replace(/\./g, '\\.')} `));
    assert.deepEqual(results.selection,
      { suites: ['token'], grep: 'token\\.errors\\.', profile: false, timeScale: 0.1, maxWaitS: 60, allowIncomplete: false, apiVersion: '3.2.0' });
    // Every other check of the catalog is listed, with the option that left it out; none counts as skipped.
    assert.ok(ran.length === results.checks.length, 'checks holds only what was selected');
    const notSelected = results.notSelected ?? [];
    assert.ok(notSelected.every(c => c.status === 'skipped' && c.skipKind === 'not-selected'));
    const all = CATALOG.filter(c => c.suite !== 'receiver');
    assert.equal(ran.length + notSelected.length, all.length);
    const reason = (id: string) => notSelected.find(c => c.id === id)?.message;
    assert.equal(reason('token.refresh.renews-tokens'), "not selected: --grep 'token\\.errors\\.'");
    assert.equal(reason('session.lifecycle.create'), 'not selected: --suites token');
    assert.match(reason(CATALOG.find(c => c.suite === 'token' && c.level === 'profile' && c.id.startsWith('token.errors.'))!.id) ?? '', /--no-profile/);
    assert.deepEqual([results.summary.verdict, results.summary.skipped, results.summary.notSelected], ['conformant', 0, notSelected.length]);
    assert.match(r.stdout, new RegExp(`Conformant: ${ran.length} passed, 0 failed, 0 skipped, ${notSelected.length} not selected\\.\\nReport: .*index\\.html`));
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    assert.equal((junit.match(/<testcase /g) ?? []).length, ran.length, 'not-selected checks are no testcases');
    assert.match(junit, /<property name="selection.grep" value="token\\.errors\\."\/>/);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    assert.match(html, /<p class="run" id="selection">suites token · grep &#39;token\\.errors\\.&#39; · profile checks off/);
    assert.match(html, new RegExp(`<summary>${notSelected.length} checks not selected</summary>`));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
