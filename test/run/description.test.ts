// A target whose bodies use other names than docs/profile.md (the reference's
// renamed-fields quirk): with the description that says where its values live
// the run is conformant (test/run/catalog.test.ts runs it); without it, the
// run is not judged conformant, and the failure names the description key that
// would place the value, so the target learns what to describe. A product the
// description names for a bank is judged there, never taken as not offered.
import { it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { cleanup, runReference } from './runs.ts';

it('renamed-fields without its description: not conformant, and the failure names where it looked and the description key', async () => {
  const run = await runReference(['renamed-fields'], [], 'session');
  try {
    const out = `${run.cli.stdout}\n${run.cli.stderr}`;
    assert.equal(run.cli.code, 1, out);
    const failed = (run.results?.checks ?? []).filter(c => c.status === 'failed' && c.level === 'must');
    assert.ok(failed.length, out);
    for (const c of failed) assert.match(`${c.expected ?? ''}`, /at \/\S+ \(description [a-z-]+\.[a-z-]+\)/, `${c.id}: ${c.expected}`);
  } finally { cleanup(run); }
});

/** The payments suite against the reference with `quirk`, the description naming `product` at `bankId`: the product's initiation fails there. */
function describedProductJudged(quirk: string, bankId: string, product: string, check: string): void {
  it(`a product the description names for a bank is judged there: ${quirk} with ${product} described at ${bankId} fails ${check}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pis-described-'));
    const config = join(dir, 'config.yaml');
    writeFileSync(config, `description:\n  products:\n    ${bankId}: [${product}]\n`);
    const run = await runReference([quirk], ['--config', config], 'payments');
    try {
      const out = `${run.cli.stdout}\n${run.cli.stderr}`;
      const initiate = run.results?.checks.find(c => c.id === check);
      assert.equal(initiate?.status, 'failed', out);
      assert.match(String(initiate?.message), new RegExp(bankId));
    } finally { cleanup(run); rmSync(dir, { recursive: true, force: true }); }
  });
}

describedProductJudged('bank-without-sepa', 'dnb-no', 'sepa-credit', 'payments.sepa.initiate');
// Without the description the quirk is Conformant (test/run/catalog.test.ts): the refusal is noted, not judged.
describedProductJudged('bank-without-domestic', 'deutsche-de', 'domestic-transfer', 'payments.domestic.initiate');
