// The sending core against receivers that misbehave on the wire: an answer is
// timed by its status line, not by its body; what is kept of a huge or endless
// body is bounded; a silent receiver costs one wait; a kept-alive connection
// closed under a request is tried once more on a new one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTcp, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Redactor } from '../../harness/report/redact.ts';
import { Transport } from '../../harness/certify/transport.ts';
import { ANSWER_KEPT_BYTES, ANSWER_READ_LIMIT_BYTES } from '../../harness/certify/wire.ts';
import { StallMeter } from '../../harness/certify/stall.ts';
import type { SenderOptions } from '../../harness/certify/options.ts';

const KEY = 'transport-test-key';
const MB = 1024 * 1024;

async function listen<S extends Server | TcpServer>(s: S): Promise<S & { url: string }> {
  await new Promise<void>(r => s.listen(0, '127.0.0.1', r));
  return Object.assign(s, { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks` });
}

function transport(url: string, timeScale: number): Transport {
  const opts: SenderOptions = { url, apiKey: KEY, timeScale, concurrency: 20, maxRequests: 1000, insecure: false };
  return new Transport(opts, new Redactor().add(KEY, 'PIS_WEBHOOK_API_KEY'));
}

test('an answer is timed by its status line: 10 MB trickled over longer than the wait is a 200 in a few ms, its body cut and hashed', async () => {
  // Headers at once, then 10 MB in 256-byte pieces every 10 ms; the wait at scale 0.1 is 510 ms, in which
  // about 13 KiB come (64 KiB, the sender's read limit, would take 2.6 s on time: a quiet machine's punctual timers reached it at 1 KiB).
  const s = await listen(createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    let sent = 0;
    const piece = Buffer.alloc(256, 'y');
    const timer = setInterval(() => {
      if (res.destroyed || sent >= 10 * MB) { clearInterval(timer); res.end(); return; }
      res.write(piece); sent += piece.length;
    }, 10);
    res.on('close', () => clearInterval(timer));
  }));
  const t = transport(s.url, 0.1);
  try {
    // On a machine busy enough to hold this process for a good part of the wait the timing cannot be
    // read: the exchange is made again (three times at most), and a last failure names the stall.
    const meter = new StallMeter();
    let d, stall = 0;
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      d = await t.post({ status: 'STARTED' }, { kind: 'normal', label: 'trickle' });
      stall = meter.longestMs(t0);
      if (d.ms < t.timing.limitMs / 2 || stall <= t.timing.waitMs / 4 || attempt === 3) break;
    }
    meter.stop();
    assert.equal(d.status, 200);
    assert.ok(d.ms < t.timing.limitMs / 2,
      `timed at ${d.ms.toFixed(0)} ms, by the body rather than the status line (this process stalled up to ${stall.toFixed(0)} ms)`);
    assert.ok(d.answerBytes! > 0 && d.answerBytes! < 10 * MB, `${d.answerBytes} bytes read: the body was cut at the end of the wait`);
    const ev = d.evidence;
    assert.match(String(ev.response?.body), /^y+\n… \[kept the first \d+ bytes of \d+ bytes before the deadline; sha256 [0-9a-f]{64}\]$/);
    assert.ok(JSON.stringify(ev).length < 8 * 1024, 'the evidence keeps a few kilobytes');
  } finally { await t.close(); s.closeAllConnections(); s.close(); }
});

test("20 answers of 10 MB side by side: timed by their status lines, read to the sender's limit and hashed, a bounded amount of memory", async () => {
  const body = Buffer.alloc(10 * MB, 'z');
  const s = await listen(createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(body)); }));
  // Time scale 1: the 5 s wait leaves reading to the limit time to finish on a loaded machine.
  const t = transport(s.url, 1);
  let peak = process.memoryUsage.rss();
  const rss0 = peak;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 20);
  const t0 = performance.now();
  try {
    const ds = await Promise.all(Array.from({ length: 20 }, (_, i) => t.post({ n: i }, { kind: 'burst', label: `burst ${i}` })));
    const wall = performance.now() - t0;
    for (const d of ds) {
      assert.equal(d.status, 500);
      assert.equal(d.answerBytes, ANSWER_READ_LIMIT_BYTES);
      assert.ok(d.ms < t.timing.limitMs, `${d.label} timed at ${d.ms.toFixed(0)} ms`);
      assert.match(String(d.evidence.response?.body), new RegExp(`cut at the ${ANSWER_READ_LIMIT_BYTES}-byte read limit; sha256 [0-9a-f]{64}\\]$`));
      assert.equal(d.evidence.response?.bodyBytes, ANSWER_READ_LIMIT_BYTES);
    }
    // What stays is a few kilobytes an answer. The bound is loose on purpose (garbage not yet
    // collected counts): before the cap the same run held every body whole.
    const growth = (peak - rss0) / MB;
    assert.ok(growth < 120, `peak RSS grew by ${growth.toFixed(0)} MB`);
    const kept = ds.reduce((n, d) => n + JSON.stringify(d.evidence).length, 0);
    assert.ok(kept < 20 * 8 * 1024, `${kept} characters of evidence for 20 answers`);
    process.stdout.write(`# 20 x 10 MB answers: ${wall.toFixed(0)} ms, peak RSS growth ${growth.toFixed(0)} MB, evidence ${(kept / 1024).toFixed(1)} KiB, ` +
      `kept per answer ${ANSWER_KEPT_BYTES} bytes\n`);
  } finally { clearInterval(sampler); await t.close(); s.closeAllConnections(); s.close(); }
});

test('a receiver that never answers costs one wait, and the exchange says so', async () => {
  const s = await listen(createServer(() => { /* never answers */ }));
  const t = transport(s.url, 0.02);
  try {
    const d = await t.post({ status: 'STARTED' }, { kind: 'normal', label: 'silent' });
    assert.equal(d.status, undefined);
    assert.equal(d.timedOut, true);
    assert.match(d.error ?? '', /^no answer within 125 ms/);
    // Gave up at the wait, extended by this process's own stalls at most as long again.
    assert.ok(d.ms >= t.timing.waitMs - 5 && d.ms < 3 * t.timing.waitMs, `gave up after ${d.ms.toFixed(0)} ms`);
  } finally { await t.close(); s.closeAllConnections(); s.close(); }
});

test('deliveries started one after another to a silent receiver each get their own whole wait', async () => {
  const s = await listen(createServer(() => { /* never answers */ }));
  const t = transport(s.url, 0.02);
  try {
    // Started 40 ms apart within one wait of 125 ms: one timer serves all, each gives up at its own end.
    const ds = await Promise.all([0, 40, 80].map(async (delay, i) => {
      await new Promise(r => setTimeout(r, delay));
      return t.post({ n: i }, { kind: 'normal', label: `silent ${i}` });
    }));
    for (const d of ds) {
      assert.equal(d.timedOut, true, d.label);
      assert.ok(d.ms >= t.timing.waitMs - 5 && d.ms < 3 * t.timing.waitMs, `${d.label} gave up after ${d.ms.toFixed(0)} ms`);
    }
  } finally { await t.close(); s.closeAllConnections(); s.close(); }
});

test('no more deliveries than --max-requests go out, so the log a run keeps is bounded by it', async () => {
  const s = await listen(createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); }));
  const opts: SenderOptions = { url: s.url, apiKey: KEY, timeScale: 0.2, concurrency: 4, maxRequests: 3, insecure: false };
  const t = new Transport(opts, new Redactor().add(KEY, 'PIS_WEBHOOK_API_KEY'));
  try {
    const ds = await Promise.all(Array.from({ length: 5 }, (_, i) => t.post({ n: i }, { kind: 'normal', label: `delivery ${i}` })));
    assert.deepEqual(ds.map(d => d.status ?? d.notSent), [200, 200, 200, '--max-requests (3) was reached', '--max-requests (3) was reached']);
    assert.equal(ds[4].remedy, 'raise --max-requests');
    assert.equal(t.log.length, 3);
  } finally { await t.close(); s.closeAllConnections(); s.close(); }
});

test('a kept-alive connection closed under a request is tried once more on a new one; a receiver that closes every one fails', async () => {
  // Raw TCP: the first connection reads a request and closes without a word; later connections answer 200.
  let connections = 0;
  const s = await listen(createTcp(socket => {
    const n = ++connections;
    socket.once('data', () => {
      if (n === 1) { socket.destroy(); return; }
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    });
  }));
  const t = transport(s.url, 0.2);
  try {
    const d = await t.post({ status: 'STARTED' }, { kind: 'normal', label: 'reset once' });
    assert.equal(d.status, 200, d.error);
    assert.match(d.label, /sent again on a new connection after: the receiver closed the connection/);
    assert.equal(connections, 2);
  } finally { await t.close(); s.close(); }

  const closer = await listen(createTcp(socket => { socket.once('data', () => socket.destroy()); }));
  const t2 = transport(closer.url, 0.2);
  try {
    const d = await t2.post({ status: 'STARTED' }, { kind: 'normal', label: 'reset always' });
    assert.equal(d.status, undefined);
    assert.equal(d.timedOut, false);
    assert.match(d.error ?? '', /closed the connection/);
  } finally { await t2.close(); closer.close(); }
});

test("the stall meter sees this process's own stall, and an answer seen as one ends is judged in the receiver's favour only by that stall", async () => {
  const meter = new StallMeter();
  try {
    await new Promise(r => setTimeout(r, 30));
    const from = performance.now();
    const busy = performance.now() + 120;
    while (performance.now() < busy) { /* hold the event loop */ }
    const at = performance.now();
    const stalled = meter.stalledMs(from, at);
    // The machine may hold the process longer than the loop ran: the stall is the span, at most.
    assert.ok(stalled > 90 && stalled <= at - from + 1, `measured ${stalled.toFixed(0)} ms of a ${(at - from).toFixed(0)} ms stall`);
    assert.ok(meter.justEnded(at, from) > 90, 'the stall ending now is the one an answer seen now may have waited through');
    await new Promise(r => setTimeout(r, 60));
    // Only a stall ending as the answer is seen counts: the 120 ms one ended a while ago. (On a loaded
    // machine the process may be held again just now; that stall lies after the first and may count.)
    const now = performance.now();
    assert.equal(meter.justEnded(now, from), meter.justEnded(now, at + 1), 'a stall that ended 60 ms ago still counted');
  } finally { meter.stop(); }
});
