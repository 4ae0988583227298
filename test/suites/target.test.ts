// suites/support/target.ts in a batch (several parts, one Playwright project
// each) names the running test's project the way the suites' registration
// (register.ts) told it: without that registration it refuses to answer, since
// every part would otherwise get the first part's target. Each case is a child
// process: the module's state is per process, as in a Playwright worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.ts';
import { testContext } from '../helpers/context.ts';
import { encodeRunContext } from '../../suites/support/context.ts';

const TSX = import.meta.resolve('tsx');
const url = (f: string) => JSON.stringify(pathToFileURL(join(ROOT, f)).href);

/** A batch of two parts, each its own base URL; the child prints the base URL target() gives, or the error. */
function targetIn(importsRegistration: boolean): { out: string; status: number | null } {
  const ctx = testContext({ baseUrl: 'http://first.invalid/api' });
  ctx.runs.push({ ...ctx.runs[0]!, name: 'second', target: { baseUrl: 'http://second.invalid/api' } });
  ctx.runs[0]!.name = 'first';
  const dir = mkdtempSync(join(tmpdir(), 'pis-target-'));
  try {
    const script = join(dir, 'ask.mts');
    writeFileSync(script, `${importsRegistration ? `await import(${url('suites/support/register.ts')});\n` : ''}` +
      `const { target } = await import(${url('suites/support/target.ts')});
try { console.log(target().baseUrl); } catch (e) { console.log('error: ' + e.message); }`);
    const env: NodeJS.ProcessEnv = { ...process.env, ...encodeRunContext(ctx) };
    delete env.NODE_TEST_CONTEXT;
    const r = spawnSync(process.execPath, ['--import', TSX, script], { cwd: ROOT, env, encoding: 'utf8' });
    return { out: r.stdout.trim() + r.stderr.trim(), status: r.status };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('in a batch, target() without the registration throws, naming register.ts; with it, outside a test, it is the first part (collection)', () => {
  const without = targetIn(false);
  assert.equal(without.status, 0, without.out);
  assert.match(without.out, /^error: suites\/support\/register\.ts was not loaded/);
  const withIt = targetIn(true);
  assert.equal(withIt.status, 0, withIt.out);
  assert.equal(withIt.out, 'http://first.invalid/api');
});
