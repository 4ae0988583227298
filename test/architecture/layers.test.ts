// The layer order of docs/architecture.md, enforced: every import of harness/,
// suites/ and bin/ points to its own folder or to a lower layer, folders of one
// layer do not import each other, and no chain of runtime imports leads a file
// back to itself. The table is read from the page, so page and rule are one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Edge { from: string; to: string; typeOnly: boolean }
interface Layer { layer: number; path: string }

/** The rows of the "Layers" table: `| 3 | \`harness/contracts\`, \`harness/http\` |`. */
function readLayers(markdown: string): Layer[] {
  const section = markdown.split(/^## /m).find(s => s.startsWith('Layers'));
  assert.ok(section, 'docs/architecture.md has a "## Layers" section');
  return [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)]
    .flatMap(m => [...m[2].matchAll(/`([^`]+)`/g)].map(p => ({ layer: Number(m[1]), path: p[1] })));
}

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap(e => {
    const p = `${dir}/${e.name}`;
    return e.isDirectory() ? walk(p) : /\.(ts|mts|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

/** Relative imports, re-exports and dynamic imports of one file; `import type` and `export type` are type-only. */
function importsOf(file: string, text: string): Edge[] {
  const out: Edge[] = [];
  const spec = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(spec)) {
    const to = relative(ROOT, resolve(ROOT, dirname(file), m[3] ?? m[4])).split('\\').join('/');
    out.push({ from: file, to, typeOnly: Boolean(m[2]) });
  }
  return out;
}

/** The row a file belongs to: the longest listed path that is the file or a folder holding it. */
function layerOf(file: string, layers: Layer[]): Layer | undefined {
  return layers.filter(l => file === l.path || file.startsWith(l.path + '/'))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** Imports against the layer order, and files of no row. */
export function layerProblems(edges: Edge[], files: string[], layers: Layer[]): string[] {
  const problems = files.filter(f => !layerOf(f, layers)).map(f => `${f} is in no row of the layer table: add its folder`);
  for (const e of edges) {
    const a = layerOf(e.from, layers), b = layerOf(e.to, layers);
    if (!a || !b || a.path === b.path) continue;
    if (b.layer > a.layer) problems.push(`${e.from} imports ${e.to}: layer ${a.layer} (${a.path}) may not import layer ${b.layer} (${b.path})`);
    else if (b.layer === a.layer) problems.push(`${e.from} imports ${e.to}: ${a.path} and ${b.path} are peers of layer ${a.layer}`);
  }
  return problems;
}

/** Chains of runtime imports that lead back to where they began (strongly connected components, Tarjan). */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n); low.set(v, n++); stack.push(v); on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    for (let w = ''; w !== v;) { w = stack.pop()!; on.delete(w); scc.push(w); }
    if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}

const layers = readLayers(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
const files = ['harness', 'suites', 'bin'].flatMap(walk);
const edges = files.flatMap(f => importsOf(f, readFileSync(join(ROOT, f), 'utf8')));

test('every import follows the layer order of docs/architecture.md', () => {
  assert.ok(edges.length > 500, `imports were read (${edges.length})`);
  assert.deepEqual(layerProblems(edges, files, layers), []);
});

test('no file imports itself back through a chain of runtime imports', () => {
  assert.deepEqual(cycles(edges).map(c => c.join(' <-> ')), []);
});

test('the rules catch an upward import, a peer import, a file of no row and a cycle', () => {
  const rows: Layer[] = [{ layer: 1, path: 'low' }, { layer: 2, path: 'mid/a' }, { layer: 2, path: 'mid/b' }, { layer: 3, path: 'top.ts' }];
  const e = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });
  assert.deepEqual(layerProblems([e('low/x.ts', 'mid/a/y.ts'), e('mid/a/y.ts', 'mid/b/z.ts'), e('top.ts', 'low/x.ts'), e('mid/a/y.ts', 'mid/a/w.ts')],
    ['low/x.ts', 'mid/a/y.ts', 'stray/q.ts'], rows).length, 3);
  assert.deepEqual(cycles([e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd')]), [['a', 'b', 'c']]);
  assert.deepEqual(cycles([e('a', 'b'), e('b', 'a', true)]), [], 'a type-only import closes no cycle');
  assert.deepEqual(importsOf('x/y.ts', "import type { A } from './a.ts';\nexport { b } from '../b.ts';\nconst c = await import('./c.ts');\n")
    .map(i => `${i.to}${i.typeOnly ? ' (type)' : ''}`), ['x/a.ts (type)', 'b.ts', 'x/c.ts']);
});
