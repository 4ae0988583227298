// A pass-through in front of the reference that breaks chosen rules: each
// mutation may change a request, answer it itself, or change the reference's
// answer; everything else goes through unchanged. `run` is then pointed at the
// proxy like at any target. The host header goes through as the client sent
// it: the reference builds its links (consent, authorize) from it, so they
// lead back through the proxy.
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../../harness/reference/index.ts';
import type { RunResults } from '../../harness/results/model.ts';
import { runServedHere, type CliResult } from './cli.ts';

export interface Exchange {
  method: string;
  /** Path and query as the client sent them, e.g. /api/banks?name=DNB. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}
export interface Answer { status: number; headers: Record<string, string>; text: string }

export interface ProxyMutation {
  /** Changes the request before the reference sees it, or answers it alone (it may ask the reference first: see `forward`). */
  request?(x: Exchange): Answer | void | Promise<Answer | void>;
  /** Changes the reference's answer in place. */
  answer?(x: Exchange, a: Answer): void;
}

/** An answer with the reference's error body (docs/profile.md), for a mutation that refuses. */
export function errorAnswer(status: number, errorCode: string, message: string): Answer {
  return { status, headers: { 'content-type': 'application/json' },
    text: JSON.stringify({ id: 'e-proxy', errorCode, message, source: 'C', type: 'BAD_REQUEST', timestamp: 0, links: [] }) };
}

export function jsonAnswer(body: unknown, status = 200): Answer {
  return { status, headers: { 'content-type': 'application/json' }, text: JSON.stringify(body) };
}

/** Edits a JSON answer in place; the edit may return a replacement. Answers that are not JSON stay as they are. */
export function editJson(a: Answer, edit: (body: any) => unknown): void {
  let body: unknown;
  try { body = JSON.parse(a.text); } catch { return; }
  const replaced = edit(body);
  a.text = JSON.stringify(replaced === undefined ? body : replaced);
}

const HOP = ['content-length', 'transfer-encoding', 'connection', 'keep-alive'];

/** One exchange with the reference, host header and all (fetch would replace it). */
export function forward(upstream: string, x: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(x.body);
    const req = request(upstream + x.url, { method: x.method, headers: { ...x.headers, 'content-length': String(body.length) } }, res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c as Buffer));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && !HOP.includes(k)) headers[k] = v;
        resolve({ status: res.statusCode!, headers, text: Buffer.concat(chunks).toString() });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface Proxy { url: string; close(): Promise<void> }

/** Starts the pass-through to `upstream` (an origin) with the mutations on, in order. */
export async function startProxy(upstream: string, mutations: readonly ProxyMutation[]): Promise<Proxy> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP.includes(k)) headers[k] = v;
    const u = new URL(req.url!, 'http://proxy');
    const x: Exchange = { method: req.method!, url: req.url!, path: u.pathname, query: u.searchParams, headers, body: Buffer.concat(chunks).toString() };
    let a: Answer | undefined;
    for (const m of mutations) if (!a) a = (await m.request?.(x)) ?? undefined;
    if (!a) {
      try { a = await forward(upstream, x); } catch (e) { a = { status: 502, headers: {}, text: `proxy: ${(e as Error).message}` }; }
      for (const m of mutations) m.answer?.(x, a);
    }
    res.writeHead(a.status, a.headers).end(a.text);
  });
  // As the reference does (harness/reference/index.ts): Node's 5 s would close idle connections the run may be about to reuse.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>(r => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export interface ProxiedRun { cli: CliResult; results?: RunResults }

/** `run` against a fresh reference behind the mutations, with `args` (suites, banks, grep); the report folder is removed afterwards. */
export async function runThroughProxy(mutations: readonly ProxyMutation[], args: string[], timeScale = 0.05): Promise<ProxiedRun> {
  const ref = await startReference({ timeScale });
  const proxy = await startProxy(ref.authUrl, mutations);
  const dir = mkdtempSync(join(tmpdir(), 'pis-proxy-'));
  try {
    const cli = await runServedHere(['run', '--auth-url', proxy.url, '--base-url', `${proxy.url}/api`, '--client-id', ref.clientId, '--realm', ref.realm,
      '--time-scale', String(timeScale), '--report', dir, ...args],
    // Arbitrary: far beyond the 20-60 s such a run takes, for a machine shared with other test runs.
    { env: { PIS_CLIENT_SECRET: ref.clientSecret }, timeoutMs: 600_000 });
    let results: RunResults | undefined;
    try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { /* the caller asserts */ }
    return { cli, results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await proxy.close();
    await ref.close();
  }
}
