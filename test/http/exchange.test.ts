// Every request the harness makes is bounded: a total deadline over connect,
// headers and body, and what is kept of a body (harness/http/body.ts); and its
// evidence shows no credentials, even those written into the URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeadlineError, exchange } from '../../harness/http/exchange.ts';
import { EVIDENCE_HEAD_BYTES, READ_LIMIT_BYTES, WHOLE_BODY_BYTES } from '../../harness/http/body.ts';
import { Redactor } from '../../harness/report/redact.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(t: { after(fn: () => unknown): void }, handler: Handler): Promise<string> {
  const srv = createServer(handler);
  await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
  t.after(() => { srv.closeAllConnections(); srv.close(); });
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

const TEN_MB = Buffer.alloc(10 * 1000 * 1000, 'x');

test('a 10 MB answer: the first 1 MiB kept, the length and sha256 of all of it, a short evidence body', async t => {
  const url = await serve(t, (_req, res) => { res.writeHead(500, { 'content-type': 'text/plain' }); res.end(TEN_MB); });
  const ex = await exchange({ method: 'POST', url, body: { id: 'c-1' } }, new Redactor());
  const r = ex.response!;
  assert.equal(r.status, 500);
  assert.equal(r.text.length, WHOLE_BODY_BYTES);
  assert.equal(r.json, undefined);
  assert.deepEqual(r.body, { bytes: TEN_MB.length, sha256: createHash('sha256').update(TEN_MB).digest('hex'), whole: false });
  const ev = ex.evidence.response!;
  assert.equal(ev.bodyBytes, TEN_MB.length);
  assert.equal(ev.bodySha256, r.body.sha256);
  assert.ok(JSON.stringify(ex.evidence).length < EVIDENCE_HEAD_BYTES + 2000, `evidence of ${JSON.stringify(ex.evidence).length} characters`);
  assert.match(String(ev.body), /\[kept the first 2048 bytes of 10000000 bytes; sha256 [0-9a-f]{64}\]$/);
});

test('an answer that never ends: reading stops at the read limit, and says so', async t => {
  const chunk = Buffer.alloc(64 * 1024, 'y');
  const url = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const more = () => { while (res.write(chunk)) { /* as fast as the socket takes it */ } };
    res.on('drain', more);
    more();
  });
  const started = performance.now();
  const ex = await exchange({ method: 'GET', url }, new Redactor());
  assert.ok(performance.now() - started < 10_000);
  assert.equal(ex.response!.body.bytes, READ_LIMIT_BYTES);
  assert.equal(ex.response!.body.cut, 'limit');
  assert.match(String(ex.evidence.response!.body), new RegExp(`of ${READ_LIMIT_BYTES} bytes before it was cut at the ${READ_LIMIT_BYTES}-byte read limit`));
});

test('one byte at a time, each in time for an idle timeout: the total deadline (twice the wait for headers) ends it', async t => {
  const url = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  });
  const started = performance.now();
  const ex = await exchange({ method: 'POST', url, timeoutMs: 400 }, new Redactor());
  const ms = performance.now() - started;
  assert.equal(ex.response, undefined);
  assert.ok(ex.error instanceof DeadlineError, String(ex.error));
  // Arbitrary margin over the deadline: timers on a loaded machine run late, never early.
  assert.ok(ms >= 790 && ms < 5000, `${ms.toFixed(0)} ms`);
  assert.match(ex.evidence.error!, /^DEADLINE_TIMEOUT: no complete answer within 800 ms \(status 200 came, then \d+ bytes of the body\)$/);
});

test('JSON up to 1 MiB is parsed whole for the checks; its evidence keeps the first bytes, length and hash', async t => {
  const list = Array.from({ length: 9000 }, (_, i) => ({ id: `acc-${i}`, iban: 'NO9386011117947', name: 'x'.repeat(60) }));
  const text = JSON.stringify(list);
  assert.ok(text.length > 900_000 && text.length < WHOLE_BODY_BYTES);
  const url = await serve(t, (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(text); });
  const ex = await exchange({ method: 'GET', url }, new Redactor());
  assert.deepEqual(ex.response!.json, list);
  assert.equal(ex.response!.body.whole, true);
  assert.equal(ex.evidence.response!.bodyBytes, text.length);
  assert.ok(String(ex.evidence.response!.body).length < EVIDENCE_HEAD_BYTES + 200);
});

test('credentials in the URL go as Basic authorization and never into the evidence', async t => {
  let seen: string | undefined;
  let path: string | undefined;
  const url = await serve(t, (req, res) => { seen = req.headers.authorization; path = req.url; res.end('{}'); });
  const ex = await exchange({ method: 'GET', url: url.replace('http://', 'http://some%20one:pa%3Ass@') + '/api/banks?x=1' }, new Redactor());
  assert.equal(ex.response!.status, 200);
  assert.equal(seen, `Basic ${Buffer.from('some one:pa:ss').toString('base64')}`);
  assert.equal(path, '/api/banks?x=1');
  assert.equal(ex.evidence.request.url, url.replace('http://', 'http://[redacted]@') + '/api/banks?x=1');
  assert.doesNotMatch(JSON.stringify(ex.evidence), /some|pa%3Ass|pa:ss/);
});
