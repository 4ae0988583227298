// The redactor's one-pass finder of many literal texts (harness/report/literals.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Literals } from '../../harness/report/literals.ts';

const mark = (t: string, v: string) => `<${v}:${t.length}>`;

test('every occurrence, left to right, the longest text at each place; texts that overlap go as one stretch', () => {
  const l = new Literals<string>();
  l.add('abcd', 'short');
  l.add('abcdefgh', 'long');
  l.add('efgh', 'tail');
  assert.equal(l.replace('x abcdefgh y abcd z efgh abcdabcd', mark), 'x <long:8> y <short:4> z <tail:4> <short:4><short:4>');
  assert.equal(l.replace('abcdefg', mark), '<short:4>efg');
  // Overlapping texts: the stretch they cover goes, named by the first; touching ones go each on its own.
  l.add('cdefg', 'middle');
  assert.equal(l.replace('x abcdefg y', mark), 'x <short:4> y');
  assert.equal(l.replace('abcdefgh', mark), '<long:8>');
  assert.equal(l.replace('abcdabcd', mark), '<short:4><short:4>');
  assert.equal(l.replace('no secret here', mark), 'no secret here');
  assert.equal(l.replace('abc', mark), 'abc');
  assert.equal(l.replace('', mark), '');
});

test('a text added again takes the new value; the size counts texts once; a text under 4 characters is refused', () => {
  const l = new Literals<string>();
  l.add('secret-1', 'A');
  l.add('secret-1', 'B');
  assert.equal(l.size, 1);
  assert.equal(l.replace('[secret-1]', (_, v) => v), '[B]');
  assert.throws(() => l.add('abc', 'C'), RangeError);
});

test('texts sharing a prefix (JWTs all start eyJhbGci) are each found, whatever their number', () => {
  const l = new Literals<number>();
  const tokens = Array.from({ length: 500 }, (_, i) => `eyJhbGciOiJSUzI1NiJ9.${i.toString(36).padStart(4, '0')}.sig`);
  tokens.forEach((t, i) => l.add(t, i));
  const text = tokens.filter((_, i) => i % 7 === 0).join(' and ');
  const out = l.replace(text, (_, v) => `#${v}`);
  assert.equal(out, tokens.map((_, i) => i).filter(i => i % 7 === 0).map(i => `#${i}`).join(' and '));
});

test('characters beyond the basic plane and hash collisions are compared in full', () => {
  const l = new Literals<string>();
  l.add('😀😀ab', 'emoji');
  l.add('Aa\u0000\u0000', 'first');
  assert.equal(l.replace('x😀😀ab😀😀', mark), 'x<emoji:6>😀😀');
  // 'BB' and 'Aa' hash alike under ×31 (66·31+66 = 65·31+97): only the real text is replaced.
  assert.equal(l.replace('BB\u0000\u0000 Aa\u0000\u0000', (_, v) => v), 'BB\u0000\u0000 first');
});

/** The finder's contract, written plainly: at each place the longest text there, a stretch grown by any text that starts inside it. */
function naive(texts: readonly string[], s: string, by: (t: string) => string): string {
  let out = '', i = 0;
  while (i < s.length) {
    const at = (p: number) => texts.filter(t => s.startsWith(t, p)).sort((a, b) => b.length - a.length)[0];
    const hit = at(i);
    if (!hit) { out += s[i]; i++; continue; }
    let end = i + hit.length;
    for (let j = i + 1; j < end; j++) { const inner = at(j); if (inner) end = Math.max(end, j + inner.length); }
    out += by(hit);
    i = end;
  }
  return out;
}

test('the rolling key and its filter find what a plain scan finds: 2,000 random strings over a small alphabet', () => {
  // A small alphabet makes texts overlap, share prefixes and collide in the filter's low bits.
  let seed = 7;
  const rand = (n: number) => { seed = Math.imul(seed, 1103515245) + 12345 | 0; return (seed >>> 8) % n; };
  const word = (n: number) => Array.from({ length: n }, () => 'ab\u00e9\u{1F600}'[rand(4)] === '\u{1F600}' ? '\u{1F600}' : 'abé'[rand(3)]).join('');
  for (let round = 0; round < 2000; round++) {
    const texts = [...new Set(Array.from({ length: 1 + rand(6) }, () => word(4 + rand(5))))].filter(t => t.length >= 4);
    const l = new Literals<string>();
    for (const t of texts) l.add(t, t);
    const s = word(rand(60));
    assert.equal(l.replace(s, t => `<${t.length}>`), naive(texts, s, t => `<${t.length}>`), JSON.stringify({ texts, s }));
  }
});
