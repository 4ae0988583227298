// Every relative link of README.md, docs/ and examples/ leads somewhere: the
// file exists, and an anchor names a heading of the page it points at (the
// slug GitHub makes of it). A link out of the repository (http, mailto) is not
// followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The Markdown pages users read: README.md and every .md under docs/ and examples/. */
function pages(): string[] {
  const walk = (dir: string): string[] => readdirSync(dir).flatMap(n => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : n.endsWith('.md') ? [p] : [];
  });
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs')), ...walk(join(ROOT, 'examples'))];
}

/** GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces as -. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const s = slug(m[1]!);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n ? `${s}-${n}` : s);
  }
  for (const m of readFileSync(file, 'utf8').matchAll(/<a (?:name|id)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

/** The [text](target) links of a page, outside code fences and code spans. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(m => m[1]!);
}

test('every relative link of README.md, docs/ and examples/ resolves to a file, and its anchor to a heading', () => {
  const dead: string[] = [];
  let checked = 0;
  for (const page of pages()) {
    for (const link of links(page)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      checked++;
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path ? join(dirname(page), decodeURIComponent(path)) : page;
      const where = `${relative(ROOT, page)}: (${link})`;
      if (!existsSync(target)) { dead.push(`${where} -> no file ${relative(ROOT, target)}`); continue; }
      if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) dead.push(`${where} -> no heading #${anchor} in ${relative(ROOT, target)}`);
    }
  }
  assert.ok(checked > 20, `only ${checked} relative links found: the link pattern is broken`);
  assert.deepEqual(dead, []);
});

test('slugs are made as GitHub makes them', () => {
  assert.equal(slug('Time scale'), 'time-scale');
  assert.equal(slug('What `npm start` does'), 'what-npm-start-does');
  assert.equal(slug('API versions (spec 9)'), 'api-versions-spec-9');
});
