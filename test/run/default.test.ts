// `npm start` is `run` with no flags: the bundled reference on a compressed
// clock, every suite that exists, a conformant verdict and the report's path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/report/model.ts';
import { availableSuites } from '../../harness/runner/playwright.ts';
import { SUITES } from '../../harness/target/config.ts';
import { runCli } from '../helpers/cli.ts';

test('run with no target runs every suite against the bundled reference and is conformant', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-default-'));
  try {
    const r = await runCli(['run', '--report', dir], { timeoutMs: 240_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Started the bundled reference implementation at http:\/\/127\.0\.0\.1:\d+\/api \(time scale 0\.1\)/);
    assert.match(r.stdout, /\nConformant: \d+ passed, 0 failed, \d+ skipped\.\nReport: .*index\.html\n/);
    assert.ok(existsSync(join(dir, 'index.html')));
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    assert.deepEqual([...new Set(results.checks.map(c => c.suite))].sort(), availableSuites(SUITES).sort());
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
