// A small JSON scanner for what JSON.parse does not tell: where a syntax error
// is (Node 20 omits the position for some errors) and where each element of a
// top-level array starts (so `validate` can name an item's line).

export interface JsonScan {
  /** Offset and reason of the first syntax error, if any. */
  error?: { offset: number; reason: string };
  /** Start offsets of the elements of a top-level array. */
  elements: number[];
  /** Start and end offsets of each top-level value (several only with `stream`). */
  values: Array<{ start: number; end: number }>;
}

class Stop extends Error { constructor(readonly offset: number, readonly reason: string) { super(reason); } }

/** Scans one JSON value, or with `stream` a sequence of values separated by white space. */
export function scanJson(text: string, opts: { stream?: boolean } = {}): JsonScan {
  let i = 0;
  const elements: number[] = [];
  const values: JsonScan['values'] = [];
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const fail = (reason: string): never => {
    throw new Stop(i, i >= text.length ? 'the text ends too early: an object, array or string is not closed' : reason);
  };
  const token = () => JSON.stringify(/^[^\s,:\]}]{1,12}/.exec(text.slice(i))?.[0] ?? text[i]);
  const literal = (word: string) => { if (text.startsWith(word, i)) i += word.length; else fail(`expected a JSON value, found ${token()}`); };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('a control character (such as a line break) inside a string');
      i++;
    }
    if (i >= text.length) fail('a string that is never closed');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(`expected a JSON value, found ${token()}`);
    i += m![0].length;
  };
  const value = (depth: number): void => {
    ws();
    if (i >= text.length) fail('the text ends where a value should be');
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a double-quoted field name');
        string(); ws();
        if (text[i] !== ':') fail("expected ':' after a field name");
        i++; value(depth + 1); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail("expected ',' or '}' after a field value");
      }
    }
    if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        ws();
        if (depth === 0) elements.push(i);
        value(depth + 1); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail("expected ',' or ']' after an array element");
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  try {
    ws();
    do {
      const start = i;
      value(0);
      values.push({ start, end: i });
      ws();
    } while (opts.stream && i < text.length);
    if (i < text.length) fail('more text after the JSON value (for several values, write one per line)');
    return { elements, values };
  } catch (e) {
    if (e instanceof Stop) return { error: { offset: e.offset, reason: e.reason }, elements, values };
    throw e;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
