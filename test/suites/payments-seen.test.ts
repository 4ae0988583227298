// What a failed payment check shows in `seen` says what the domain value in
// it means: an error status with errorCode 1428 is no refusal but a payment
// created and sent to strong customer authentication.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { runCli } from '../helpers/cli.ts';

test('payments.domestic.requires-e2e at a bank with strong customer authentication explains 1428 first in seen', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-payments-seen-'));
  try {
    const r = await runCli(['run', '--fault', 'payments-no-e2e-check', '--suites', 'payments', '--grep', 'payments\\.domestic\\.requires-e2e',
      '--workers', '1', '--report', dir], { timeoutMs: 120_000 });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
    const check = results.checks.find(c => c.id === 'payments.domestic.requires-e2e');
    assert.equal(check?.status, 'failed');
    // Before: 'seen 510 {"errorCode":"1428",...}' after 'expected an error answer', which reads as a contradiction.
    assert.match(check?.seen ?? '', /^errorCode 1428, which means the payment was created and sent to strong customer authentication \(docs\/profile\.md\), so it was accepted: 510 /);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
