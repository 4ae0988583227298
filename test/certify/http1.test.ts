// The sender's HTTP/1.1 answer reader on the bytes a receiver may send, fed
// whole and split at every byte (a socket hands over any split): framing by
// content-length, chunks and the end of the connection, interim answers, when
// a connection may carry the next request, and malformed answers refused with
// a sentence, each within a byte cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerParser, HEAD_LIMIT_BYTES, headerRecord } from '../../harness/certify/http1.ts';

interface Read { status?: number; head?: string; body: string; ended: boolean; parser: AnswerParser }

/** Feeds `wire` in pieces cut at `cuts`; `eof` ends the connection after it. */
function read(wire: string | Buffer, cuts: number[] = [], eof = false): Read {
  const r: Read = { body: '', ended: false } as Read;
  r.parser = new AnswerParser({
    head: (status, head) => { r.status = status; r.head = head; },
    data: chunk => { r.body += chunk.toString('latin1'); return true; },
    end: () => { r.ended = true; },
  });
  const bytes = Buffer.isBuffer(wire) ? wire : Buffer.from(wire, 'latin1');
  let at = 0;
  for (const cut of [...cuts, bytes.length]) { r.parser.push(bytes.subarray(at, cut)); at = cut; }
  if (eof) { const e = r.parser.eof(); if (e) throw e; }
  return r;
}

/** The same answer split at every byte, and in one piece: each reading must match. */
function everySplit(wire: string, check: (r: Read) => void, eof = false): void {
  check(read(wire, [], eof));
  for (let i = 1; i < wire.length; i++) check(read(wire, [i], eof));
  check(read(wire, Array.from({ length: wire.length - 1 }, (_, i) => i + 1), eof));
}

const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nDate: x\r\n\r\n2\r\nok\r\n5;ext=1\r\n, all\r\n0\r\nTrailer: t\r\n\r\n';

test('framed answers are read the same however the bytes are split, and leave the connection usable', () => {
  everySplit('HTTP/1.1 200 OK\r\nContent-Length: 7\r\nKeep-Alive: timeout=5\r\n\r\n{"a":1}', r => {
    assert.deepEqual([r.status, r.body, r.ended], [200, '{"a":1}', true]);
    assert.deepEqual([r.parser.reusable(), r.parser.idleMs], [true, 3_000]);
  });
  everySplit(CHUNKED, r => {
    assert.deepEqual([r.status, r.body, r.ended], [200, 'ok, all', true]);
    assert.deepEqual([r.parser.reusable(), r.parser.idleMs], [true, undefined]);
  });
  // An interim 100 Continue is skipped; bare LF line ends are read as CRLF; 204 has no body.
  everySplit('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\ncontent-length: 2\n\nok',
    r => assert.deepEqual([r.status, r.body, r.ended], [201, 'ok', true]));
  everySplit('HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n', r => assert.deepEqual([r.status, r.body, r.ended], [204, '', true]));
});

test('an answer without a length runs to the end of the connection, which is then not used again', () => {
  everySplit('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end', r => {
    assert.deepEqual([r.status, r.body, r.ended], [200, 'until the end', true]);
    assert.equal(r.parser.reusable(), false);
  }, true);
  const open = read('HTTP/1.1 200 OK\r\n\r\nmore to come');
  assert.equal(open.ended, false, 'complete only when the connection ends');
  // A body cut short by the end of the connection is an error; no answer at all is for the caller to name.
  assert.match(read('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort').parser.eof()?.message ?? '', /ended before the answer body was complete/);
  assert.equal(read('').parser.eof(), undefined);
});

test('connection: close, HTTP/1.0, a too short keep-alive, bytes after the answer and a length beside chunks each leave the connection unused', () => {
  const cases = [
    'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok',
    'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok',
    'HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 2\r\n\r\nok',
    'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
    'HTTP/1.1 200 OK\r\nCONNECTION: TE, Close\r\nCONTENT-LENGTH: 2\r\n\r\nok',
  ];
  for (const wire of cases) {
    const r = read(wire);
    assert.deepEqual([r.status, r.body, r.ended], [200, 'ok', true], wire);
    assert.equal(r.parser.reusable(), false, wire);
  }
  for (const keep of ['keep-alive', 'Keep-Alive', 'TE, keep-alive']) {
    assert.ok(read(`HTTP/1.0 200 OK\r\nConnection: ${keep}\r\nContent-Length: 2\r\n\r\nok`).parser.reusable(), keep);
  }
});

test('malformed answers are refused with what was wrong, and no head or chunk line is read past its cap', () => {
  const bad: [string | Buffer, RegExp][] = [
    ['garbage\r\n\r\n', /the status line is "garbage"/],
    ['HTTP/1.1 2000 OK\r\n\r\n', /the status line/],
    ['HTTP/1.1 101 Switching Protocols\r\n\r\n', /101 Switching Protocols/],
    ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', /a header line without a colon/],
    ['HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n', /a header name that is not a token/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok', /content-length "3"/],
    ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n', /content-length "-1"/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /the chunk-size line "zz"/],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokay\r\n', /chunk data longer than its chunk size/],
    [`HTTP/1.1 200 OK\r\nX: ${'y'.repeat(HEAD_LIMIT_BYTES)}\r\n\r\n`, /longer than 16384 bytes/],
    // Headers that never end: refused once the cap is passed, without waiting for an end.
    [Buffer.from(`HTTP/1.1 200 OK\r\n${'X-Endless: y\r\n'.repeat(2_000)}`), /no end of the status line and headers within 16384 bytes/],
    [`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'1'.repeat(2_000)}`, /a chunk-size line longer than 1024 bytes/],
  ];
  for (const [wire, message] of bad) assert.throws(() => read(wire), message, String(wire).slice(0, 60));
});

test('the headers the evidence shows: lower-case names, UTF-8 values, repeated names joined', () => {
  const wire = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Note:  café \r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n';
  const head = Buffer.from(wire, 'utf8').toString('latin1');
  assert.deepEqual(headerRecord(head), { 'content-type': 'text/plain', 'x-note': 'café', 'set-cookie': 'a=1, b=2' });
});
