// Harness errors are a contract: each has a code, the code is printed with the
// sentence, and docs/errors.md lists exactly the codes harness/errors.ts defines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES } from '../../harness/errors.ts';
import { ROOT, runCli } from '../helpers/cli.ts';

test('docs/errors.md documents every code, and every documented code exists', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
  const documented = [...doc.matchAll(/^\| `(PIS_[A-Z_]+)` \|/gm)].map(m => m[1]).sort();
  assert.deepEqual(documented, Object.keys(ERROR_CODES).sort());
});

test('an unknown command prints PIS_UNKNOWN_COMMAND with its sentence, exit 2', async () => {
  const r = await runCli(['frobnicate']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^pis-conformance: \[PIS_UNKNOWN_COMMAND\] unknown command 'frobnicate': .*\n$/);
});

test('a harness error prints the command and its code before the sentence', async () => {
  const r = await runCli(['report', '--bogus', 'x']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^pis-conformance report: \[PIS_BAD_FLAG\] /);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});
