// sink --forward-to URL: every attempt reaches the merchant's receiver as it
// came, and the sender gets the receiver's answer; a receiver that is down is
// a 502 with the reason. --answer-200 answers every attempt 200. The attempts
// are recorded either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startSink } from '../../harness/sink/server.ts';
import { forwarder } from '../../harness/sink/forward.ts';
import { ROOT, runCli } from '../helpers/cli.ts';

const KEY = 'forward-key-4711';
const BODY = JSON.stringify({ id: 'c-1', referenceId: 'r-1', status: 'PAYMENT_COMPLETED', amount: 10, currency: 'NOK' });

async function receiver(t: { after(fn: () => unknown): void }, status: number) {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const srv = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    seen.push({ method: req.method, url: req.url, headers: req.headers, body });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true, by: 'merchant' }));
  });
  await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
  t.after(() => { srv.closeAllConnections(); srv.close(); });
  return { url: `http://127.0.0.1:${(srv.address() as { port: number }).port}/hooks`, seen };
}

test('a forwarded attempt reaches the receiver as it came, and the sender gets its answer; each is recorded', async t => {
  const merchant = await receiver(t, 201);
  const fw = forwarder(merchant.url, 5000);
  const sink = await startSink({ apiKey: KEY, forward: fw.forward });
  t.after(async () => { await sink.close(); await fw.close(); });
  const r = await request(`${sink.url}/webhook`, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json', 'api-key': KEY } });
  assert.equal(r.statusCode, 201);
  assert.deepEqual(await r.body.json(), { received: true, by: 'merchant' });
  assert.equal(merchant.seen.length, 1);
  assert.deepEqual([merchant.seen[0]!.method, merchant.seen[0]!.url, merchant.seen[0]!.body], ['POST', '/hooks', BODY]);
  assert.equal(merchant.seen[0]!.headers['api-key'], KEY);
  assert.equal(merchant.seen[0]!.headers['content-type'], 'application/json');
  await new Promise(r => setTimeout(r, 50));
  const [a] = sink.attempts();
  assert.deepEqual([a?.answer, a?.probe, a?.checkoutId], [201, 'status-201', 'c-1']);
});

test('a receiver that is down: the sender gets 502 with the reason', async t => {
  const closed = await receiver(t, 200);
  const url = closed.url.replace(/:\d+/, ':9');
  const fw = forwarder(url, 2000);
  const sink = await startSink({ apiKey: KEY, forward: fw.forward });
  t.after(async () => { await sink.close(); await fw.close(); });
  const r = await request(`${sink.url}/webhook`, { method: 'POST', body: BODY, headers: { 'api-key': KEY } });
  assert.equal(r.statusCode, 502);
  assert.match(await r.body.text(), /^the sink could not pass this delivery on to http:\/\/127\.0\.0\.1:9\/hooks: /);
});

test('sink --forward-to and --answer-200 from the command line: the listening line says the mode; both together are exit 2', async t => {
  const merchant = await receiver(t, 200);
  const dir = mkdtempSync(join(tmpdir(), 'pis-forward-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [flags, says, status] of [[['--forward-to', merchant.url], /every attempt is passed on to http:\/\/127\.0\.0\.1:\d+\/hooks/, 200],
    [['--answer-200'], /every attempt is answered 200/, 200]] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'harness/cli.ts', 'sink', '--port', '0', '--api-key', KEY, '--duration', '3',
      '--report', join(dir, flags[0]!), ...flags], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>(resolve => child.on('close', resolve));
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', d => { out += d; const m = /listening at (\S+)/.exec(out); if (m && out.includes('\n')) resolve(m[1]!); });
      void exited.then(() => reject(new Error(out)));
    });
    assert.match(out, says);
    // Every checkout answered at once, none failed on purpose: two checkouts, both 200 (the probes would fail the first with 500).
    for (const id of ['c-1', 'c-2']) {
      const r = await request(`${url}/webhook`, { method: 'POST', body: BODY.replace('c-1', id), headers: { 'api-key': KEY } });
      assert.equal(r.statusCode, status, `${flags[0]} ${id}`);
      await r.body.text();
    }
    await exited;
  }
  assert.equal(merchant.seen.length, 2, 'the forwarded run passed both on');
  const both = await runCli(['sink', '--port', '0', '--api-key', KEY, '--answer-200', '--forward-to', merchant.url]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /give --forward-to URL or --answer-200, not both/);
});
