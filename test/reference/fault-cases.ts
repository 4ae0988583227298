// The shape every reference fault test shares: one probe, run against a clean
// reference and against one with the fault (or quirk) on, each answer compared
// with what that reference must show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Reference } from '../../harness/reference/index.ts';
import { RefClient, withReference } from './api/client.ts';

/** What a client sees at one reference; the test compares clean and faulty. */
type Probe = (c: RefClient, ref: Reference) => Promise<unknown>;

export interface FaultCase { name: string; probe: Probe; clean: unknown; faulty: unknown }

/** One `it` per case inside `describe(title)`; `more` adds tests to the same describe. */
export function describeFaultCases(title: string, cases: readonly FaultCase[], more?: () => void): void {
  describe(title, () => {
    let clean: { ref: Reference; client: RefClient };
    before(async () => { clean = await withReference(); });
    after(() => clean.ref.close());

    for (const k of cases) {
      it(k.name, async () => {
        const faulty = await withReference({ faults: [k.name] });
        try {
          assert.deepEqual(await k.probe(clean.client, clean.ref), k.clean, 'the clean reference');
          assert.deepEqual(await k.probe(faulty.client, faulty.ref), k.faulty, `the reference with ${k.name}`);
        } finally { await faulty.ref.close(); }
      });
    }
    more?.();
  });
}
