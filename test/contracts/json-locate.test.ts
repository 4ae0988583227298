// The JSON splitter of `validate`: items and broken places the same whatever
// the chunk size, positions in lines and characters, recovery after a cut-off
// line, duplicate names and bytes that are not UTF-8, and no recursion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { inspectItem, JsonSplitter, type Piece } from '../../harness/contracts/json-locate.ts';
import { ROOT } from '../helpers/cli.ts';

const VALID = join(ROOT, 'test/fixtures/contracts/valid');

function split(input: Buffer | string, chunk = 1 << 20): Piece[] {
  const bytes = Buffer.isBuffer(input) ? input : Buffer.from(input);
  const s = new JsonSplitter();
  const out: Piece[] = [];
  for (let i = 0; i < bytes.length; i += chunk) out.push(...s.write(bytes.subarray(i, i + chunk)));
  return [...out, ...s.end()];
}

/** What a test compares: items as their parsed value and start, broken places as position and reason. */
const view = (ps: Piece[]) => ps.map(p => p.kind === 'item'
  ? { item: JSON.parse(p.bytes.toString('utf8')) as unknown, at: p.at, keys: p.keys }
  : { broken: p.reason, at: p.at });

const bodies = readdirSync(VALID).filter(f => f.endsWith('.json')).slice(0, 12).map(f => readFileSync(join(VALID, f), 'utf8').trim());

test('an array, JSON lines and pretty values one after another give the same items at every chunk size', () => {
  const values = bodies.map(b => JSON.parse(b) as unknown);
  // Non-ASCII text and escapes, so chunks also cut multi-byte characters and escape sequences.
  values.push({ id: 'ünïcødé ✓ 😀', s: 'a\\"b\u0001\u00e9', n: [-1.5e-3, 0, 12], t: true, f: false, z: null });
  const inputs = {
    array: `[\n${values.map(v => `  ${JSON.stringify(v)}`).join(',\n')}\n]\n`,
    lines: values.map(v => JSON.stringify(v)).join('\n') + '\n',
    stream: values.map(v => JSON.stringify(v, null, 2)).join('\n'),
  };
  for (const [name, text] of Object.entries(inputs)) {
    const whole = split(text);
    assert.deepEqual(whole.map(p => p.kind === 'item' && JSON.parse(p.bytes.toString('utf8'))), values, name);
    for (const size of [1, 2, 3, 5, 7, 64, 1000]) assert.deepEqual(view(split(text, size)), view(whole), `${name}, chunks of ${size} bytes`);
  }
});

test('items are handed over as their chunk arrives, not at the end of the input', () => {
  const s = new JsonSplitter();
  assert.deepEqual(view(s.write(Buffer.from('[{"a": 1}, {"b"'))), [{ item: { a: 1 }, at: { line: 1, column: 2 }, keys: 1 }]);
  assert.deepEqual(view(s.write(Buffer.from(': 2}]'))), [{ item: { b: 2 }, at: { line: 1, column: 12 }, keys: 1 }]);
  assert.deepEqual(s.end(), []);
});

test('a syntax error is placed at its line and column (in characters), and reading goes on at the next line', () => {
  const pieces = view(split('{"id": "a"}\n{"id": "é", x}\n{"id": "c"}\n'));
  assert.deepEqual(pieces, [
    { item: { id: 'a' }, at: { line: 1, column: 1 }, keys: 1 },
    { broken: 'expected a double-quoted field name, found "x"', at: { line: 2, column: 13 } },
    { item: { id: 'c' }, at: { line: 3, column: 1 }, keys: 1 },
  ]);
  assert.deepEqual(view(split('{\n  "id": "c-1",\n  "status": STARTED\n}\n')),
    [{ broken: 'expected a JSON value, found "STARTED"', at: { line: 3, column: 13 } }]);
  assert.deepEqual(view(split('nope')), [{ broken: 'expected a JSON value, found "nope"', at: { line: 1, column: 1 } }]);
  assert.deepEqual(view(split('{"n": 01}')), [{ broken: '"01" is not a JSON number', at: { line: 1, column: 8 } }]);
});

test('a cut-off JSON line is reported where it ends, and the line after it is judged', () => {
  const line = JSON.stringify({ id: 'c-1', status: 'STARTED', payment: { amount: 14.5 } });
  const cutInNumber = line.slice(0, line.indexOf('14.5') + 2);
  const cutInString = line.slice(0, line.indexOf('STARTED') + 3);
  const pieces = view(split(`${line}\n${cutInNumber}\n${line}\n${cutInString}\n${line}\n${cutInString}`));
  assert.deepEqual(pieces.map(p => 'broken' in p ? `${p.at.line}:${p.at.column} ${p.broken}` : `${p.at.line} item`), [
    '1 item',
    `2:${cutInNumber.length + 1} the value that starts at line 2 is cut off: line 3 begins a new value before it is closed`,
    '3 item',
    `4:${cutInString.length + 1} a line break inside a string (is the line cut off?), found the end of the line`,
    '5 item',
    `6:${cutInString.length + 1} the text ends before a string is closed`,
  ]);
});

test('a broken element of a pretty-printed array: the elements after it are judged and the array still closes', () => {
  const text = '[\n  {"a": 1},\n  {"b": 2,,},\n  {"c": 3}\n]\n';
  assert.deepEqual(view(split(text)).map(p => ('broken' in p ? `broken ${p.at.line}:${p.at.column}` : JSON.stringify(p.item))),
    ['{"a":1}', 'broken 3:11', '{"c":3}']);
  assert.deepEqual(view(split('[]')), [{ broken: 'an empty array: there is nothing to validate in it', at: { line: 1, column: 2 } }]);
  assert.deepEqual(view(split('[1, 2')).at(-1), { broken: 'the text ends before an array is closed', at: { line: 1, column: 6 } });
});

test('a 100,000-deep array is one item, read without recursion', () => {
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const pieces = split(`[${deep}]`);
  assert.equal(pieces.length, 1);
  assert.equal(pieces[0].kind, 'item');
  const obj = split('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
  assert.deepEqual(obj.map(p => p.kind === 'item' && p.keys), [100_000]);
});

test('a byte order mark is skipped; positions count characters, not bytes', () => {
  const pieces = view(split(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"é": "😀",}')])));
  assert.deepEqual(pieces, [{ broken: 'expected a double-quoted field name, found "}"', at: { line: 1, column: 11 } }]);
});

test('inspectItem names every field given twice, with its pointer and both values', () => {
  const text = '{"status": "FAILED", "payment": {"a~/b": 1, "a~/b": 1, "x": [{"k": 1, "\\u006b": 2}]}, "status": "STARTED"}';
  const [piece] = split(`\n   ${text}`);
  assert.equal(piece.kind, 'item');
  if (piece.kind !== 'item') return;
  assert.notEqual(Object.keys(JSON.parse(text)).length + 4, piece.keys, 'the fast pass counts every name it saw');
  const found = inspectItem(piece.bytes, piece.at);
  assert.deepEqual(found.duplicates.map(d => [d.pointer, d.name, d.first, d.second]), [
    ['/payment/a~0~1b', 'a~/b', '1', '1'],
    ['/payment/x/0/k', 'k', '1', '2'],
    ['/status', 'status', '"FAILED"', '"STARTED"'],
  ]);
  // Positions are the file's: the item starts at line 2, column 4.
  assert.deepEqual(found.duplicates[2].at, { line: 2, column: 4 + text.lastIndexOf('"status"') + '"status"'.length - 1 });
  assert.equal(found.badUtf8, undefined);
});

test('bytes that are not UTF-8 are found with their pointer; well-formed multi-byte characters are not', () => {
  const bad: Array<[string, number[]]> = [
    ['a lone continuation byte', [0x80]], ['an overlong encoding', [0xc0, 0xaf]], ['a surrogate', [0xed, 0xa0, 0x80]],
    ['a sequence cut short', [0xe2, 0x82]], ['a byte above 0xf4', [0xf5, 0x80, 0x80, 0x80]], ['0xff', [0xff]],
  ];
  for (const [what, bytes] of bad) {
    const input = Buffer.concat([Buffer.from('{"id": "x", "referenceId": "ab'), Buffer.from(bytes), Buffer.from('cd"}')]);
    const [piece] = split(input);
    assert.ok(piece.kind === 'item' && piece.badUtf8, what);
    if (piece.kind !== 'item') continue;
    const found = inspectItem(piece.bytes, piece.at);
    assert.equal(found.badUtf8?.pointer, '/referenceId', what);
    assert.equal(found.badUtf8?.at.column, 31, what);
  }
  const good = split(Buffer.from('{"id": "é € 😀 \u{10ffff}"}'));
  assert.ok(good[0].kind === 'item' && !good[0].badUtf8);
});
