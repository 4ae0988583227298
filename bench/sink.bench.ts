// Benchmark of the webhook sink's recording path (issue 5: the sink is a hot
// path; no JSON parsing or analysis while answering). A sender in a child
// process fires N webhook POSTs at C at a time over keep-alive; the sink records
// and answers each. Baseline in the same run: a bare node:http server that only
// answers 200. Then the analysis of the whole record, timed apart.
// Not part of `npm test`: `npx tsx bench/sink.bench.ts [--write]` (--write
// updates bench/RESULTS.md between the sink.bench markers).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { buildWebhookBody } from '../harness/webhook/bodies.ts';
import { analyze } from '../harness/sink/analysis/index.ts';
import { startSink } from '../harness/sink/server.ts';

const N = 20_000, C = 64, CHECKOUTS = 500;
const SELF = fileURLToPath(import.meta.url);

/** The sender: N bodies of CHECKOUTS checkouts, C in flight; prints its wall time. */
async function sender(url: string): Promise<void> {
  const agent = new Agent({ connections: C, pipelining: 1 });
  const bodies = Array.from({ length: CHECKOUTS }, (_, i) => JSON.stringify(buildWebhookBody({ kind: 'normal', id: `bench-${i}`, status: 'STARTED' })));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: C }, async () => {
    for (let i = next++; i < N; i = next++) {
      const r = await request(`${url}/hook`, { method: 'POST', body: bodies[i % CHECKOUTS], headers: { 'content-type': 'application/json', 'api-key': 'bench-key' }, dispatcher: agent });
      await r.body.text();
    }
  }));
  process.stdout.write(JSON.stringify({ wallMs: performance.now() - t0 }) + '\n');
  await agent.close();
}

function runSender(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--sender', url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', d => { out += d; });
    child.on('close', code => code === 0 ? resolve((JSON.parse(out) as { wallMs: number }).wallMs) : reject(new Error(`sender exited ${code}`)));
  });
}

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };

async function main(): Promise<void> {
  const bare = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end('ok')); });
  await new Promise<void>(r => bare.listen(0, '127.0.0.1', r));
  const bareMs = await runSender(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`);
  bare.closeAllConnections(); bare.close();

  const rss0 = process.memoryUsage().rss;
  const sink = await startSink({ passive: [{ name: 'clean', answers: [] }] });
  const cpu0 = process.cpuUsage();
  const sinkMs = await runSender(sink.url);
  const cpu = process.cpuUsage(cpu0);
  const attempts = sink.attempts();
  const lat = attempts.map(a => (a.answeredMs ?? a.arrivedMs) - a.arrivedMs);
  const t = performance.now();
  const checks = analyze(attempts, sink.plan(), { timeScale: 1, apiKey: 'bench-key', observedUntilMs: sink.nowMs() });
  const analyzeMs = performance.now() - t;
  const rssMb = (process.resourceUsage().maxRSS * 1024 - rss0) / 1e6;
  await sink.close();

  const rows = [
    `| bare node:http, answers only | ${N} | ${(bareMs / 1000).toFixed(2)} | ${Math.round(N / bareMs * 1000)} | | | |`,
    `| sink, records and answers | ${attempts.length} | ${(sinkMs / 1000).toFixed(2)} | ${Math.round(N / sinkMs * 1000)} | ${pct(lat, 0.5).toFixed(3)} / ${pct(lat, 0.99).toFixed(3)} | ${((cpu.user + cpu.system) / 1000 / N * 1000).toFixed(1)} | ${rssMb.toFixed(0)} |`,
  ];
  const text = `<!-- sink.bench -->
## Webhook sink recording path (\`npx tsx bench/sink.bench.ts --write\`)

Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${N} webhook POSTs (normal bodies of ${CHECKOUTS} checkouts, about ${Buffer.byteLength(JSON.stringify(buildWebhookBody({ kind: 'normal', id: 'bench-0', status: 'STARTED' })))} bytes) from a sender in its own process, ${C} in flight over keep-alive, loopback, on the shared 2-core machine (load average ${loadavg()[0].toFixed(1)} at the end). Every attempt recorded: ${attempts.length === N ? 'yes' : `NO (${attempts.length})`}. Answer latency is the sink's own, from the request's arrival to its answer. Peak RSS growth is the sink process's over the run: the record of every body stays in memory until the report is written, and garbage not yet collected counts too. Analysing the whole record afterwards (${checks.length} checks, every body validated): ${(analyzeMs / 1000).toFixed(2)} s.

| server | requests | wall s | requests/s | answer latency ms p50 / p99 | sink CPU µs per request | peak RSS growth MB |
|---|---|---|---|---|---|---|
${rows.join('\n')}
<!-- /sink.bench -->`;
  process.stdout.write(text + '\n');
  if (process.argv.includes('--write')) {
    const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
    const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
    const re = /<!-- sink\.bench -->[\s\S]*?<!-- \/sink\.bench -->/;
    writeFileSync(file, re.test(old) ? old.replace(re, text) : `${old.trimEnd()}\n\n${text}\n`);
  }
}

if (process.argv[2] === '--sender') await sender(process.argv[3]);
else await main();
