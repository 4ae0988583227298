// The package as a user installs it: `npm pack`, then `npm install -g` of the
// tarball into a temporary prefix (from the npm cache where it can), then the
// binary from a folder outside the clone: --version, --help, validate, and a
// short run against the bundled reference (Playwright must load the suites from
// inside node_modules). Costs about 15-25 s, most of it npm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, type CliResult } from '../helpers/cli.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; files: string[]; dependencies: Record<string, string> };

function sh(cmd: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // NODE_TEST_CONTEXT would make a nested Node process report to this test runner.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', d => { stdout += d; });
    child.stderr.on('data', d => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${cmd} ${args.join(' ')} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`)); }, timeoutMs);
    child.on('error', reject);
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** Bare package names a source file imports at run time (not types, not node: or relative paths). */
function runtimeImports(text: string): string[] {
  const names = [...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^'.][^']*)'|import\(\s*'([^'.][^']*)'\s*\)|^import\s+'([^'.][^']*)'/gm)]
    .map(m => m[1] ?? m[2] ?? m[3]).filter(n => !n.startsWith('node:'));
  return names.map(n => (n.startsWith('@') ? n.split('/').slice(0, 2).join('/') : n.split('/')[0]));
}

test('every package the published files import at run time is a dependency', () => {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : []);
  const used = new Map<string, string>();
  for (const folder of pkg.files.filter(f => f.endsWith('/') && existsSync(join(ROOT, f))))
    for (const file of walk(join(ROOT, folder))) for (const name of runtimeImports(readFileSync(file, 'utf8'))) used.set(name, file.slice(ROOT.length));
  const missing = [...used].filter(([name]) => !pkg.dependencies[name]).map(([name, file]) => `${name} (${file})`);
  assert.deepEqual(missing, [], 'imported at run time but not in dependencies');
  assert.ok(used.has('@playwright/test') && used.has('tsx') && used.has('ajv'), [...used.keys()].join(', '));
});

test('npm pack, npm install -g of the tarball, and the binary works from any folder', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'pis-package-'));
  try {
    const packed = await sh('npm', ['pack', '--json', '--pack-destination', tmp], ROOT);
    assert.equal(packed.code, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = info.files.map(f => f.path);
    for (const f of ['bin/pis-conformance.mjs', 'harness/cli.ts', 'harness/reference/catalog.yaml', 'suites/playwright.config.ts', 'suites/token.spec.ts', 'contracts/webhook-normal.yaml', 'README.md'])
      assert.ok(files.includes(f), `the tarball holds ${f}`);
    assert.deepEqual(files.filter(f => /^(test|bench|scripts|reports|\.ci)\//.test(f)), [], 'no tests, benchmarks or reports in the tarball');

    const prefix = join(tmp, 'global');
    const installed = await sh('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(tmp, info.filename)], tmp, 180_000);
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    const bin = join(prefix, 'bin', 'pis-conformance');

    const work = mkdtempSync(join(tmp, 'elsewhere-'));
    copyFileSync(join(ROOT, 'test/fixtures/contracts/valid/normal-started.json'), join(work, 'body.json'));
    const [version, help, validate, run] = await Promise.all([
      sh(bin, ['--version'], work),
      sh(bin, ['--help'], work),
      sh(bin, ['validate', 'body.json'], work),
      sh(bin, ['run', '--suites', 'token', '--grep', 'token.issue', '--time-scale', '0.01', '--workers', '1', '--report', 'report'], work, 120_000),
    ]);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), `${pkg.name} ${pkg.version}`);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: pis-conformance <command>/);
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    assert.match(validate.stdout, /^body\.json:1 {2}webhook-normal {2}valid\n/);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /Conformant/);
    assert.ok(existsSync(join(work, 'report', 'index.html')), 'the run wrote its report in the folder it was started from');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
