// The catalog's names as types (harness/reference/catalog-names.ts) are those of catalog.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CATALOG_NAMES_FILE, catalogNames } from '../../scripts/catalog-names.ts';
import { resolveFaults } from '../../harness/reference/catalog.ts';
import type { CatalogName } from '../../harness/reference/catalog-names.ts';

test('harness/reference/catalog-names.ts is up to date (run npx tsx scripts/catalog-names.ts)', () => {
  assert.equal(readFileSync(CATALOG_NAMES_FILE, 'utf8'), catalogNames());
});

test('a name the catalog does not have fails the type-check where the reference asks about it', () => {
  const switchedOn: ReadonlySet<CatalogName> = resolveFaults(['webhook-global-retry-queue']);
  // @ts-expect-error 'webhook-global-retry-queu' is no name of catalog.yaml (tsc fails here if the type stops catching it)
  assert.equal(switchedOn.has('webhook-global-retry-queu'), false);
  assert.equal(switchedOn.has('webhook-global-retry-queue'), true);
});
