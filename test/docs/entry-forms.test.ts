// The pages show the command only in forms whose process is the command
// itself (bin/pis-conformance.mjs): a wrapper that runs harness/cli.ts as a
// child (`npx tsx harness/cli.ts`) is not offered as a way to run it, since a
// SIGKILL of the wrapper leaves the run going and a Ctrl-C may end it without a verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`)];

test('no page offers a wrapper form of the command; docs/cli.md names the binary from a checkout', () => {
  const offered = PAGES.flatMap(p => readFileSync(join(ROOT, p), 'utf8').split('\n').map((l, i) => ({ p, i, l })))
    .filter(({ l }) => /`(npx )?tsx harness\/cli\.ts[^`]*`/.test(l))
    .map(({ p, i, l }) => `${p}:${i + 1}: ${l.trim()}`);
  assert.deepEqual(offered, []);
  assert.match(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8'), /from a checkout: `node bin\/pis-conformance\.mjs \.\.\.`/);
});
