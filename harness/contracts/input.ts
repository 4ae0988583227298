// Reads the files given to `validate`: one JSON value, a JSON array of items,
// JSON lines (one value per line), or several JSON values one after another.
// Bad input is a harness error with one sentence that names the file, the line
// and column, and the fix.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { lineColumn, scanJson } from './json-locate.ts';

export interface InputItem { file: string; line: number; value: unknown }

function notJson(file: string, text: string, offset: number, reason: string): HarnessError {
  const { line, column } = lineColumn(text, offset);
  return new HarnessError('PIS_BAD_INPUT',
    `${file} is not JSON at line ${line}, column ${column} (${reason}): fix the file, or give one JSON value per line.`);
}

function read(file: string): string {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new HarnessError('PIS_BAD_INPUT', `Cannot read ${file} (${why}): give the path of a JSON or JSON-lines file.`, { cause: e });
  }
}

/** A whole-file JSON value: an array is a list of items, anything else is one item. */
function wholeFile(file: string, text: string, value: unknown): InputItem[] {
  if (!Array.isArray(value)) return [{ file, line: lineColumn(text, text.search(/\S/)).line, value }];
  if (!value.length) throw new HarnessError('PIS_BAD_INPUT', `${file} holds an empty array: there is nothing to validate; give at least one item.`);
  const { elements } = scanJson(text);
  return value.map((v, i) => ({ file, line: elements[i] !== undefined ? lineColumn(text, elements[i]).line : 1, value: v }));
}

function parses(s: string): boolean {
  try { JSON.parse(s); return true; } catch { return false; }
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
    try { isDir = p !== '-' && statSync(p).isDirectory(); } catch { /* readItems names the problem */ }
    if (!isDir) return [p];
    const files = filesUnder(p);
    if (!files.length) throw new HarnessError('PIS_BAD_INPUT', `The folder ${p} holds no .json, .jsonl or .ndjson file: name the files to validate.`);
    return files;
  });
}

/** The items of one input file, each with its 1-based line. */
export function readItems(file: string): InputItem[] {
  const text = read(file).replace(/^\uFEFF/, '');
  if (!text.trim()) throw new HarnessError('PIS_BAD_INPUT', `${file} is empty: give a file with a JSON value or JSON lines.`);
  try {
    return wholeFile(file, text, JSON.parse(text));
  } catch (e) {
    if (e instanceof HarnessError) throw e;
  }
  const lines = text.split('\n');
  const filled = lines.map((l, i) => ({ text: l.replace(/\r$/, ''), line: i + 1 })).filter(l => l.text.trim());
  // JSON lines: several non-blank lines of which the first is a JSON value alone.
  if (filled.length > 1 && parses(filled[0].text)) {
    return filled.map(l => {
      try {
        return { file, line: l.line, value: JSON.parse(l.text) as unknown };
      } catch {
        const err = scanJson(l.text).error ?? { offset: 0, reason: 'not a JSON value' };
        throw new HarnessError('PIS_BAD_INPUT',
          `${file} is not JSON lines at line ${l.line}, column ${err.offset + 1} (${err.reason}): fix that line; each line must be one JSON value.`);
      }
    });
  }
  // Several JSON values one after another (e.g. pretty-printed bodies concatenated).
  const stream = scanJson(text, { stream: true });
  if (!stream.error && stream.values.length > 1)
    return stream.values.map(v => ({ file, line: lineColumn(text, v.start).line, value: JSON.parse(text.slice(v.start, v.end)) as unknown }));
  // An error after a first good value is best placed by the stream scan (inside the second value).
  const err = (stream.values.length ? stream.error : scanJson(text).error) ?? { offset: 0, reason: 'not a JSON value' };
  throw notJson(file, text, err.offset, err.reason);
}
