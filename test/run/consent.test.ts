// The browser consent driver in a real run: Chromium opens the reference
// bank's interactive page (a script that starts with goto) and clicks Approve;
// the session suite then sees the consent work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { runCli } from '../helpers/cli.ts';

test('the browser driver runs the consent script in Chromium', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-browser-'));
  try {
    const script = join(dir, 'consent.yaml');
    writeFileSync(script, "- goto: '{href}?interactive=1'\n- click: '#approve'\n");
    const r = await runCli(['run', '--suites', 'session', '--grep', 'session.lifecycle.consent ', '--consent-script', script, '--report', join(dir, 'report')],
      { timeoutMs: 180_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(join(dir, 'report', 'results.json'), 'utf8')) as RunResults;
    const c = results.checks.find(x => x.id === 'session.lifecycle.consent');
    assert.equal(c?.status, 'passed', JSON.stringify(c));
    assert.ok(c!.evidence.some(e => e.kind === 'note' && /browser consent: ran 2 script steps/.test(e.text)), JSON.stringify(c!.evidence));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
