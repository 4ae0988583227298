// A pass-through in front of the bundled reference that breaks chosen rules:
// each mutation looks at a request and may answer it itself (or rewrite the
// reference's answer); everything else goes through unchanged. `run` is then
// pointed at the proxy like at any target.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference, type Reference } from '../../harness/reference/index.ts';
import type { RunResults } from '../../harness/report/model.ts';
import { runCli, type CliResult } from './cli.ts';

export interface ProxiedRequest { method: string; path: string; headers: IncomingHttpHeaders; body: string; json?: Record<string, unknown> }
export interface ProxiedAnswer { status: number; json: unknown }

export interface Mutation {
  name: string;
  /** An answer instead of the reference's, or undefined to pass the request on. */
  request?(req: ProxiedRequest): ProxiedAnswer | undefined;
  /** A changed answer of the reference, or undefined to keep it. */
  response?(req: ProxiedRequest, answer: ProxiedAnswer): ProxiedAnswer | undefined;
}

/** The reference's error body (profile.md) for an answer a mutation makes up. */
export const errorBody = (errorCode: string, message: string) =>
  ({ id: 'e-proxy', errorCode, message, source: 'C', type: 'BAD_REQUEST', timestamp: 0, links: [] });

const HOP = ['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'];

export async function startProxy(ref: Reference, mutations: readonly Mutation[]): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    let json: Record<string, unknown> | undefined;
    try { json = body ? JSON.parse(body) : undefined; } catch { /* not JSON */ }
    const r: ProxiedRequest = { method: req.method!, path: req.url!, headers: req.headers, body, json };
    let answer = mutations.map(m => m.request?.(r)).find(a => a);
    const headers: Record<string, string> = {};
    if (!answer) {
      const forward: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP.includes(k)) forward[k] = v;
      const up = await fetch(ref.authUrl + req.url, { method: req.method, headers: forward, body: chunks.length ? body : undefined, redirect: 'manual' });
      up.headers.forEach((v, k) => { if (!HOP.includes(k)) headers[k] = v; });
      const text = await up.text();
      let upJson: unknown = text;
      try { upJson = JSON.parse(text); } catch { /* kept as text */ }
      answer = { status: up.status, json: upJson };
      for (const m of mutations) answer = m.response?.(r, answer) ?? answer;
    }
    const text = typeof answer.json === 'string' ? answer.json : JSON.stringify(answer.json);
    res.writeHead(answer.status, { ...headers, 'content-type': headers['content-type'] ?? 'application/json' }).end(text);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

export interface ProxiedRun { cli: CliResult; results?: RunResults }

/** `run` against the reference behind the mutations, with `args` (suites, time scale); the report folder is removed afterwards. */
export async function runThroughProxy(mutations: readonly Mutation[], args: string[], timeScale = 0.05): Promise<ProxiedRun> {
  const ref = await startReference({ timeScale });
  const { url, server } = await startProxy(ref, mutations);
  const dir = mkdtempSync(join(tmpdir(), 'pis-proxy-'));
  try {
    const cli = await runCli(['run', '--auth-url', url, '--base-url', `${url}/api`, '--client-id', ref.clientId, '--time-scale', String(timeScale), '--report', dir, ...args],
      // Arbitrary: far beyond the 20-60 s such a run takes, for a machine shared with other test runs.
      { env: { PIS_CLIENT_SECRET: ref.clientSecret }, timeoutMs: 480_000 });
    let results: RunResults | undefined;
    try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { /* the caller asserts */ }
    return { cli, results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>(r => server.close(() => r()));
    await ref.close();
  }
}
