// A small loopback webhook receiver for the dispatcher's tests: records every
// request with real arrival and answer times, and answers as a per-test plan says
// (status, delay before the headers, delay before the body ends).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

interface Arrival {
  seq: number;
  /** Real ms (performance.now()) when the whole request had arrived. */
  at: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** Real ms when the receiver wrote the end of its answer, or when the sender hung up. */
  endedAt?: number;
  answered?: number;
  /** The sender closed the connection before the answer was finished. */
  hungUp: boolean;
}

export interface Answer {
  status?: number;
  /** Real ms before the status line and headers go out. */
  delayMs?: number;
  /** Real ms between the headers and the end of the body (headers go out at once). */
  bodyDelayMs?: number;
}

export type Plan = (a: Arrival, all: Arrival[]) => Answer;

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  /** Most requests that were open at the same time. */
  peakConcurrency(): number;
  close(): Promise<void>;
}

export async function startReceiver(plan: Plan = () => ({ status: 200 }), tls?: { cert: string; key: string }): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  let open = 0, peak = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      open++; peak = Math.max(peak, open);
      const a: Arrival = { seq: arrivals.length, at: performance.now(), headers: req.headers, hungUp: false,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') };
      arrivals.push(a);
      const answer = plan(a, arrivals);
      let done = false;
      // Taken when the last byte is handed over, not at 'finish': in one event loop the sender may
      // read the answer before 'finish' runs, and a stalled process would make retries look early.
      const finish = (hungUp: boolean) => {
        if (done) return;
        done = true; open--;
        a.hungUp = hungUp; a.endedAt = performance.now();
        if (!hungUp) a.answered = status;
      };
      res.on('close', () => finish(!res.writableFinished));
      const status = answer.status ?? 200;
      const end = (chunk: string) => { if (res.destroyed) return; finish(false); res.end(chunk); };
      setTimeout(() => {
        if (res.destroyed) return;
        if (!answer.bodyDelayMs) { res.writeHead(status, { 'content-type': 'text/plain' }); end('ok'); return; }
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.flushHeaders();
        res.write('o');
        setTimeout(() => end('k'), answer.bodyDelayMs);
      }, answer.delayMs ?? 0);
    });
  };
  const server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  server.keepAliveTimeout = 1_000;
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/hooks`,
    arrivals,
    peakConcurrency: () => peak,
    close: () => new Promise(resolve => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Resolves when cond() holds, polling every 5 ms; rejects after timeoutMs real ms with what was awaited. */
export async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise(r => setTimeout(r, 5));
  }
}
