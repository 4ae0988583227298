// Benchmark of certify-receiver's sending core (harness/certify/transport.ts):
// requests per second to a bare receiver, divided by autocannon's rate against
// the same receiver at the same concurrency in the same run. The transport does
// more per request than autocannon (a body of its own per delivery, its own
// timing and 5 s wait, the evidence of every exchange kept for the report), so
// the ratio says what that costs. The receiver runs in a child process so it
// does not share the measured event loop; the rounds alternate so a drift of
// the shared machine's load touches both sides alike, and the median round is
// reported.
// The bodies are built and serialised before the clock starts and posted as
// their JSON text, as a certification sends them: its plan serialises every
// event once when it is made (harness/certify/plan.ts) and a burst's bodies are
// serialised before the burst.
// Not part of `npm test`: `npx tsx bench/certify.bench.ts [--write]` (--write
// updates bench/RESULTS.md between the certify.bench markers).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redactor } from '../harness/report/redact.ts';
import type { SenderOptions } from '../harness/certify/options.ts';
import { eventBody, Ids } from '../harness/certify/plan.ts';
import { Transport } from '../harness/certify/transport.ts';

const SELF = fileURLToPath(import.meta.url);
const API_KEY = 'bench-key-0123456789';

export interface CertifyBenchOptions { seconds: number; connections: number; rounds: number }
export interface CertifyBenchRound {
  senderRps: number; autocannonRps: number; ratio: number;
  /** CPU time of this process per request (user + system µs): steadier than rates on a shared machine. */
  senderCpuUs: number; autocannonCpuUs: number;
}
export interface CertifyBenchFigures extends CertifyBenchOptions {
  rounds_: CertifyBenchRound[];
  /** The median round's figures. */
  senderRps: number; autocannonRps: number; ratio: number;
  senderPeakRssMb: number;
  /** Medians over the rounds of CPU µs per request. */
  medianSenderCpuUs: number; medianAutocannonCpuUs: number;
}

/** The bare receiver: reads the body, answers 200 "ok". Prints its port; exits when its parent goes (stdin closes). */
function receiver(): void {
  const s = createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200).end('ok')); });
  s.listen(0, '127.0.0.1', () => process.stdout.write(`${(s.address() as AddressInfo).port}\n`));
  process.stdin.on('end', () => process.exit(0)).resume();
}

async function startReceiver(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--receiver'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', d => resolve(String(d).trim()));
    child.once('exit', code => reject(new Error(`receiver exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/hooks`, child };
}

// Bodies for the sending core, built and serialised once before any clock
// starts (a certification makes its whole plan before it sends anything); more
// than a round can send, so every delivery of a round has a body of its own.
const BODIES = 60_000;

interface Side { rps: number; cpuUs: number }

/** Runs one side and measures this process's CPU time per request. */
async function measured(run: () => Promise<{ requests: number; seconds: number }>): Promise<Side> {
  const c0 = process.cpuUsage();
  const r = await run();
  const c = process.cpuUsage(c0);
  return { rps: r.requests / r.seconds, cpuUs: (c.user + c.system) / r.requests };
}

/** The transport sends for `seconds`, `connections` deliveries in flight. */
async function sender(url: string, o: CertifyBenchOptions, bodies: string[]): Promise<{ requests: number; seconds: number }> {
  // A round sends for a time, not a plan: no --max-requests bound (the log keeps about 0.3 KB a delivery).
  const opts: SenderOptions = { url, apiKey: API_KEY, timeScale: 1, concurrency: o.connections, maxRequests: Infinity, maxDurationS: 3600, insecure: false };
  const t = new Transport(opts, new Redactor().add(API_KEY, 'PIS_WEBHOOK_API_KEY'));
  let next = 0;
  const t0 = performance.now(), end = t0 + o.seconds * 1000;
  await Promise.all(Array.from({ length: o.connections }, async () => {
    while (performance.now() < end) {
      const d = await t.post(undefined, { kind: 'normal', label: 'bench', raw: bodies[next++ % bodies.length] });
      if (d.status !== 200) throw new Error(`the bare receiver answered ${d.status ?? d.error}`);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  await t.close();
  return { requests: next, seconds };
}

/**
 * autocannon against the same receiver for as long, with the same body size
 * and number of connections. Its own figures are used: it stops on whole
 * seconds, so a run for a number of requests would count its idle end.
 */
async function cannon(url: string, o: CertifyBenchOptions): Promise<{ requests: number; seconds: number }> {
  const body = JSON.stringify(eventBody(new Ids().checkout('bench'), 'STARTED'));
  const r = await autocannon({ url, method: 'POST', connections: o.connections, duration: o.seconds, body,
    headers: { 'content-type': 'application/json', 'api-key': API_KEY } });
  if (r.non2xx || r.errors) throw new Error(`autocannon saw ${r.non2xx} non-2xx answers and ${r.errors} errors`);
  return { requests: r.requests.total, seconds: r.duration };
}

const settle = () => new Promise(r => setTimeout(r, 1_000));

export async function benchCertify(o: CertifyBenchOptions = { seconds: 3, connections: 50, rounds: 9 }): Promise<CertifyBenchFigures> {
  const { url, child } = await startReceiver();
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 100);
  try {
    const ids = new Ids();
    const bodies = Array.from({ length: BODIES }, () => JSON.stringify(eventBody(ids.checkout('bench'), 'STARTED')));
    // One short round of each first, so neither side pays for warming up the JIT.
    await cannon(url, { ...o, seconds: 1 });
    await sender(url, { ...o, seconds: 1 }, bodies);
    const rounds: CertifyBenchRound[] = [];
    for (let i = 0; i < o.rounds; i++) {
      // Which side goes first alternates, so a load that rises or falls through a round favours neither.
      // A pause between the sides lets the receiver close the last side's connections first.
      const a = () => measured(() => cannon(url, o)), s = () => measured(() => sender(url, o, bodies));
      let x: Side, y: Side;
      if (i % 2) { y = await s(); await settle(); x = await a(); }
      else { x = await a(); await settle(); y = await s(); }
      await settle();
      rounds.push({ senderRps: y.rps, autocannonRps: x.rps, ratio: y.rps / x.rps, senderCpuUs: y.cpuUs, autocannonCpuUs: x.cpuUs });
    }
    const median = [...rounds].sort((x, y) => x.ratio - y.ratio)[Math.floor(rounds.length / 2)];
    const cpu = (k: 'senderCpuUs' | 'autocannonCpuUs') => [...rounds].map(r => r[k]).sort((x, y) => x - y)[Math.floor(rounds.length / 2)];
    return { ...o, rounds_: rounds, ...median, senderPeakRssMb: peak / 2 ** 20, medianSenderCpuUs: cpu('senderCpuUs'),
      medianAutocannonCpuUs: cpu('autocannonCpuUs') };
  } finally {
    clearInterval(sampler);
    child.kill();
  }
}

function markdown(f: CertifyBenchFigures): string {
  const rows = f.rounds_.map((r, i) => `| ${i + 1} | ${r.autocannonRps.toFixed(0)} | ${r.senderRps.toFixed(0)} | ${r.ratio.toFixed(2)} | ` +
    `${r.autocannonCpuUs.toFixed(0)} | ${r.senderCpuUs.toFixed(0)} |`);
  return [
    '<!-- certify.bench -->',
    '## certify-receiver sending core against autocannon (`npx tsx bench/certify.bench.ts --write`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GB, ` +
    `load average ${loadavg()[0].toFixed(1)} at the end. ` +
    `${f.seconds} s of POSTs of a normal webhook body per side and round, ${f.connections} connections, ` +
    'to a bare node:http receiver in its own process on loopback; ' +
    'Each round runs both, in alternating order, and the ratio is taken within the round (the shared machine\'s load drifts between rounds); ' +
    'the median round is reported. ' +
    'autocannon sends one body again and again; the sending core sends a body of its own per delivery ' +
    '(built and serialised before the clock starts, as a certification makes its plan first) and keeps each exchange\'s evidence for the report. ' +
    `Median ratio ${f.ratio.toFixed(2)} (target at least 0.8). CPU time of the sending process per request, median: ` +
    `autocannon ${f.medianAutocannonCpuUs.toFixed(0)} µs, sending core ${f.medianSenderCpuUs.toFixed(0)} µs ` +
    `(ratio of costs ${(f.medianAutocannonCpuUs / f.medianSenderCpuUs).toFixed(2)}: the rate one core would reach, ` +
    "less exposed to the neighbours' load than the rates). " +
    `The sending process's peak RSS ${f.senderPeakRssMb.toFixed(0)} MB.`,
    '',
    '| round | autocannon req/s | sending core req/s | ratio | autocannon CPU µs/req | sending core CPU µs/req |',
    '|---|---|---|---|---|---|',
    ...rows,
    '<!-- /certify.bench -->',
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--receiver')) return receiver();
  const f = await benchCertify();
  const md = markdown(f);
  process.stdout.write(md + '\n');
  if (!process.argv.includes('--write')) return;
  const file = new URL('./RESULTS.md', import.meta.url);
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const re = /<!-- certify\.bench -->[\s\S]*?<!-- \/certify\.bench -->/;
  writeFileSync(file, re.test(old) ? old.replace(re, md) : `${old.trimEnd()}\n\n${md}\n`);
}

if (process.argv[1] === SELF) main().catch(e => { process.stderr.write(`${(e as Error).stack}\n`); process.exit(1); });
