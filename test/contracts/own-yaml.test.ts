// The package's own YAML files are parsed once per content (harness/own-yaml.ts):
// the kept JSON stands for the text it was parsed from, an edit is parsed
// anew, a value JSON would change is never kept, and a cache that cannot be
// written is passed over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readOwnYaml } from '../../harness/own-yaml.ts';

test('a file is parsed once per content: the kept value is read back, an edited file parsed again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-own-yaml-'));
  try {
    const cache = join(dir, 'cache'), file = join(dir, 'a.yaml');
    writeFileSync(file, 'a: 1\nlist: [x, y]\n');
    assert.deepEqual(readOwnYaml(file, cache), { a: 1, list: ['x', 'y'] });
    const [kept] = readdirSync(cache);
    assert.match(kept!, /^[0-9a-f]{64}\.json$/);
    // What was kept is what is read: a second read takes the kept JSON, not the parser.
    writeFileSync(join(cache, kept!), JSON.stringify({ a: 'from the cache' }));
    assert.deepEqual(readOwnYaml(file, cache), { a: 'from the cache' });
    writeFileSync(file, 'a: 2\n');
    assert.deepEqual(readOwnYaml(file, cache), { a: 2 });
    assert.equal(readdirSync(cache).length, 2);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a value JSON would change is not kept; a cache that cannot be written is passed over; bad YAML throws the parser\'s error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-own-yaml-'));
  try {
    const cache = join(dir, 'cache'), file = join(dir, 'b.yaml');
    writeFileSync(file, 'big: .inf\n');
    assert.deepEqual(readOwnYaml(file, cache), { big: Infinity });
    assert.equal(existsSync(cache), false, 'nothing kept');
    // A file where the cache folder should be: nothing can be kept, the value still comes.
    writeFileSync(join(dir, 'blocked'), '');
    writeFileSync(file, 'ok: true\n');
    assert.deepEqual(readOwnYaml(file, join(dir, 'blocked')), { ok: true });
    writeFileSync(file, 'a: [1, 2\n');
    assert.throws(() => readOwnYaml(file, cache), (e: Error) => e.name === 'YAMLParseError');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('the contracts and the catalog read through the cache equal their parse', () => {
  for (const f of ['contracts/requirements.yaml', 'contracts/proofs.yaml', 'harness/reference/catalog.yaml']) {
    const url = new URL(`../../${f}`, import.meta.url);
    assert.deepEqual(readOwnYaml(url), parse(readFileSync(url, 'utf8')), f);
  }
});
