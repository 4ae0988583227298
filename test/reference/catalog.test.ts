// catalog.ts: the shipped catalog loads and has a fault for every prefix the
// reference serves, and broken catalogs are refused with a reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { FAULTS, QUIRKS, describeCatalog, findEntry, parseCatalog, recordingReads, resolveFaults } from '../../harness/reference/catalog.ts';

describe('fault and quirk catalog', () => {
  it('loads every fault with a prefix and level, and every quirk', () => {
    assert.ok(FAULTS.length >= 20 && QUIRKS.length >= 7);
    for (const area of ['token.', 'session.', 'data.', 'payments.', 'webhook.'])
      assert.ok(FAULTS.some(f => f.prefix.startsWith(area)), `a fault under ${area}`);
    assert.equal(findEntry('webhook-no-retry')?.kind, 'fault');
    assert.equal(findEntry('extra-fields')?.kind, 'quirk');
    assert.equal(findEntry('nope'), undefined);
  });

  it('resolves names, ignoring blanks, and refuses unknown ones', () => {
    assert.deepEqual([...resolveFaults(['token-type-mac', ' ', 'extra-fields'])], ['token-type-mac', 'extra-fields']);
    assert.throws(() => resolveFaults(['token-type-mac', 'typo']), /'typo' is not a fault or quirk/);
  });

  it('records every name asked about, switched on or not, and answers as the set does', () => {
    const log = new Set<string>();
    const view = recordingReads(new Set(['token-type-mac']), log);
    assert.equal(view.has('token-type-mac'), true);
    assert.equal(view.has('extra-fields'), false);
    assert.deepEqual([...log], ['token-type-mac', 'extra-fields']);
    assert.deepEqual([...view], ['token-type-mac']);
  });

  it('a quirk\'s config is a --config file of the repository that holds a description', () => {
    const described = QUIRKS.filter(q => q.config);
    assert.ok(described.some(q => q.name === 'renamed-fields'));
    for (const q of described) assert.match(readFileSync(new URL(`../../${q.config}`, import.meta.url), 'utf8'), /^description:/m, q.name);
    const parsed = parseCatalog(JSON.stringify({ faults: [], quirks: [{ name: 'q', description: 'd', spec: '1', config: 'x.yaml' }] }));
    assert.equal(parsed.quirks[0]!.config, 'x.yaml');
    assert.throws(() => parseCatalog(JSON.stringify({ faults: [], quirks: [{ name: 'q', description: 'd', config: '' }] })), /'config' must be a non-empty/);
  });

  it('lists every name in --list-faults', () => {
    const text = describeCatalog();
    for (const e of [...FAULTS, ...QUIRKS]) assert.ok(text.includes(e.name), e.name);
  });

  it('refuses a duplicate name, a bad level, a bad prefix and a missing list', () => {
    const fault = (over: Record<string, string>) => ({ name: 'a-b', description: 'd', spec: '1', prefix: 'token.issue', level: 'must', ...over });
    const text = (faults: unknown[]) => JSON.stringify({ faults, quirks: [] });
    assert.throws(() => parseCatalog(text([fault({}), fault({})])), /appears twice/);
    assert.throws(() => parseCatalog(text([fault({ level: 'may' })])), /level must be/);
    assert.throws(() => parseCatalog(text([fault({ prefix: 'token' })])), /prefix/);
    assert.throws(() => parseCatalog(text([fault({ name: 'Bad Name' })])), /lower-case/);
    assert.throws(() => parseCatalog('faults: []'), /'quirks' list/);
  });
});
