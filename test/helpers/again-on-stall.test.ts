// A `run` against a target the test process serves is made again when its
// pre-flight saw no complete answer in time (test/helpers/cli.ts,
// againOnStall), up to twice; every other outcome, a harness error of another
// kind included, is the run's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { againOnStall, type CliResult } from './cli.ts';

const STALL: CliResult = { code: 2, stdout: '', stderr: '[PIS_UNREACHABLE] The token endpoint at http://127.0.0.1:1/t gave no complete answer within 3000 ms: ' +
  'a target answers such a call at once; check the URL and that it points at the right server.\n' };
const REFUSED: CliResult = { code: 2, stdout: '', stderr: '[PIS_UNREACHABLE] The token endpoint at http://127.0.0.1:1/t refused the connection (ECONNREFUSED)\n' };
const DONE: CliResult = { code: 0, stdout: 'Conformant', stderr: '' };

/** The results in turn, and how many were asked for. */
function made(...results: CliResult[]) {
  const m = { count: 0, next: async () => results[Math.min(m.count++, results.length - 1)]! };
  return m;
}

test('a pre-flight stall is made again until the run gets past it, up to twice', async () => {
  const once = made(STALL, DONE);
  assert.equal(await againOnStall(once.next, 1), DONE);
  assert.equal(once.count, 2);
  const always = made(STALL);
  assert.equal(await againOnStall(always.next, 1), STALL);
  assert.equal(always.count, 3);
});

test('any other outcome is not made again', async () => {
  for (const r of [DONE, REFUSED, { ...STALL, code: 1 }]) {
    const m = made(r, DONE);
    assert.equal(await againOnStall(m.next, 1), r);
    assert.equal(m.count, 1, r.stderr);
  }
});
