// Splits a byte stream of JSON into the items `validate` judges, in one pass
// and in bounded memory: a JSON array's elements, JSON lines, or JSON values
// one after another. Fed chunk by chunk, so a 100 MB array is never held whole
// (only the item being read is), and iterative (an explicit stack), so a
// 100,000-deep array is an ordinary input. Besides the items it tells what
// JSON.parse hides: where a syntax error is (line and column), field names
// that occur twice in one object (RFC 8259 section 4: a receiver's parser may
// keep either value), and bytes that are not UTF-8 (RFC 8259 section 8.1; a
// decoder silently replaces them). After a broken item it resumes at the next
// line that starts a value in the column the broken one started in (the next
// JSON line, the next element), so one cut-off line does not hide the others.

/** 1-based line and column; the column counts characters, not bytes. */
export interface Position { line: number; column: number }

/** A field name given twice in one object; value texts are the raw JSON, cut to 60 characters. */
export interface DuplicateName { pointer: string; name: string; first: string; second: string; at: Position }

/** The first byte of an item that is not UTF-8. */
export interface BadUtf8 { pointer: string; byte: number; at: Position }

/**
 * An item's raw bytes and where it starts. `keys` counts the field names in
 * it: when JSON.parse's value has fewer, a name was given twice and
 * inspectItem() says which. Names are compared only then (the fast pass keeps
 * no name: a 100 MB file has millions of them).
 */
export type Piece =
  | { kind: 'item'; at: Position; bytes: Buffer; keys: number; duplicates: DuplicateName[]; badUtf8?: BadUtf8 }
  | { kind: 'broken'; at: Position; reason: string };

interface Member { start: number; end: number }
type Frame =
  | { obj: true; key: string; member: Member; keys?: Map<string, Member> }
  | { obj: false; index: number; list: boolean };
interface Item {
  start: number; at: Position; base: number; pieces: Buffer[]; keys: number;
  duplicates: Array<{ name: string; pointer: string; first: Member; second: Member; at: Position }>; badUtf8?: BadUtf8;
}

const enum S { Value, ArrFirst, ObjFirst, ObjKey, Colon, After, Str, Num, Lit, Skip }
const isWs = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isNumByte = (b: number) => (b >= 0x30 && b <= 0x39) || b === 0x2e || b === 0x65 || b === 0x45 || b === 0x2b || b === 0x2d;
const isHex = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46);
const LITERALS: Record<number, string> = { 0x74: 'true', 0x66: 'false', 0x6e: 'null' };
const ESCAPES = new Set([...'"\\/bfnrt'].map(c => c.charCodeAt(0)));
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const NO_MEMBER: Member = { start: 0, end: 0 };
const cut = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
const pointerPart = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

export class JsonSplitter {
  private state = S.Value;
  private readonly stack: Frame[] = [];
  private item?: Item;
  private out: Piece[] = [];

  /** With `names`, field names are compared and duplicates located (inspectItem's slower pass). */
  constructor(private readonly names = false) {}
  /** Absolute offset of the byte being read, and of the current chunk's first byte. */
  private abs = 0;
  private chunk: Buffer = Buffer.alloc(0);
  private chunkStart = 0;
  private line = 1;
  private col = 0;
  private newlineBefore = false;
  /** Only white space came before this byte on its line. */
  private lineStart = true;
  private solidLine = 1;
  private solidCol = 0;
  private skipColumn = 1;
  // The token being read.
  private strIsKey = false;
  private strStart = 0;
  private strEscaped = false;
  /** 0 none, 1 after a backslash, 2..5 hex digits of a \u escape left + 1. */
  private esc = 0;
  private utf8Need = 0;
  private utf8Lo = 0x80;
  private utf8Hi = 0xbf;
  private utf8Lead0 = 0;
  private utf8At: Position = { line: 1, column: 1 };
  private num = '';
  private lit = '';
  private litAt = 0;
  private litPos: Position = { line: 1, column: 1 };

  /** Feeds the next bytes; returns the pieces they completed. */
  write(chunk: Buffer): Piece[] {
    this.chunk = chunk;
    this.chunkStart = this.abs;
    let i = 0;
    if (this.abs === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) { i = 3; this.abs = 3; this.chunkStart = 0; }
    for (; i < chunk.length; i++) {
      if (this.state === S.Str && !this.esc && !this.utf8Need) { i = this.plainRun(i); if (i >= chunk.length) break; }
      this.step(chunk[i]);
    }
    if (this.item) this.item.pieces.push(Buffer.from(chunk.subarray(Math.max(0, this.item.start - this.chunkStart))));
    return this.drain();
  }

  /** Ends the input; returns what the last bytes completed, or why they are broken. */
  end(): Piece[] {
    this.chunk = Buffer.alloc(0);
    this.chunkStart = this.abs;
    if (this.state === S.Num) this.endNumber();
    if (this.state !== S.Skip && (this.stack.length || this.state === S.Str || this.state === S.Lit)) {
      const what = this.state === S.Str ? 'a string' : this.stack[this.stack.length - 1]?.obj ? 'an object' : 'an array';
      this.broken(`the text ends before ${what} is closed`, this.afterSolid());
    }
    return this.drain();
  }

  private drain(): Piece[] { const p = this.out; this.out = []; return p; }
  private here(): Position { return { line: this.line, column: this.col }; }
  /** Just after the last byte that was not white space. */
  private afterSolid(): Position { return { line: this.solidLine, column: this.solidCol + 1 }; }

  /** Plain string bytes from i (the hot path of big files); returns the first index that needs step(). */
  private plainRun(i: number): number {
    const c = this.chunk;
    const from = i;
    for (; i < c.length; i++) {
      const b = c[i];
      if (b === 0x22 || b === 0x5c || b < 0x20 || b >= 0x80) break;
    }
    if (i > from) {
      this.col += i - from;
      this.abs += i - from;
      this.lineStart = false;
      this.solidLine = this.line; this.solidCol = this.col;
    }
    return i;
  }

  private step(b: number): void {
    if (this.newlineBefore) { this.line++; this.col = 0; this.lineStart = true; this.newlineBefore = false; }
    if ((b & 0xc0) !== 0x80 || !this.utf8Need) this.col++;
    switch (this.state) {
      case S.Str: this.stringByte(b); break;
      case S.Skip: this.skipByte(b); break;
      case S.Lit: this.literalByte(b); break;
      case S.Num:
        if (isNumByte(b)) { this.num += String.fromCharCode(b); break; }
        this.endNumber();
        if ((this.state as S) === S.Skip) this.skipByte(b); else this.structural(b);
        break;
      default: this.structural(b);
    }
    if (b === 0x0a) this.newlineBefore = true;
    else if (!isWs(b)) { this.lineStart = false; this.solidLine = this.line; this.solidCol = this.col; }
    this.abs++;
  }

  private structural(b: number): void {
    if (isWs(b)) return;
    const top = this.stack[this.stack.length - 1];
    switch (this.state) {
      case S.ArrFirst:
        if (b === 0x5d) return this.close();
        return this.beginValue(b);
      case S.Value: return this.beginValue(b);
      case S.ObjFirst: case S.ObjKey:
        if (b === 0x7d && this.state === S.ObjFirst) return this.close();
        if (b !== 0x22) return this.error('expected a double-quoted field name', b);
        this.strIsKey = true; this.strEscaped = false; this.strStart = this.abs; this.state = S.Str;
        return;
      case S.Colon:
        if (b !== 0x3a) return this.error("expected ':' after a field name", b);
        this.state = S.Value;
        return;
      case S.After:
        if (!top) return this.beginValue(b); // the next top-level value
        if (b === 0x2c) { this.state = top.obj ? S.ObjKey : S.Value; return; }
        if (b === (top.obj ? 0x7d : 0x5d)) return this.close();
        return this.error(`expected ',' or '${top.obj ? '}' : ']'}' after ${top.obj ? 'a field value' : 'an array element'}`, b);
    }
  }

  private beginValue(b: number): void {
    const top = this.stack[this.stack.length - 1];
    if (!top && b !== 0x5b) this.item = this.newItem(0);
    if (top && !top.obj && top.list) this.item = this.newItem(1);
    if (top?.obj) top.member.start = this.abs;
    if (b === 0x7b) { this.stack.push({ obj: true, key: '', member: NO_MEMBER, ...(this.names ? { keys: new Map() } : {}) }); this.state = S.ObjFirst; return; }
    // A top-level array is a list of items (also one per JSON line).
    if (b === 0x5b) { this.stack.push({ obj: false, index: 0, list: !top }); this.state = S.ArrFirst; return; }
    if (b === 0x22) { this.strIsKey = false; this.state = S.Str; return; }
    if (b === 0x2d || (b >= 0x30 && b <= 0x39)) { this.num = String.fromCharCode(b); this.state = S.Num; return; }
    const word = LITERALS[b];
    if (word) { this.lit = word; this.litAt = 1; this.litPos = this.here(); this.state = S.Lit; return; }
    this.error('expected a JSON value', b);
  }

  private newItem(base: number): Item {
    return { start: this.abs, at: this.here(), base, pieces: [], keys: 0, duplicates: [] };
  }

  /** A value ended at endAbs (exclusive). */
  private valueDone(endAbs: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.obj) top.member.end = endAbs;
    else if (top) top.index++;
    this.state = S.After;
    if (this.item && this.stack.length === this.item.base) this.finishItem(endAbs);
  }

  private close(): void {
    const frame = this.stack.pop()!;
    if (!frame.obj && frame.list) {
      if (frame.index === 0) this.out.push({ kind: 'broken', at: this.here(), reason: 'an empty array: there is nothing to validate in it' });
      this.state = S.After;
      return;
    }
    this.valueDone(this.abs + 1);
  }

  private stringByte(b: number): void {
    if (this.utf8Need) {
      if (b >= this.utf8Lo && b <= this.utf8Hi) { this.utf8Need--; this.utf8Lo = 0x80; this.utf8Hi = 0xbf; return; }
      // A sequence cut short: reported at its first byte.
      this.badUtf8(this.utf8Lead0, this.utf8At);
      this.utf8Need = 0; this.utf8Lo = 0x80; this.utf8Hi = 0xbf;
    }
    if (this.esc === 1) {
      if (b === 0x75) this.esc = 5;
      else if (ESCAPES.has(b)) this.esc = 0;
      else this.error('an unknown escape sequence in a string', b);
      return;
    }
    if (this.esc > 1) {
      if (!isHex(b)) return this.error('\\u must be followed by four hex digits', b);
      this.esc = this.esc === 2 ? 0 : this.esc - 1;
      return;
    }
    if (b === 0x5c) { this.esc = 1; this.strEscaped = true; return; }
    if (b === 0x22) return this.endString();
    if (b < 0x20) return this.error(b === 0x0a ? 'a line break inside a string (is the line cut off?)' : 'a control character inside a string', b);
    if (b >= 0x80) this.utf8Lead(b);
  }

  /** The range the next byte must be in after a UTF-8 lead byte (RFC 3629 section 4). */
  private utf8Lead(b: number): void {
    this.utf8Lead0 = b;
    this.utf8At = this.here();
    if (b >= 0xc2 && b <= 0xdf) this.utf8Need = 1;
    else if (b >= 0xe0 && b <= 0xef) { this.utf8Need = 2; if (b === 0xe0) this.utf8Lo = 0xa0; if (b === 0xed) this.utf8Hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { this.utf8Need = 3; if (b === 0xf0) this.utf8Lo = 0x90; if (b === 0xf4) this.utf8Hi = 0x8f; }
    else this.badUtf8(b, this.here());
  }

  private badUtf8(b: number, at: Position): void {
    if (this.item && !this.item.badUtf8) this.item.badUtf8 = { pointer: this.pointer(), byte: b, at };
  }

  private endString(): void {
    if (!this.strIsKey) return this.valueDone(this.abs + 1);
    this.state = S.Colon;
    if (this.item) this.item.keys++;
    const top = this.stack[this.stack.length - 1] as Extract<Frame, { obj: true }>;
    if (!top.keys) return;
    const name = this.keyName();
    top.key = name;
    top.member = { start: this.abs + 1, end: this.abs + 1 };
    const first = top.keys.get(name);
    if (!first) top.keys.set(name, top.member);
    else this.item?.duplicates.push({ name, pointer: this.pointer(), first, second: top.member, at: this.here() });
  }

  /** The field name just read; most have no escapes and are decoded without a copy. */
  private keyName(): string {
    const from = this.strStart + 1, to = this.abs;
    if (!this.strEscaped && from >= this.chunkStart) return this.chunk.toString('utf8', from - this.chunkStart, to - this.chunkStart);
    const raw = this.bytes(from - 1, to + 1).toString('utf8');
    try { return JSON.parse(raw) as string; } catch { return raw.slice(1, -1); }
  }

  private endNumber(): void {
    if (NUMBER.test(this.num)) return this.valueDone(this.abs);
    this.broken(`${JSON.stringify(cut(this.num))} is not a JSON number`, { line: this.solidLine, column: this.solidCol });
  }

  private literalByte(b: number): void {
    if (b !== this.lit.charCodeAt(this.litAt)) {
      // Reported where the word starts, with the word: `nope` is not "found 'o'".
      const word = this.lit.slice(0, this.litAt) + this.found(b).replace(/^"|"$/g, '');
      return this.broken(`expected a JSON value, found ${JSON.stringify(word)}`, this.litPos);
    }
    if (++this.litAt === this.lit.length) this.valueDone(this.abs + 1);
  }

  /** JSON pointer (RFC 6901) of the current place inside the item. */
  private pointer(): string {
    return this.stack.slice(this.item?.base ?? 0).map(f => `/${pointerPart(f.obj ? f.key : f.index)}`).join('');
  }

  /** The item's bytes from one absolute offset to another, across the chunks read so far. */
  private bytes(from: number, to: number): Buffer {
    if (from >= this.chunkStart) return this.chunk.subarray(from - this.chunkStart, to - this.chunkStart);
    const item = this.item!;
    const all = Buffer.concat([...item.pieces, this.chunk.subarray(0, Math.max(0, to - this.chunkStart))]);
    return all.subarray(from - item.start, to - item.start);
  }

  private finishItem(endAbs: number): void {
    const item = this.item!;
    const buf = this.bytes(item.start, endAbs);
    this.item = undefined;
    const text = (m: Member) => cut(buf.toString('utf8', m.start - item.start, m.end - item.start));
    this.out.push({
      kind: 'item', at: item.at, bytes: buf, keys: item.keys,
      duplicates: item.duplicates.map(d => ({ pointer: d.pointer, name: d.name, first: text(d.first), second: text(d.second), at: d.at })),
      ...(item.badUtf8 ? { badUtf8: item.badUtf8 } : {}),
    });
  }

  /** A few characters from the current byte, for a message. */
  private found(b: number): string {
    if (b === 0x0a) return 'the end of the line';
    if (b < 0x20 || b >= 0x7f) return `byte 0x${b.toString(16).padStart(2, '0')}`;
    const rel = this.abs - this.chunkStart;
    let end = rel + 1;
    while (end < this.chunk.length && end - rel < 12 && /[A-Za-z0-9_.+-]/.test(String.fromCharCode(this.chunk[end])) &&
      /[A-Za-z0-9_.+-]/.test(String.fromCharCode(b))) end++;
    return JSON.stringify(this.chunk.subarray(rel, end).toString('latin1'));
  }

  private error(reason: string, b: number): void {
    const started = this.item?.at;
    // A line that opens a value where the broken item started: the item ends before it (a cut-off JSON line).
    if ((b === 0x7b || b === 0x5b) && this.lineStart && started && started.line < this.line && started.column === this.col) {
      this.out.push({ kind: 'broken', at: this.afterSolid(),
        reason: `the value that starts at line ${started.line} is cut off: line ${this.line} begins a new value before it is closed` });
      this.resetTo(this.item!.base);
      this.structural(b);
      return;
    }
    this.broken(`${reason}, found ${this.found(b)}`, this.here());
  }

  /** Reports the current item broken and skips to the next line that starts a value in its column. */
  private broken(reason: string, at: Position): void {
    this.out.push({ kind: 'broken', at, reason });
    this.skipColumn = this.item?.at.column ?? 1;
    this.resetTo(this.item?.base ?? (this.stack[0] && !this.stack[0].obj && this.stack[0].list ? 1 : 0));
    this.state = S.Skip;
  }

  private resetTo(base: number): void {
    this.item = undefined;
    this.stack.length = Math.min(this.stack.length, base);
    this.state = S.Value;
    this.esc = 0; this.utf8Need = 0; this.utf8Lo = 0x80; this.utf8Hi = 0xbf;
  }

  private skipByte(b: number): void {
    if (!this.lineStart || isWs(b)) return;
    if ((b === 0x7b || b === 0x5b) && this.col === this.skipColumn) { this.state = S.Value; this.structural(b); }
    // The end of a list whose element was broken.
    else if (b === 0x5d && this.stack.length === 1) { this.stack.pop(); this.state = S.After; }
  }
}

/** Duplicate names and the first byte that is not UTF-8 of one item, with positions in the file. */
export function inspectItem(bytes: Buffer, at: Position): { duplicates: DuplicateName[]; badUtf8?: BadUtf8 } {
  const splitter = new JsonSplitter(true);
  const piece = [...splitter.write(bytes), ...splitter.end()].find(p => p.kind === 'item');
  if (piece?.kind !== 'item') return { duplicates: [] };
  // Positions inside the item, moved to where the item starts in its file.
  const move = (p: Position): Position => ({ line: at.line + p.line - 1, column: p.line === 1 ? at.column + p.column - 1 : p.column });
  return {
    duplicates: piece.duplicates.map(d => ({ ...d, at: move(d.at) })),
    ...(piece.badUtf8 ? { badUtf8: { ...piece.badUtf8, at: move(piece.badUtf8.at) } } : {}),
  };
}
