// What a process loads before it needs it. Listing checks (the catalog: `run`
// before it starts Playwright, `run --list`, verify, matrix, coverage) needs no
// part of Playwright, a `run` that stops at its options (a bad flag, --help)
// needs no check at all, and a run without a webhook check no webhook drive:
// each was once loaded there for nothing (about 0.3 and 0.5 CPU s of every such
// process for the first two). Each case runs in a child process of
// its own, which says at its end which modules it loaded (ESM and CommonJS).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.ts';

const TSX = import.meta.resolve('tsx');

/**
 * The modules a Node process running `args` (with tsx) loaded: a resolve hook
 * writes every module it resolves to a file, and CommonJS's own cache is added
 * at exit (Playwright is CommonJS below its ESM entry).
 */
function loaded(args: string[]): { modules: string[]; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'pis-imports-'));
  try {
    const list = join(dir, 'modules.txt');
    writeFileSync(join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';
export async function resolve(spec, ctx, next) { const r = await next(spec, ctx); appendFileSync(${JSON.stringify(list)}, r.url + '\\n'); return r; }`);
    writeFileSync(join(dir, 'register.mjs'), `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(${JSON.stringify(list)}, Object.keys(require.cache).join('\\n') + '\\n'));`);
    writeFileSync(list, '');
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const r = spawnSync(process.execPath, ['--import', TSX, '--import', join(dir, 'register.mjs'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
    return { modules: readFileSync(list, 'utf8').split('\n').filter(Boolean), status: r.status };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

const playwright = (m: string) => /[\\/]node_modules[\\/](@playwright[\\/]test|playwright|playwright-core)[\\/]/.test(m);
const catalog = (m: string) => m.includes('/suites/catalog/');

test('the check catalog loads no part of Playwright', () => {
  const script = join(mkdtempSync(join(tmpdir(), 'pis-imports-script-')), 'list.mts');
  try {
    writeFileSync(script, `const { CATALOG } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'suites/catalog/index.ts')).href)});
if (CATALOG.length < 100) process.exit(3);`);
    const { modules, status } = loaded([script]);
    assert.equal(status, 0);
    assert.ok(modules.some(catalog), 'the case loads the catalog (else it proves nothing)');
    assert.deepEqual(modules.filter(playwright), []);
  } finally { rmSync(join(script, '..'), { recursive: true, force: true }); }
});

test('run with a bad flag, or --help, loads no check and no part of Playwright; run --list loads the catalog but not Playwright', () => {
  for (const args of [['run', '--bogus'], ['run', '--help']]) {
    const { modules, status } = loaded([join(ROOT, 'harness/cli.ts'), ...args]);
    assert.equal(status, args[1] === '--help' ? 0 : 2, args.join(' '));
    assert.ok(modules.some(m => m.endsWith('/harness/cli/run.ts')), `${args.join(' ')}: run's module loaded`);
    assert.deepEqual(modules.filter(m => catalog(m) || m.includes('/suites/checks/') || playwright(m)), [], args.join(' '));
  }
  const list = loaded([join(ROOT, 'harness/cli.ts'), 'run', '--list']);
  assert.equal(list.status, 0);
  assert.ok(list.modules.some(catalog));
  assert.deepEqual(list.modules.filter(playwright), []);
});

test('a run that selects no webhook check loads no part of the webhook drive', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pis-imports-run-'));
  try {
    const { modules, status } = loaded([join(ROOT, 'harness/cli.ts'), 'run', '--suites', 'data', '--grep', 'data\\.banks\\.list ', '--time-scale', '0.001',
      '--workers', '1', '--report', dir]);
    assert.equal(status, 0);
    assert.ok(modules.some(m => m.endsWith('/harness/runner/playwright.ts')), 'the run started Playwright');
    assert.deepEqual(modules.filter(m => m.endsWith('/harness/runner/webhook.ts')), []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
