// Every Markdown file that code, messages, contracts, tests or docs cite is in
// the repository, and every docs anchor they cite is a heading of that page:
// a reader never meets a reference to a file they cannot open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', '.git', 'reports']);
const TEXT = /\.(ts|mts|mjs|js|json|ya?ml|md|html|sh)$|^(Dockerfile|run)$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    if (SKIP_DIRS.has(e.name)) return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p) : TEXT.test(e.name) && e.name !== 'package-lock.json' ? [p] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1].replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

const CITATION = /(?<![\w$}.-])((?:\.{1,2}\/)?[\w./-]*\w\.md)(#[\w-]+)?(?![\w])/g;

/** Where a cited name resolves: beside the citing file (links between pages), else from the repository root. */
function resolveCitation(from: string, name: string): string | undefined {
  const tries = [join(dirname(from), name), join(ROOT, name)];
  return tries.find(p => existsSync(p));
}

test('every cited *.md is in the repository, and every cited anchor is a heading of it', () => {
  const problems: string[] = [];
  const anchors = new Map<string, Set<string>>();
  for (const file of walk(ROOT)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(CITATION)) {
      const [, name, anchor] = m;
      const before = text[m.index - 1], after = text[m.index + m[0].length];
      // A bare name in quotes is a path part of code (join(dir, 'summary.md')), not a citation.
      if (!name.includes('/') && (before === "'" || before === '"') && after === before) continue;
      const line = text.slice(0, m.index).split('\n').length;
      const where = `${relative(ROOT, file)}:${line}`;
      const target = resolveCitation(file, name);
      if (!target) { problems.push(`${where} cites ${name}, which is not in the repository`); continue; }
      if (!anchor) continue;
      if (!anchors.has(target)) anchors.set(target, anchorsOf(readFileSync(target, 'utf8')));
      if (!anchors.get(target)!.has(anchor.slice(1))) problems.push(`${where} cites ${name}${anchor}, which has no such heading`);
    }
  }
  assert.deepEqual(problems, []);
});

test('anchors follow GitHub: punctuation dropped, repeats numbered', () => {
  assert.deepEqual([...anchorsOf('# Token endpoint errors\n## `run` options\n```\n# not a heading\n```\n## Spec 2.1\n## Spec 2.1\n')],
    ['token-endpoint-errors', 'run-options', 'spec-21', 'spec-21-1']);
});

test('comments say what code does, not which ticket or person it came from', () => {
  const history = /\b[Ii]ssues? \d+\b|\bengineer [A-Z]\b|agreed interface/;
  const self = fileURLToPath(import.meta.url);
  const hits = walk(ROOT).filter(f => f !== self && !relative(ROOT, f).startsWith('docs/'))
    .flatMap(f => readFileSync(f, 'utf8').split('\n').map((l, i) => history.test(l) ? `${relative(ROOT, f)}:${i + 1}: ${l.trim()}` : '').filter(Boolean));
  assert.deepEqual(hits, []);
});
