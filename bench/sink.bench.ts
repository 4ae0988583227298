// Benchmark of the webhook sink: its recording path against a
// bare server, and the sink at scale. A sender in a child process fires webhook
// POSTs at C at a time over keep-alive; the sink records and answers each.
// 1. Recording path: N posts to a bare node:http server that only answers 200
//    (the baseline, same run), then to the sink; the analysis of the record.
// 2. At scale: 100,000 posts recorded, then analysed: wall times, peak memory,
//    and memory per attempt beyond its kept body (heap after a full collection,
//    before and after recording, over the attempts).
// Not part of `npm test`: `npx tsx bench/sink.bench.ts [--write]` (--write
// updates bench/RESULTS.md between the sink.bench markers), or sinkBench().
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent, request } from 'undici';
import { buildWebhookBody } from '../harness/webhook/bodies.ts';
import { analyzeRun } from '../harness/sink/checks/index.ts';
import { startSink } from '../harness/sink/server.ts';

const N = 20_000, AT_SCALE = 100_000, C = 64, CHECKOUTS = 500;
const KEY = 'bench-key';
const CLEAN = [{ name: 'clean', answers: [] }];
const SELF = fileURLToPath(import.meta.url);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The sender: n bodies of CHECKOUTS checkouts, C in flight; prints its wall time. */
async function sender(url: string, n: number): Promise<void> {
  const agent = new Agent({ connections: C, pipelining: 1 });
  const bodies = Array.from({ length: CHECKOUTS }, (_, i) => JSON.stringify(buildWebhookBody({ kind: 'normal', id: `bench-${i}`, status: 'STARTED' })));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: C }, async () => {
    for (let i = next++; i < n; i = next++) {
      const r = await request(`${url}/hook`, { method: 'POST', body: bodies[i % CHECKOUTS], headers: { 'content-type': 'application/json', 'api-key': KEY },
        dispatcher: agent });
      await r.body.text();
    }
  }));
  process.stdout.write(JSON.stringify({ wallMs: performance.now() - t0 }) + '\n');
  await agent.close();
}

function runSender(url: string, n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--sender', url, String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', d => { out += d; });
    child.on('close', code => code === 0 ? resolve((JSON.parse(out) as { wallMs: number }).wallMs) : reject(new Error(`sender exited ${code}`)));
  });
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
/** Bytes a kept body takes in the heap: V8 keeps Latin-1 text at one byte a character, other text at two. */
const textBytes = (s: string) => s.length * (/[^\u0000-\u00ff]/.test(s) ? 2 : 1);

export interface SinkFigures {
  posts: number; bareMs: number; sinkMs: number; recorded: number; p50Ms: number; p99Ms: number; cpuUsPerPost: number; analyzeMs: number; checks: number;
  scale: { posts: number; recorded: number; recordMs: number; analyzeMs: number; peakRssMb: number; heapMb: number; keptBodyBytes: number;
    perAttemptBytes: number };
  bodyBytes: number;
}

/** The recording path: the bare baseline, then the sink, and the analysis of its record. */
async function recordingPath() {
  const bare = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end('ok')); });
  await new Promise<void>(r => bare.listen(0, '127.0.0.1', r));
  const bareMs = await runSender(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, N);
  bare.closeAllConnections(); bare.close();
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  const cpu0 = process.cpuUsage();
  const sinkMs = await runSender(sink.url, N);
  const cpu = process.cpuUsage(cpu0);
  const attempts = sink.attempts();
  const lat = attempts.map(a => (a.answeredMs ?? a.arrivedMs) - a.arrivedMs);
  const t = performance.now();
  const { checks } = analyzeRun(attempts, sink.plan(), { timeScale: 1, apiKey: KEY, observedUntilMs: sink.nowMs() });
  const analyzeMs = performance.now() - t;
  await sink.close();
  return { posts: N, bareMs, sinkMs, recorded: attempts.length, p50Ms: pct(lat, 0.5), p99Ms: pct(lat, 0.99), cpuUsPerPost: (cpu.user + cpu.system) / N,
    analyzeMs, checks: checks.length };
}

/** At scale: the heap before and after recording, both after a full collection, then the analysis. */
async function atScale(): Promise<SinkFigures['scale']> {
  const heap0 = heap();
  const sink = await startSink({ passive: CLEAN, apiKey: KEY });
  const recordMs = await runSender(sink.url, AT_SCALE);
  const all = sink.attempts();
  const heapBytes = heap() - heap0;
  const kept = all.reduce((n, a) => n + textBytes(a.body), 0);
  const t = performance.now();
  analyzeRun(all, sink.plan(), { timeScale: 1, apiKey: KEY, observedUntilMs: sink.nowMs() });
  const analyzeMs = performance.now() - t;
  await sink.close();
  return { posts: AT_SCALE, recorded: all.length, recordMs, analyzeMs, peakRssMb: process.resourceUsage().maxRSS / 1024, heapMb: heapBytes / 1e6,
    keptBodyBytes: kept / all.length, perAttemptBytes: (heapBytes - kept) / all.length };
}

export async function sinkBench(): Promise<SinkFigures> {
  const path = await recordingPath();
  const scale = await atScale();
  return { ...path, scale, bodyBytes: Buffer.byteLength(JSON.stringify(buildWebhookBody({ kind: 'normal', id: 'bench-0', status: 'STARTED' }))) };
}

export function sinkTables(f: SinkFigures): string {
  const s = f.scale;
  return [
    '| server | requests | wall s | requests/s | answer latency ms p50 / p99 | sink CPU µs per request |',
    '|---|---|---|---|---|---|',
    `| bare node:http, answers only (baseline) | ${f.posts} | ${(f.bareMs / 1000).toFixed(2)} | ${Math.round(f.posts / f.bareMs * 1000)} | | |`,
    `| sink, records and answers | ${f.recorded} | ${(f.sinkMs / 1000).toFixed(2)} | ${Math.round(f.posts / f.sinkMs * 1000)} | ` +
    `${f.p50Ms.toFixed(3)} / ${f.p99Ms.toFixed(3)} | ${f.cpuUsPerPost.toFixed(1)} |`,
    '',
    '| at scale | posts | recorded | recording s | analysis s | peak RSS MB | heap held MB | kept body bytes per attempt ' +
    '| heap per attempt beyond its kept body, bytes (target ≤ 2048) |',
    '|---|---|---|---|---|---|---|---|---|',
    `| sink | ${s.posts} | ${s.recorded} | ${(s.recordMs / 1000).toFixed(1)} | ${(s.analyzeMs / 1000).toFixed(1)} | ${s.peakRssMb.toFixed(0)} | ` +
    `${s.heapMb.toFixed(0)} | ${s.keptBodyBytes.toFixed(0)} | ${s.perAttemptBytes.toFixed(0)} |`,
  ].join('\n');
}

async function main(): Promise<void> {
  const f = await sinkBench();
  const text = `<!-- sink.bench -->
## Webhook sink: recording path and scale (\`npx tsx bench/sink.bench.ts --write\`)

Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, normal bodies of ${CHECKOUTS} checkouts (about ${f.bodyBytes} bytes) ` +
    `from a sender in its own process, ${C} in flight over keep-alive, loopback, ` +
    `on the shared 2-core machine (load average ${loadavg()[0].toFixed(1)} at the end). ` +
    `Every attempt recorded: ${f.recorded === f.posts && f.scale.recorded === f.scale.posts ? 'yes'
      : `NO (${f.recorded} of ${f.posts}, ${f.scale.recorded} of ${f.scale.posts})`}. ` +
    "Answer latency is the sink's own, from the request's arrival to its answer. " +
    `Analysing the ${f.posts} attempts afterwards (${f.checks} checks, the bodies' facts read on arrival): ${(f.analyzeMs / 1000).toFixed(2)} s. ` +
    'At scale, the heap is measured after a full collection before and after recording; ' +
    "per attempt it holds the record, its headers, its body's facts and its kept body, which is counted apart " +
    `(V8 keeps these bodies as two-byte text: they hold Nordic names).

${sinkTables(f)}
<!-- /sink.bench -->`;
  process.stdout.write(text + '\n');
  if (process.argv.includes('--write')) {
    const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
    const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
    const re = /<!-- sink\.bench -->[\s\S]*?<!-- \/sink\.bench -->/;
    writeFileSync(file, re.test(old) ? old.replace(re, text) : `${old.trimEnd()}\n\n${text}\n`);
  }
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === '--sender') await sender(process.argv[3], Number(process.argv[4]));
  else await main();
}
