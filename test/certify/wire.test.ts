// The sending core's connections against raw TCP receivers: a connection is
// used again only when the answer left it in step, an answer that comes before
// the request is written out still counts, a malformed answer is named, and
// the evidence's sha256 is that of the bytes read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redactor } from '../../harness/report/redact.ts';
import { Transport } from '../../harness/certify/transport.ts';
import type { SenderOptions } from '../../harness/certify/options.ts';

const KEY = 'wire-test-key';

interface Raw { url: string; server: Server; connections: () => number }

/** A raw receiver: `answer` gets each request's socket and the count of connections so far. */
async function receiver(answer: (socket: Socket, connection: number, request: string) => void): Promise<Raw> {
  let n = 0;
  const server = createServer(socket => {
    const connection = ++n;
    let buf = '';
    socket.on('data', d => {
      buf += d.toString('latin1');
      // One request per read is enough here: each test waits for an answer before the next request.
      const end = buf.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/.exec(buf)?.[1] ?? 0);
      if (end >= 0 && buf.length >= end + 4 + length) { const req = buf; buf = ''; answer(socket, connection, req); }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server, connections: () => n };
}

function transport(url: string): Transport {
  const opts: SenderOptions = { url, apiKey: KEY, timeScale: 0.2, concurrency: 4, maxRequests: 100, insecure: false };
  return new Transport(opts, new Redactor().add(KEY, 'PIS_WEBHOOK_API_KEY'));
}

test('deliveries share a kept-alive connection; connection: close, or bytes after an answer, make the next one open another', async () => {
  const requests: string[] = [];
  const r = await receiver((socket, _n, req) => {
    requests.push(req);
    if (req.includes('"close"')) socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok');
    else if (req.includes('"extra"')) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n');
    else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  });
  const t = transport(r.url);
  try {
    const seen: number[] = [];
    for (const body of ['a', 'b', 'close', 'c', 'extra', 'd']) {
      const d = await t.post({ body }, { kind: 'normal', label: body });
      assert.equal(d.status, 200, `${body}: ${d.error}`);
      seen.push(r.connections());
    }
    assert.deepEqual(seen, [1, 1, 1, 2, 2, 3]);
    // The request as an HTTP client sends it: host, connection, the headers, the length, the body.
    const port = new URL(r.url).port;
    assert.equal(requests[0], `POST /hooks HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: keep-alive\r\ncontent-type: application/json\r\n`
      + `api-key: ${KEY}\r\ncontent-length: 12\r\n\r\n{"body":"a"}`);
    assert.deepEqual(t.log[0].evidence.response?.headers, { 'content-length': '2' });
  } finally { await t.close(); r.server.close(); }
});

test('an answer that comes before a 2 MB request is written out counts', async () => {
  const r = await receiver(() => {});
  // Answers at the first bytes of the request and closes without reading the rest.
  r.server.removeAllListeners('connection');
  r.server.on('connection', (socket: Socket) => {
    socket.on('error', () => {});
    socket.once('data', () => socket.end('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 9\r\n\r\ntoo large'));
  });
  const t = transport(r.url);
  try {
    const d = await t.post(undefined, { kind: 'garbage', label: 'large', raw: `[${'1234567,'.repeat(262_144)}1]` });
    // Reset before the answer was read is the other outcome the kernel allows; both are refusals.
    assert.ok(d.status === 413 || /closed the connection/.test(d.error ?? ''), `${d.status} ${d.error}`);
    if (d.status === 413) assert.equal(d.evidence.response?.body, 'too large');
    process.stdout.write(`# early answer to a 2 MB request: ${d.status ?? d.error}\n`);
  } finally { await t.close(); r.server.close(); }
});

test('a malformed answer is named in the delivery, and the sha256 in the evidence is that of the bytes read', async () => {
  const long = Buffer.alloc(10_000, 'L');
  const r = await receiver((socket, _n, req) => {
    if (req.includes('"bad"')) socket.write('HTTP/1.1 OK\r\n\r\n');
    else socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 500 Oops\r\nContent-Length: ${long.length}\r\n\r\n`), long]));
  });
  const t = transport(r.url);
  try {
    const bad = await t.post({ bad: true }, { kind: 'normal', label: 'bad' });
    assert.equal(bad.status, undefined);
    assert.equal(bad.error, 'the answer is not valid HTTP/1.1: the status line is "HTTP/1.1 OK"');
    const d = await t.post({ ok: true }, { kind: 'normal', label: 'long' });
    assert.equal(d.status, 500);
    assert.equal(d.evidence.response?.bodySha256, createHash('sha256').update(long).digest('hex'));
    assert.equal(d.evidence.response?.bodyBytes, long.length);
  } finally { await t.close(); r.server.close(); }
});
