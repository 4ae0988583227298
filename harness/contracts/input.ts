// Reads the files given to `validate`: one JSON value, a JSON array of items,
// JSON lines (one value per line), or several JSON values one after another.
// Streams each file (json-locate.ts splits it as it arrives), so time and
// memory grow with the largest item, not with the file. What cannot be read
// (a missing file, a broken line) is an entry of its own with its line and
// column, and the items around it are still judged.
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { inspectItem, JsonSplitter, type BadUtf8, type DuplicateName, type Piece } from './json-locate.ts';
import type { Violation } from './violations.ts';

/** One item; `findings` are what the JSON text itself breaks (duplicate names, bytes that are not UTF-8). */
export interface InputItem { kind: 'item'; file: string; line: number; value: unknown; findings: Violation[] }
/** A place that could not be read as an item: a whole file (no line) or a broken stretch of one. */
export interface Unreadable {
  kind: 'unreadable'; file: string; line?: number; column?: number; reason: string;
  /** The one sentence that names the place and the fix, for when nothing at all could be read. */
  sentence: string;
}
export type InputEntry = InputItem | Unreadable;

const CHUNK_BYTES = 1 << 20;

/** RFC 8259 section 4: "When the names within an object are not unique, the behavior of software that receives such an object is unpredictable." */
function duplicateFinding(d: DuplicateName): Violation {
  return {
    pointer: d.pointer, spec: 'RFC 8259 4', rule: 'json.unique-names',
    // The same value twice changes nothing for a reader; two values leave the item's meaning to the reader's parser.
    level: d.first === d.second ? 'should' : 'must',
    expected: 'each field name once per object (a receiver\'s parser may keep either value)',
    found: `"${d.name}" twice (again at line ${d.at.line}, column ${d.at.column}): ${d.first} then ${d.second}`,
  };
}

/** RFC 8259 section 8.1: JSON exchanged between systems "MUST be encoded using UTF-8". */
function utf8Finding(b: BadUtf8): Violation {
  return {
    pointer: b.pointer, spec: 'RFC 8259 8.1', rule: 'json.utf-8', level: 'must',
    expected: 'text encoded as UTF-8',
    found: `byte 0x${b.byte.toString(16).padStart(2, '0')} at line ${b.at.line}, column ${b.at.column}, which is not UTF-8 (judged below as U+FFFD)`,
  };
}

/** Field names in a parsed value, counted without recursion (a value may be 100,000 deep). */
function countKeys(root: unknown): number {
  let n = 0;
  const todo: unknown[] = [root];
  while (todo.length) {
    const v = todo.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) { for (const x of v) if (typeof x === 'object' && x !== null) todo.push(x); continue; }
    for (const k in v) {
      n++;
      const x = (v as Record<string, unknown>)[k];
      if (typeof x === 'object' && x !== null) todo.push(x);
    }
  }
  return n;
}

function toEntry(file: string, p: Piece): InputEntry {
  if (p.kind === 'broken') {
    return { kind: 'unreadable', file, line: p.at.line, column: p.at.column, reason: p.reason,
      sentence: `${file} is not JSON at line ${p.at.line}, column ${p.at.column} (${p.reason}): fix the file there; ` +
        'it holds one JSON value, a JSON array of items, or one value per line.' };
  }
  // The splitter has checked the grammar, so this parse does not throw.
  const value = JSON.parse(p.bytes.toString('utf8')) as unknown;
  // Fewer names in the value than in the text: one was given twice.
  const seen = p.badUtf8 || countKeys(value) !== p.keys ? inspectItem(p.bytes, p.at) : { duplicates: [] };
  const findings = [...(seen.badUtf8 ? [utf8Finding(seen.badUtf8)] : []), ...seen.duplicates.map(duplicateFinding)];
  return { kind: 'item', file, line: p.at.line, value, findings };
}

/** A JSON string token, and the colon after it when it is a field name (unrolled: one backtrack entry per escape, not per character). */
const STRING_TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"(\s*:)?/g;

/** Whether a JSON text that JSON.parse read as `parsed` names as many fields as `parsed` holds: then no name was given twice. */
function namesAllKept(text: string, parsed: unknown): boolean {
  let names = 0;
  try {
    STRING_TOKEN.lastIndex = 0;
    for (let m = STRING_TOKEN.exec(text); m; m = STRING_TOKEN.exec(text)) if (m[1] !== undefined) names++;
  } catch {
    return false;
  }
  return names === countKeys(parsed);
}

/**
 * What the text of one JSON value breaks that its parsed value hides (a field
 * name twice in one object, bytes that are not UTF-8), as `validate` reports it
 * for an item: for the answers of an API, whose evidence keeps the parsed value.
 * `parsed`, JSON.parse of `text` when the caller has it, lets an answer whose
 * text names no field twice be passed without splitting it byte by byte (a
 * JavaScript string, encoded again, is always UTF-8).
 */
export function jsonTextFindings(text: string, parsed?: unknown): Violation[] {
  if (parsed !== undefined && namesAllKept(text, parsed)) return [];
  const s = new JsonSplitter();
  // The splitter reads a top-level array as a list of items, as `validate` does: each element is judged, its
  // pointers put under its index.
  const list = TOP_ARRAY.test(text);
  const out: Violation[] = [];
  let index = 0;
  for (const p of [...s.write(Buffer.from(text, 'utf8')), ...s.end()]) {
    if (p.kind !== 'item') continue;
    const entry = toEntry('', p);
    if (entry.kind === 'item') out.push(...(list ? entry.findings.map(f => ({ ...f, pointer: `/${index}${f.pointer}` })) : entry.findings));
    index++;
  }
  return out;
}

/** A JSON text whose value is an array (RFC 8259 white space may come first). */
const TOP_ARRAY = /^[ \t\n\r]*\[/;

function cannotRead(file: string, e: unknown): Unreadable {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' :
    code === 'EACCES' ? 'permission denied' : (e as Error).message;
  return { kind: 'unreadable', file, reason: `cannot read it: ${why}`, sentence: `Cannot read ${file} (${why}): give the path of a JSON or JSON-lines file.` };
}

/** The items of one input file in order, each with its 1-based line, and the places that could not be read. */
export async function* readEntries(file: string, chunkBytes = CHUNK_BYTES): AsyncGenerator<InputEntry> {
  const splitter = new JsonSplitter();
  const source = file === '-' ? process.stdin : createReadStream(file, { highWaterMark: chunkBytes });
  let any = false;
  try {
    for await (const chunk of source) {
      for (const p of splitter.write(chunk as Buffer)) { any = true; yield toEntry(file, p); }
    }
  } catch (e) {
    yield cannotRead(file, e);
    return;
  }
  for (const p of splitter.end()) { any = true; yield toEntry(file, p); }
  if (!any) yield { kind: 'unreadable', file, reason: 'it is empty', sentence: `${file} is empty: give a file with a JSON value or JSON lines.` };
}

const INPUT_FILE = /\.(json|jsonl|ndjson)$/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap(e =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : INPUT_FILE.test(e.name) ? [join(dir, e.name)] : []);
}

/** The files to read: a folder stands for every .json, .jsonl and .ndjson file under it (sorted). */
export function expandPaths(paths: readonly string[]): string[] {
  return paths.flatMap(p => {
    let isDir = false;
    try { isDir = p !== '-' && statSync(p).isDirectory(); } catch { /* readEntries names the problem */ }
    if (!isDir) return [p];
    const files = filesUnder(p);
    if (!files.length) throw new HarnessError('PIS_BAD_INPUT', `The folder ${p} holds no .json, .jsonl or .ndjson file: name the files to validate.`);
    return files;
  });
}
