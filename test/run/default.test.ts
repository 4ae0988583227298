// `npm start` is `run` with no flags: the bundled reference on a compressed
// clock, every suite that exists, no failed must check, and the report's path.
// Until the bundled reference's token lifetime fits the default --max-wait,
// token.expiry.old-token-refused does not run there and the honest verdict is
// Incomplete (exit 1); this test then asserts that nothing else kept the run
// from Conformant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/report/model.ts';
import { availableSuites } from '../../harness/runner/playwright.ts';
import { SUITES } from '../../harness/target/config.ts';
import { runCli } from '../helpers/cli.ts';

test('run with no target runs every suite against the bundled reference; no must check fails', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-default-'));
  try {
    const r = await runCli(['run', '--report', dir], { timeoutMs: 240_000 });
    assert.match(r.stdout, /Started the bundled reference implementation at http:\/\/127\.0\.0\.1:\d+\/api \(time scale 0\.1\)/);
    assert.ok(existsSync(join(dir, 'index.html')));
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const out = r.stdout + r.stderr;
    assert.deepEqual(results.checks.filter(c => c.status === 'failed').map(c => c.id), [], out);
    if (results.summary.verdict === 'conformant') {
      assert.equal(r.code, 0, out);
      assert.match(r.stdout, /\nConformant: \d+ passed, 0 failed, \d+ skipped[^\n]*\.\nReport: .*index\.html\n/);
    } else {
      assert.equal(results.summary.verdict, 'incomplete', out);
      assert.equal(r.code, 1, out);
      assert.match(r.stdout, /\nIncomplete: \d+ passed, 0 failed, \d+ skipped \(\d+ not run\)\.\n(Not run: [^\n]+\.\n)+Report: .*index\.html\n/);
    }
    assert.deepEqual([...new Set(results.checks.map(c => c.suite))].sort(), availableSuites(SUITES).sort());
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
