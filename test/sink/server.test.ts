// The sink's robustness: bad input never stops it and every attempt
// is recorded; each probe answers as planned; TLS; a port in use is a harness error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { startSink } from '../../harness/sink/server.ts';
import { MAX_BODY_BYTES } from '../../harness/sink/recorder.ts';
import { factsOf } from '../../harness/sink/checks/facts.ts';
import { isHarnessError } from '../../harness/errors.ts';
import type { CheckoutPlan } from '../../harness/sink/plan.ts';

const CLEAN: CheckoutPlan[] = [{ name: 'clean', answers: [] }];
const KEY = 'server-test-key-42';
const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}, dispatcher?: Agent) =>
  request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'api-key': KEY, ...headers }, dispatcher });

test('malformed JSON and an oversized body are answered and recorded', async () => {
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  try {
    const bad = await post(`${sink.url}/hook`, '{"id": "c1", "status": STARTED');
    assert.equal(bad.statusCode, 200);
    await bad.body.text();
    const big = Buffer.alloc(MAX_BODY_BYTES + 200_000, 'x');
    big.write('{"id":"c2","status":"STARTED","pad":"');
    const res = await post(`${sink.url}/hook`, big).catch(e => e as Error);
    if (!(res instanceof Error)) { assert.equal(res.statusCode, 413); await res.body.text(); }
    await new Promise(r => setTimeout(r, 100));
    const a = sink.attempts();
    assert.equal(a.length, 2);
    assert.equal(a[0].body, '{"id": "c1", "status": STARTED');
    assert.equal(a[0].checkoutId, 'c1', 'routed by the id text even though the JSON is broken');
    assert.equal(a[1].probe, 'too-large');
    assert.equal(a[1].answer, 413);
    // The sink closes the connection after its 413: it counts and hashes what came until then.
    const got = a[1].bodyBytes!;
    assert.ok(got > MAX_BODY_BYTES && got <= big.length, `length kept: ${got}`);
    assert.equal(a[1].bodySha256, createHash('sha256').update(big.subarray(0, got)).digest('hex'));
    assert.match(a[1].body, new RegExp(`^\\{"id":"c2","status":"STARTED","pad":"x+…\\[over the 1048576-byte limit: ` +
      `${got} bytes in all, sha256 [0-9a-f]{64}; the first 4096 kept\\]$`));
  } finally { await sink.close(); }
});

test('a slow client does not hold up the others, and is recorded whole', async () => {
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  try {
    const port = Number(new URL(sink.url).port);
    const body = '{"id":"slow","status":"STARTED"}';
    const sock = connect(port, '127.0.0.1');
    await new Promise(r => sock.once('connect', r));
    sock.write(`POST /hook HTTP/1.1\r\nhost: x\r\napi-key: ${KEY}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    const answered = new Promise<string>(r => { let t = ''; sock.on('data', d => { t += d; if (t.includes('\r\n\r\n')) r(t); }); });
    // While the slow client has sent only its headers, 20 others are answered (one after another,
    // so none of them could be answered if the sink waited for the slow body first).
    for (let i = 0; i < 20; i++) { const r = await post(`${sink.url}/hook`, `{"id":"fast-${i}","status":"STARTED"}`); await r.body.text(); }
    assert.equal(sink.stats().open, 1, 'fast clients answered while the slow one is still open');
    for (const ch of body) { sock.write(ch); await new Promise(r => setTimeout(r, 5)); }
    assert.match(await answered, /^HTTP\/1.1 200/);
    sock.destroy();
    const slow = sink.attempts().find(a => a.checkoutId === 'slow');
    assert.equal(slow?.body, body);
    assert.equal(sink.attempts().length, 21);
  } finally { await sink.close(); }
});

test('hundreds of parallel connections: every attempt recorded and answered', async () => {
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  const agent = new Agent({ connections: null });
  try {
    const n = 300;
    const codes = await Promise.all(Array.from({ length: n }, (_, i) =>
      post(`${sink.url}/hook`, `{"id":"p-${i % 30}","status":"STARTED"}`, {}, agent).then(async r => { await r.body.text(); return r.statusCode; })));
    assert.deepEqual([...new Set(codes)], [200]);
    const a = sink.attempts();
    assert.equal(a.length, n);
    assert.deepEqual(a.map(x => x.seq), Array.from({ length: n }, (_, i) => i + 1));
    assert.equal(sink.stats().checkouts, 30);
  } finally { await agent.close(); await sink.close(); }
});

test('each probe answers as planned, on a compressed clock', async () => {
  const scale = 0.02;
  const sink = await startSink({ timeScale: scale });
  try {
    sink.expect('p', { name: 'all', answers: ['status-500', 'status-201', 'status-204', 'status-302', 'status-400', 'reset', 'slow-4s'] });
    const results: Array<number | string> = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const r = await post(sink.hookUrl('p'), `{"id":"x","status":"STARTED"}`)
        .then(async x => { await x.body.text(); return x.statusCode; }, (e: Error & { code?: string }) => e.code ?? 'error');
      results.push(r);
      if (i === 6) assert.ok(performance.now() - t >= 4_000 * scale - 5, 'the 4 s answer waited 4 spec seconds');
    }
    assert.deepEqual(results.slice(0, 5), [500, 201, 204, 302, 400]);
    assert.notEqual(typeof results[5], 'number', 'the reset probe gives no answer');
    assert.equal(results[6], 200);
    sink.created('p', { status: 201, id: 'ck-1' });
    const a = sink.attempts();
    assert.deepEqual(a.map(x => x.answer), [500, 201, 204, 302, 400, 'reset', 200]);
    assert.ok(a.every(x => x.checkoutId === 'ck-1'), 'the control API id names the checkout');
    assert.equal(sink.plan().get('ck-1')?.control?.status, 201);
  } finally { await sink.close(); }
});

test('the further answer classes: 401, 403, 404, 410, 429, 429 with Retry-After (the spec\'s 10 s on the run\'s clock) and 503', async () => {
  const sink = await startSink({ timeScale: 0.05 });
  try {
    const answers = ['status-401', 'status-403', 'status-404', 'status-410', 'status-429', 'status-429-retry-after', 'status-503'] as const;
    sink.expect('p', { name: 'classes', answers: [...answers] });
    const seen: Array<[number, string | undefined]> = [];
    for (let i = 0; i < answers.length; i++) {
      const r = await post(sink.hookUrl('p'), '{"id":"x","status":"STARTED"}');
      await r.body.text();
      seen.push([r.statusCode, r.headers['retry-after'] as string | undefined]);
    }
    assert.deepEqual(seen, [[401, undefined], [403, undefined], [404, undefined], [410, undefined], [429, undefined], [429, '1'], [503, undefined]]);
    assert.deepEqual(sink.attempts().map(a => a.probe), [...answers]);
  } finally { await sink.close(); }
});

test('the first request of a connection carries when the sink accepted the connection; a kept-alive one does not', async () => {
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  // One connection: the request goes 150 ms after the connection was made, the second over the same connection.
  const socket = connect(Number(new URL(sink.url).port), '127.0.0.1');
  try {
    await new Promise(r => socket.once('connect', r));
    await new Promise(r => setTimeout(r, 150));
    let got = '';
    socket.on('data', d => { got += d.toString('latin1'); });
    const body = '{"id":"k","status":"STARTED"}';
    const one = `POST /hook HTTP/1.1\r\nhost: x\r\napi-key: ${KEY}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    socket.write(one);
    for (let i = 0; i < 200 && (got.match(/HTTP\/1\.1 200/g) ?? []).length < 1; i++) await new Promise(r => setTimeout(r, 10));
    socket.write(one);
    for (let i = 0; i < 200 && (got.match(/HTTP\/1\.1 200/g) ?? []).length < 2; i++) await new Promise(r => setTimeout(r, 10));
    const [first, second] = sink.attempts();
    assert.ok(first && second, `two attempts: ${got}`);
    assert.ok(first.connectedMs !== undefined && first.arrivedMs - first.connectedMs >= 140, `accepted ${first.connectedMs}, arrived ${first.arrivedMs}`);
    assert.equal(second.connectedMs, undefined);
  } finally { socket.destroy(); await sink.close(); }
});

test('a sender that hangs up before a slow answer is recorded as such', async () => {
  // Time scale 1: the answer is held 6 s, and the client hangs up as soon as the sink has its request.
  const sink = await startSink({ passive: [{ name: 'slow', answers: ['slow-6s'] }], apiKey: KEY });
  try {
    const ac = new AbortController();
    const got = new Promise<void>(r => { const t = setInterval(() => { if (sink.stats().attempts === 1) { clearInterval(t); r(); } }, 5); });
    void got.then(() => setTimeout(() => ac.abort(), 50));
    await request(`${sink.url}/hook`, { method: 'POST', body: '{"id":"h","status":"STARTED"}', headers: { 'api-key': KEY }, signal: ac.signal })
      .catch(() => undefined);
    const closed = () => sink.attempts()[0]?.closedMs !== undefined;
    for (let i = 0; i < 200 && !closed(); i++) await new Promise(r => setTimeout(r, 10));
    const [a] = sink.attempts();
    assert.equal(a.answer, 'none');
    assert.ok(a.closedMs !== undefined && a.closedMs - a.arrivedMs < 6_000, `hung up after ${a.closedMs! - a.arrivedMs} ms`);
    assert.equal(a.answeredMs, undefined);
    assert.equal(a.probe, 'slow-6s');
  } finally { await sink.close(); }
});

test('a trickled answer: the head at once, then a byte every half spec second; answered when its last byte went out, or hung up on', async () => {
  // Time scale 0.1: 15 bytes 50 ms apart, the last 750 ms after the head.
  const sink = await startSink({ timeScale: 0.1, passive: [{ name: 'trickle', answers: ['slow-trickle'] }], apiKey: KEY });
  try {
    const sent = performance.now();
    const r = await request(`${sink.url}/hook`, { method: 'POST', body: '{"id":"t1","status":"STARTED"}', headers: { 'api-key': KEY } });
    const head = performance.now() - sent;
    assert.equal(r.statusCode, 200);
    const chunks: number[] = [];
    for await (const c of r.body) chunks.push((c as Buffer).length);
    const whole = performance.now() - sent;
    assert.ok(head < 400, `the head came after ${head.toFixed(0)} ms, not at once`);
    assert.ok(whole >= 700, `the whole answer came after ${whole.toFixed(0)} ms, before its last byte was due`);
    assert.ok(chunks.length > 1, 'the body came in more than one piece');
    const [a] = sink.attempts();
    assert.equal(a.probe, 'slow-trickle');
    assert.equal(a.answer, 200);
    assert.ok(a.answeredMs! - a.arrivedMs >= 700, `answered ${a.answeredMs! - a.arrivedMs} ms after arrival`);
    // A second checkout's sender hangs up a quarter of a second in: recorded as a hang-up, not as an answer.
    const ac = new AbortController();
    const r2 = await request(`${sink.url}/hook`, { method: 'POST', body: '{"id":"t2","status":"STARTED"}', headers: { 'api-key': KEY }, signal: ac.signal });
    setTimeout(() => ac.abort(), 250);
    await r2.body.text().catch(() => undefined);
    const closed = () => sink.attempts()[1]?.closedMs !== undefined;
    for (let i = 0; i < 200 && !closed(); i++) await new Promise(res => setTimeout(res, 10));
    const b = sink.attempts()[1];
    assert.equal(b.answer, 'none');
    assert.equal(b.answeredMs, undefined);
    assert.ok(b.closedMs! - b.arrivedMs < 700, `hung up after ${b.closedMs! - b.arrivedMs} ms`);
  } finally { await sink.close(); }
});

test('HTTPS with a generated self-signed certificate', async () => {
  const sink = await startSink({ tls: 'self-signed', passive: CLEAN });
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    assert.match(sink.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await post(`${sink.url}/hook`, '{"id":"tls","status":"STARTED"}', {}, agent);
    assert.equal(r.statusCode, 200);
    await r.body.text();
    assert.equal(sink.attempts()[0].checkoutId, 'tls');
  } finally { await agent.close(); await sink.close(); }
});

test('a port in use is a harness error that names the fix', async () => {
  const first = await startSink();
  try {
    const port = Number(new URL(first.url).port);
    await assert.rejects(startSink({ port }), e => isHarnessError(e) && e.code === 'PIS_PORT_IN_USE' && /already in use/.test(e.message));
  } finally { await first.close(); }
});

test('a planned checkout is found behind a tunnel path prefix', async () => {
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  try {
    sink.expect('k1', { name: 'fail-once', answers: ['status-500'] });
    const r = await post(`${sink.url}/tunnel/prefix/hooks/k1`, '{"id":"whatever","status":"STARTED"}');
    assert.equal(r.statusCode, 500);
    await r.body.text();
    assert.equal(sink.attempts()[0].checkoutId, 'k1');
  } finally { await sink.close(); }
});

test('a body sent again is read once, and bodies that break the contract alike share their violations', async () => {
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  try {
    // A retry's body, and a busy sender's repeats: the same text. The third breaks the contract
    // as the first does (both lack the same fields), the fourth also has a status of the wrong type.
    const same = '{"id":"r1","status":"STARTED"}';
    const bodies = [same, same, '{"id":"r1","status":"PAYMENT_CREATED"}', '{"id":"r1","status":42}'];
    for (const body of bodies) { const r = await post(`${sink.url}/hook`, body); await r.body.text(); }
    await new Promise(r => setTimeout(r, 50));
    const [a, b, c, d] = sink.attempts().map(x => ({ body: x.body, facts: factsOf(x) }));
    assert.deepEqual([a, b, c, d].map(x => x.body), bodies);
    assert.equal(a.facts, b.facts, 'the repeated body was read twice');
    assert.notEqual(a.facts, c.facts);
    assert.deepEqual([b.facts.status, c.facts.status, d.facts.status], ['STARTED', 'PAYMENT_CREATED', 42]);
    assert.ok(a.facts.violations.length > 0);
    assert.equal(c.facts.violations, a.facts.violations, 'the same violations were kept twice');
    assert.notDeepEqual(d.facts.violations, a.facts.violations);
  } finally { await sink.close(); }
});
