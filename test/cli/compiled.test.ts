// The compiled copy of the command (bin/compiled.mjs): built from the sources,
// used while they are as it was built from them, built again when one
// changes, and never in the way: a build under way elsewhere, an unwritable
// folder or PIS_NO_COMPILE=1 runs the sources through tsx instead. Each case
// runs a small project of its own (harness/cli.ts importing harness/part.ts),
// so that no source of this repository is touched while other tests run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.ts';

const COMPILED = pathToFileURL(join(ROOT, 'bin', 'compiled.mjs')).href;

/** What the project at `root` printed, started as bin/pis-conformance.mjs starts the command: 'tsx' when it would run the sources. */
function start(root: string, env: Record<string, string> = {}): { said: string; bundle?: string } {
  const script = `const u = await (await import(${JSON.stringify(COMPILED)})).compiledCli(${JSON.stringify(root)});
    if (u) { console.log(u); await import(u); } else console.log('tsx');`;
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete full.PIS_NO_COMPILE;
  delete full.PIS_DEBUG;
  Object.assign(full, env);
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: full, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [first, ...rest] = r.stdout.trim().split('\n');
  return first === 'tsx' ? { said: 'tsx' } : { said: rest.join('\n'), bundle: first };
}

/** A project whose part says `value`; its part's modification time moved `ageS` seconds into the past, so that a rewrite is seen. */
function project(): { root: string; part(value: string, ageS?: number): void } {
  const root = mkdtempSync(join(tmpdir(), 'pis-compiled-'));
  mkdirSync(join(root, 'harness'));
  writeFileSync(join(root, 'harness', 'cli.ts'),
    "import { value } from './part.ts';\nconsole.log(JSON.stringify({ value, url: import.meta.url }));\n");
  const part = (value: string, ageS = 0) => {
    const file = join(root, 'harness', 'part.ts');
    writeFileSync(file, `export const value: string = ${JSON.stringify(value)};\n`);
    const t = Date.now() / 1000 - ageS;
    utimesSync(file, t, t);
  };
  part('one', 10);
  return { root, part };
}

const cache = (root: string) => join(root, 'node_modules', '.cache', 'pis-conformance');

test('the copy is built from the sources, keeps each module\'s own import.meta.url, and is used again while they are unchanged', t => {
  const p = project();
  t.after(() => rmSync(p.root, { recursive: true, force: true }));
  const first = start(p.root);
  assert.ok(first.bundle?.startsWith(pathToFileURL(cache(p.root)).href), `not the copy: ${JSON.stringify(first)}`);
  assert.deepEqual(JSON.parse(first.said), { value: 'one', url: pathToFileURL(join(p.root, 'harness', 'cli.ts')).href });
  const manifest = JSON.parse(readFileSync(join(cache(p.root), 'cli.json'), 'utf8')) as { inputs: Record<string, string> };
  assert.deepEqual(Object.keys(manifest.inputs).sort(), ['harness/cli.ts', 'harness/part.ts']);
  assert.equal(start(p.root).bundle, first.bundle, 'built again with nothing changed');
});

test('a changed source builds the copy again, and the old copy goes once it is a minute old', t => {
  const p = project();
  t.after(() => rmSync(p.root, { recursive: true, force: true }));
  const first = start(p.root);
  p.part('two');
  const second = start(p.root);
  assert.notEqual(second.bundle, first.bundle);
  assert.equal(JSON.parse(second.said).value, 'two');
  // Still there for a command that read the manifest before: gone at the next build once a minute old.
  const old = new URL(first.bundle!);
  assert.ok(existsSync(old));
  utimesSync(old, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
  p.part('three', 5);
  assert.equal(JSON.parse(start(p.root).said).value, 'three');
  assert.ok(!existsSync(old), 'the old copy was left');
});

test('a build under way elsewhere (a fresh lock) runs the sources through tsx; a lock a minute old is taken over', t => {
  const p = project();
  t.after(() => rmSync(p.root, { recursive: true, force: true }));
  start(p.root);
  p.part('two');
  const lock = join(cache(p.root), 'build.lock');
  writeFileSync(lock, '');
  assert.equal(start(p.root).said, 'tsx');
  utimesSync(lock, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
  assert.equal(JSON.parse(start(p.root).said).value, 'two');
  assert.ok(!existsSync(lock), 'the lock was left behind');
});

test('PIS_NO_COMPILE=1, PIS_DEBUG=1 or a folder that cannot be written run the sources through tsx', t => {
  const p = project();
  t.after(() => rmSync(p.root, { recursive: true, force: true }));
  assert.equal(start(p.root, { PIS_NO_COMPILE: '1' }).said, 'tsx');
  assert.equal(start(p.root, { PIS_DEBUG: '1' }).said, 'tsx');
  writeFileSync(join(p.root, 'node_modules'), 'a file where the folder would go');
  assert.equal(start(p.root).said, 'tsx');
});

test('the command from its copy says what it says from the sources', () => {
  const run = (env: Record<string, string>) => spawnSync(process.execPath, [join(ROOT, 'bin', 'pis-conformance.mjs'), 'run', '--help'],
    { env: { ...process.env, ...env }, encoding: 'utf8' });
  const copy = run({}), sources = run({ PIS_NO_COMPILE: '1' });
  assert.equal(copy.status, 0, copy.stderr);
  assert.equal(copy.stdout, sources.stdout);
  assert.ok(existsSync(join(cache(ROOT), 'cli.json')), 'the command ran from its sources: no copy was made');
});
