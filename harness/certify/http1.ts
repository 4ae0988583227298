// Reads one HTTP/1.1 answer off a connection's bytes, as they come: the
// status line and headers (interim 1xx answers skipped), then the body framed
// by content-length, chunked transfer coding or the end of the connection
// (RFC 9112, 6.3). Whatever a receiver sends is bounded here: the status line
// and headers, a chunk-size line and trailers each have a byte cap, and a
// malformed answer is an error that says what was wrong, never a crash.
// The body itself goes to the caller chunk by chunk; the caller caps it.
//
// Why hand-written: the certification's sending core must keep up with
// autocannon (bench/certify.bench.ts, at least 0.8 of its rate). Measured on
// the 2-core machine, CPU per request against a bare receiver at 50
// connections, autocannon 18-23 us in the same runs: node:http's client with a
// keep-alive Agent 50-62 us, undici's Pool (pipelining 1) 27-39 us, neither
// yet keeping any evidence. Reading one answer alone, 10^6 times: this reader
// 1.3 us, http-parser-js (autocannon's own parser) 2.5-3.4 us, Node's llhttp
// binding 2.1 us (internal, deprecated). http-parser-js would put the core at
// the target's edge, and it has no cap on a chunk-size line (an endless one
// grows memory) and takes a size such as "1g" as 1 (parseInt), where this
// reader refuses it as malformed.

/**
 * Status line and headers of one answer (16 KiB, the default cap of Node's
 * HTTP parser and of undici: an answer beyond it is refused by them too).
 */
export const HEAD_LIMIT_BYTES = 16 * 1024;
/** A chunk-size line with its extensions (arbitrary: a size and any sane extension fit in far less). */
const CHUNK_LINE_LIMIT_BYTES = 1024;
// A kept-alive connection is used again only this long before the receiver
// said it would close it (as undici does: a request sent as the receiver
// closes is lost on the way).
const KEEP_ALIVE_MARGIN_MS = 2_000;

const CR = 13, LF = 10;
// Characters of a token (RFC 9110, 5.6.2), by character code.
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;

export interface AnswerEvents {
  /** The final status line and headers are in; `head` is their text, one byte a character. */
  head(status: number, head: string): void;
  /** A piece of the body; false to stop reading. */
  data(chunk: Buffer): boolean;
  /** The answer is complete. */
  end(): void;
}

const enum State { Head, Length, ChunkSize, ChunkData, ChunkEnd, Trailers, UntilClose, Done }

/** An answer that breaks HTTP/1.1: what was wrong, for the delivery's evidence. */
function malformed(what: string): Error {
  return new Error(`the answer is not valid HTTP/1.1: ${what}`);
}

export class AnswerParser {
  private state = State.Head;
  /** Bytes of an unfinished head, chunk-size line or trailer section, kept until its end comes. */
  private pending?: Buffer;
  /** Body bytes still due (content-length), or of the current chunk. */
  private remaining = 0;
  private keepAlive = false;
  /** How long the connection may wait idle for the next request, when the receiver said. */
  idleMs?: number;
  /** Bytes that came after the answer ended: the connection is out of step and not used again. */
  private extra = false;
  /** Bytes at the start of `pending` known to hold no end of the head (or trailers): a head that trickles in is not searched again from its start. */
  private searched = 0;

  constructor(private readonly on: AnswerEvents) {}

  /** Whether the answer is complete and its connection may carry the next request (for `idleMs` idle, when the receiver said). */
  reusable(): boolean {
    return this.state === State.Done && this.keepAlive && !this.extra;
  }

  /** Reads bytes of the connection; throws what was malformed. */
  push(chunk: Buffer): void {
    let buf = chunk, at = 0;
    if (this.pending) { buf = Buffer.concat([this.pending, chunk]); this.pending = undefined; }
    while (at < buf.length) {
      switch (this.state) {
        case State.Head: at = this.readHead(buf, at); break;
        case State.Length:
        case State.ChunkData: {
          const n = Math.min(this.remaining, buf.length - at);
          this.remaining -= n;
          if (!this.body(buf, at, at + n)) return;
          at += n;
          if (this.remaining > 0) break;
          if (this.state === State.Length) this.finish(); else this.state = State.ChunkEnd;
          break;
        }
        case State.ChunkSize: at = this.readChunkSize(buf, at); break;
        case State.ChunkEnd: at = this.readChunkEnd(buf, at); break;
        case State.Trailers: at = this.readTrailers(buf, at); break;
        case State.UntilClose: if (!this.body(buf, at, buf.length)) return; at = buf.length; break;
        case State.Done: this.extra = true; return;
      }
      if (at < 0) { this.pending = buf.subarray(-at - 1); return; }
    }
  }

  /** The connection ended: completes a body read until the end, else says what was cut short. */
  eof(): Error | undefined {
    if (this.state === State.UntilClose) { this.finish(); return undefined; }
    if (this.state === State.Done) return undefined;
    return this.state === State.Head ? undefined : new Error('the connection ended before the answer body was complete');
  }

  private body(buf: Buffer, from: number, to: number): boolean {
    return from === to || this.on.data(from === 0 && to === buf.length ? buf : buf.subarray(from, to));
  }

  private finish(): void {
    this.state = State.Done;
    this.on.end();
  }

  /** Returns the offset after the head, or -(start + 1) when the head is not complete yet. */
  private readHead(buf: Buffer, at: number): number {
    // Empty lines before a status line are tolerated (RFC 9112, 2.2).
    while (at < buf.length && (buf[at] === CR || buf[at] === LF)) at++;
    if (at === buf.length) return buf.length;
    const end = this.headEnd(buf, at);
    if (end < 0) {
      if (buf.length - at > HEAD_LIMIT_BYTES) throw malformed(`no end of the status line and headers within ${HEAD_LIMIT_BYTES} bytes`);
      return -at - 1;
    }
    if (end - at > HEAD_LIMIT_BYTES) throw malformed(`the status line and headers are longer than ${HEAD_LIMIT_BYTES} bytes`);
    const head = buf.toString('latin1', at, end);
    const next = end + (buf[end] === CR ? 2 : 1);
    const status = this.frame(head);
    // Interim answers (100 Continue, 103 Early Hints) come before the final one.
    if (status >= 100 && status < 200) { this.state = State.Head; return next; }
    this.on.head(status, head);
    if (this.state === State.Done) this.finish();
    return next;
  }

  /** Reads the status line and the headers that frame the body; sets the state the body starts in. */
  private frame(head: string): number {
    this.idleMs = undefined;
    const lineEnd = lineEndOf(head, 0);
    const status = statusOf(head, lineEnd);
    if (status === 101) throw malformed('101 Switching Protocols to a request that asked for no switch');
    let length: string | undefined, chunked = false, coded = false, close = false, keepAlive = false;
    for (let i = nextLine(head, lineEnd); i < head.length; i = nextLine(head, i)) {
      const e = lineEndOf(head, i);
      const colon = head.indexOf(':', i);
      if (colon < 0 || colon > e) throw malformed(`a header line without a colon: ${JSON.stringify(head.slice(i, Math.min(e, i + 80)))}`);
      if (!isToken(head, i, colon)) throw malformed(`a header name that is not a token: ${JSON.stringify(head.slice(i, Math.min(colon, i + 80)))}`);
      // Only four names frame the body; the rest are read when the evidence shows them.
      const key = framing(head, i, colon);
      if (key === 'content-length') {
        const value = ows(head, colon + 1, e);
        if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== value)) throw malformed(`content-length ${JSON.stringify(value.slice(0, 80))}`);
        length = value;
      } else if (key === 'transfer-encoding') {
        coded = true;
        chunked = lastToken(ows(head, colon + 1, e)) === 'chunked';
      } else if (key === 'connection') {
        const tokens = ows(head, colon + 1, e);
        // The usual value is one token: compared in place, the list read only otherwise.
        if (tokens.length === 10 && named(tokens, 0, 'keep-alive')) keepAlive = true;
        else if (tokens.length === 5 && named(tokens, 0, 'close')) close = true;
        else {
          const list = tokens.toLowerCase();
          if (hasToken(list, 'close')) close = true;
          if (hasToken(list, 'keep-alive')) keepAlive = true;
        }
      } else if (key === 'keep-alive') {
        const t = /(?:^|[,\s])timeout\s*=\s*(\d+)/i.exec(ows(head, colon + 1, e));
        if (t) this.idleMs = Number(t[1]) * 1000 - KEEP_ALIVE_MARGIN_MS;
      }
      i = e;
    }
    this.keepAlive = !close && (head.charCodeAt(7) === 49 || keepAlive) && !(this.idleMs !== undefined && this.idleMs <= 0);
    if (status < 200) return status;
    // Framing (RFC 9112, 6.3): no body for 204 and 304; a transfer coding wins over content-length,
    // and a body not ending in chunked runs to the end of the connection.
    if (status === 204 || status === 304) this.state = State.Done;
    else if (coded) {
      this.state = chunked ? State.ChunkSize : State.UntilClose;
      // A length beside a transfer coding can be an attempt at smuggling: the answer is read, the connection not used again.
      if (length !== undefined || !chunked) this.keepAlive = false;
    } else if (length !== undefined) {
      this.remaining = Number(length);
      this.state = this.remaining === 0 ? State.Done : State.Length;
    } else { this.state = State.UntilClose; this.keepAlive = false; }
    return status;
  }

  /**
   * Where the empty line that ends a head starting at `from` begins (its CR or
   * LF), or -1 when it has not come yet. Lines end in CRLF; a bare LF is read
   * as one too (RFC 9112, 2.2).
   */
  private headEnd(buf: Buffer, from: number): number {
    // A terminator is at most 3 bytes: the search resumes that far before where the last one ended.
    for (let lf = buf.indexOf(LF, from + this.searched); lf >= 0; lf = buf.indexOf(LF, lf + 1)) {
      const c = buf[lf + 1];
      if (c === LF || (c === CR && buf[lf + 2] === LF)) { this.searched = 0; return lf + 1; }
    }
    this.searched = Math.max(0, buf.length - from - 3);
    return -1;
  }

  private readChunkSize(buf: Buffer, at: number): number {
    const lf = buf.indexOf(LF, at);
    if (lf < 0) {
      if (buf.length - at > CHUNK_LINE_LIMIT_BYTES) throw malformed(`a chunk-size line longer than ${CHUNK_LINE_LIMIT_BYTES} bytes`);
      return -at - 1;
    }
    if (lf - at > CHUNK_LINE_LIMIT_BYTES) throw malformed(`a chunk-size line longer than ${CHUNK_LINE_LIMIT_BYTES} bytes`);
    // Hex digits, then optional whitespace and extensions (";name=value"), which are read past.
    let size = 0, i = at;
    for (let d = hex(buf[i]); d >= 0 && i - at < 12; d = hex(buf[++i])) size = size * 16 + d;
    let j = i;
    while (buf[j] === 32 || buf[j] === 9) j++;
    if (i === at || (j < lf && buf[j] !== 59 && !(buf[j] === CR && j === lf - 1))) {
      throw malformed(`the chunk-size line ${JSON.stringify(buf.toString('latin1', at, Math.min(lf, at + 80)).replace(/\r$/, ''))}`);
    }
    this.remaining = size;
    this.state = this.remaining === 0 ? State.Trailers : State.ChunkData;
    return lf + 1;
  }

  private readChunkEnd(buf: Buffer, at: number): number {
    if (buf[at] === LF) { this.state = State.ChunkSize; return at + 1; }
    if (buf[at] !== CR) throw malformed('chunk data longer than its chunk size');
    if (at + 1 === buf.length) return -at - 1;
    if (buf[at + 1] !== LF) throw malformed('chunk data longer than its chunk size');
    this.state = State.ChunkSize;
    return at + 2;
  }

  /** Trailer fields after the last chunk, up to an empty line; read and dropped, as the evidence shows headers only. */
  private readTrailers(buf: Buffer, at: number): number {
    if (buf[at] === LF || (buf[at] === CR && buf[at + 1] === LF)) { this.finish(); return at + (buf[at] === LF ? 1 : 2); }
    if (buf[at] === CR && at + 1 === buf.length) return -at - 1;
    const end = this.headEnd(buf, at);
    if (end < 0) {
      if (buf.length - at > HEAD_LIMIT_BYTES) throw malformed(`trailers longer than ${HEAD_LIMIT_BYTES} bytes`);
      return -at - 1;
    }
    if (end - at > HEAD_LIMIT_BYTES) throw malformed(`trailers longer than ${HEAD_LIMIT_BYTES} bytes`);
    this.finish();
    return end + (buf[end] === CR ? 2 : 1);
  }
}

/** The end of the line starting at `from` in a head (its CR or LF), or the head's length. */
function lineEndOf(head: string, from: number): number {
  const lf = head.indexOf('\n', from);
  const e = lf < 0 ? head.length : lf;
  return e > from && head.charCodeAt(e - 1) === CR ? e - 1 : e;
}

/** The start of the line after the line that ends at `end`. */
function nextLine(head: string, end: number): number {
  return head.charCodeAt(end) === CR ? end + 2 : end + 1;
}

/**
 * The headers of a head as the evidence shows them: names in lower case,
 * values as UTF-8 (as undici decodes them), repeated names joined with ", ".
 */
export function headerRecord(head: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = nextLine(head, lineEndOf(head, 0)); i < head.length; i = nextLine(head, i)) {
    const e = lineEndOf(head, i);
    const colon = head.indexOf(':', i);
    const name = head.slice(i, colon).toLowerCase();
    const raw = ows(head, colon + 1, e);
    const value = /[^\x00-\x7f]/.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
    out[name] = name in out ? `${out[name]}, ${value}` : value;
    i = e;
  }
  return out;
}

/** `head[from, to)` without the optional whitespace around it (spaces and tabs only: other bytes are the value's). */
function ows(head: string, from: number, to: number): string {
  while (from < to && (head.charCodeAt(from) === 32 || head.charCodeAt(from) === 9)) from++;
  while (to > from && (head.charCodeAt(to - 1) === 32 || head.charCodeAt(to - 1) === 9)) to--;
  return head.slice(from, to);
}

const FRAMING = ['content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/** Which of the FRAMING names `head[from, to)` is, in any case; undefined for any other. */
function framing(head: string, from: number, to: number): string | undefined {
  for (const name of FRAMING) if (name.length === to - from && named(head, from, name)) return name;
  return undefined;
}

/** Whether `head` at `from` holds `name` (lower case) in any case. */
function named(head: string, from: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = head.charCodeAt(from + i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== name.charCodeAt(i)) return false;
  }
  return true;
}

function isToken(head: string, from: number, to: number): boolean {
  if (from === to) return false;
  for (let i = from; i < to; i++) if (TCHAR[head.charCodeAt(i)] !== 1) return false;
  return true;
}

/** The status code of a status line "HTTP/1.x NNN reason" (the reason may be empty or left out); throws for anything else. */
function statusOf(head: string, lineEnd: number): number {
  const minor = head.charCodeAt(7), a = head.charCodeAt(9) - 48, b = head.charCodeAt(10) - 48, c = head.charCodeAt(11) - 48;
  if (!head.startsWith('HTTP/1.') || (minor !== 48 && minor !== 49) || head.charCodeAt(8) !== 32 || lineEnd < 12
    || !(a >= 1 && a <= 9 && b >= 0 && b <= 9 && c >= 0 && c <= 9) || (lineEnd > 12 && head.charCodeAt(12) !== 32)) {
    throw malformed(`the status line is ${JSON.stringify(head.slice(0, Math.min(lineEnd, 80)))}`);
  }
  return a * 100 + b * 10 + c;
}

/** Whether a comma-separated list (in lower case) holds `token`. */
function hasToken(list: string, token: string): boolean {
  return list === token || (list.includes(token) && list.split(',').some(t => t.trim() === token));
}

/** The last item of a comma-separated list, in lower case. */
function lastToken(list: string): string {
  return list.slice(list.lastIndexOf(',') + 1).trim().toLowerCase();
}

/** The value of a hex digit's character code, or -1. */
function hex(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 32;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}
