// A compiled copy of the command: harness/cli.ts and every module it imports,
// in one ESM file built by esbuild (the compiler tsx itself runs), kept in
// node_modules/.cache/pis-conformance/ beside the sources it was built from.
// Starting from it skips tsx's loader, which resolves and transforms each of
// the command's 260 modules on a thread of its own: `run --help` measured 1.4
// CPU s through tsx and 0.6 from the copy (docs/architecture.md). The copy is
// the sources, compiled: each module's import.meta.url is its source file's,
// so the paths it reads (contracts/, suites/) are the ones tsx would give.
//
// The copy is used only while every source it was built from has the size
// and modification time it had then, under the same Node.js and esbuild;
// otherwise the first command to see that builds it again (about 0.7 s), while
// any other command started meanwhile runs the sources through tsx. Where the
// folder cannot be written (a read-only install), every command runs the
// sources through tsx, as before. PIS_NO_COMPILE=1 does that too, and so does
// PIS_DEBUG=1, whose stack traces then name the sources' own lines.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package's root: harness/cli.ts is its entry, node_modules/.cache/pis-conformance/ the copy's folder. */
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const where = root => {
  const dir = join(root, 'node_modules', '.cache', 'pis-conformance');
  return { root, entry: join(root, 'harness', 'cli.ts'), dir, manifest: join(dir, 'cli.json'), lock: join(dir, 'build.lock') };
};
/** A lock older than this is taken to be left by a build that died (a build takes about a second). */
const STALE_LOCK_MS = 60_000;

/** What the copy was built by: another Node.js or esbuild, or a change to this file, builds it again. */
function builtBy() {
  const { version } = createRequire(import.meta.url)('esbuild/package.json');
  const self = fileURLToPath(import.meta.url);
  return `node ${process.version}, esbuild ${version}, ${relative(PACKAGE_ROOT, self)} ${signature(PACKAGE_ROOT, relative(PACKAGE_ROOT, self))}`;
}

/** The size and modification time of a source, or undefined when it is gone. */
function signature(root, file) {
  try {
    const s = statSync(join(root, file));
    return `${s.size} ${s.mtimeMs}`;
  } catch { return undefined; }
}

/** The manifest when every source it names is as it was when the copy was built, and the copy is there. */
function fresh(w, by) {
  let m;
  try { m = JSON.parse(readFileSync(w.manifest, 'utf8')); } catch { return undefined; }
  if (m.by !== by || !m.bundle || !m.inputs) return undefined;
  for (const [file, sig] of Object.entries(m.inputs)) if (signature(w.root, file) !== sig) return undefined;
  return signature(w.dir, m.bundle) ? m : undefined;
}

/** The lock of one build at a time; false when another command holds it. */
function lock(w) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(w.lock, 'wx'));
      return true;
    } catch (e) {
      if (e?.code !== 'EEXIST') throw e;
      let age;
      try { age = Date.now() - statSync(w.lock).mtimeMs; } catch { continue; }
      if (age < STALE_LOCK_MS) return false;
      rmSync(w.lock, { force: true });
    }
  }
  return false;
}

/**
 * The esbuild plugin that compiles each TypeScript source with its own file's
 * URL for import.meta.url, so that a compiled module reads the paths its
 * source would; `reading` is told each source's path before it is read. The
 * URL is an esbuild define, which replaces the expression in code only (a
 * string that spells it stays as it is).
 */
function sourceImportMetaUrl(reading = () => {}) {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async a => {
        reading(a.path);
        const text = await readFile(a.path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const { transform } = await import('esbuild');
        const { code } = await transform(text, {
          loader: 'ts', sourcefile: a.path, target: 'node20',
          define: { 'import.meta.url': JSON.stringify(pathToFileURL(a.path).href) },
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/** Builds the copy and its manifest; the copy is written under a name of its own, then the manifest points to it. */
async function build(w, by) {
  const { build: esbuild } = await import('esbuild');
  // The signatures are taken before the sources are read: a source changed during the build makes the copy stale, never wrong.
  const before = new Map();
  const result = await esbuild({
    entryPoints: [w.entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external',
    write: false, metafile: true, logLevel: 'silent', outfile: join(w.dir, 'cli.mjs'), absWorkingDir: w.root,
    plugins: [sourceImportMetaUrl(path => before.set(relative(w.root, path), signature(w.root, relative(w.root, path))))],
  });
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    if (file.includes('node_modules')) continue;
    const sig = before.get(file) ?? signature(w.root, file);
    if (!sig) return;
    inputs[file] = sig;
  }
  const bundle = `cli-${process.pid}-${Date.now()}.mjs`;
  writeFileSync(join(w.dir, bundle), result.outputFiles[0].contents);
  const tmp = `${w.manifest}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ by, bundle, inputs }));
  renameSync(tmp, w.manifest);
  // Copies before it go once they are a minute old: a command that read the old manifest has imported its copy by then.
  for (const f of readdirSync(w.dir)) {
    if (f === bundle || !/^cli-.*\.mjs$/.test(f)) continue;
    try { if (Date.now() - statSync(join(w.dir, f)).mtimeMs > STALE_LOCK_MS) rmSync(join(w.dir, f), { force: true }); } catch { /* gone meanwhile */ }
  }
}

/**
 * The file URL of the compiled copy of `root`'s harness/cli.ts to import,
 * built first when it is stale and no other command is building it;
 * undefined when the sources are to run through tsx instead.
 */
export async function compiledCli(root = PACKAGE_ROOT) {
  if (process.env.PIS_NO_COMPILE || process.env.PIS_DEBUG) return undefined;
  const w = where(root);
  try {
    const by = builtBy();
    let m = fresh(w, by);
    if (!m) {
      mkdirSync(w.dir, { recursive: true });
      if (!lock(w)) return undefined;
      try {
        m = fresh(w, by);
        if (!m) {
          await build(w, by);
          m = fresh(w, by);
        }
      } finally { rmSync(w.lock, { force: true }); }
    }
    return m ? pathToFileURL(join(w.dir, m.bundle)).href : undefined;
  } catch {
    return undefined;
  }
}
