// Mounts createControl() at /control on a loopback server, as the reference's
// server does, so the control API is tested over real HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realClock } from '../../../harness/reference/clock.ts';
import { createControl, type Control, type WebhookTarget } from '../../../harness/reference/control.ts';
import { resolveFaults } from '../../../harness/reference/catalog.ts';

export interface ControlServer {
  controlUrl: string;
  control: Control;
  /** The real time (performance.now()) of a spec-ms reading of the control's clock, to within a few µs. */
  realMs(specMs: number): number;
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  get(path: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Scale 0.1 by default: the 5 s limit is 500 ms real, far above a loopback answer even on a busy machine. */
export async function startControl(opts: { scale?: number; faults?: string[]; defaultWebhook?: WebhookTarget } = {}): Promise<ControlServer> {
  const scale = opts.scale ?? 0.1;
  const clock = realClock(scale);
  // The clock's own origin on performance.now(): each sample reads late by the time between its two reads (a busy
  // machine may switch away between them for milliseconds, as it may have between two separate starts), the least
  // by the least. A t0 taken apart from the clock's put a receiver's arrival 4 ms after the attempt's logged end.
  const t0 = Math.min(...Array.from({ length: 5 }, () => { const spec = clock.now(); return performance.now() - clock.toReal(spec); }));
  const control = createControl({ clock, faults: resolveFaults(opts.faults), defaultWebhook: opts.defaultWebhook });
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/control')) void control.handle(req, res, url.slice('/control'.length));
    else res.writeHead(404).end();
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/control`;
  const call = async (path: string, init?: RequestInit) => {
    const res = await fetch(controlUrl + path, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    controlUrl, control,
    realMs: specMs => t0 + specMs * scale,
    post: (path, body) => call(path,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    get: path => call(path),
    async close() {
      await control.close();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
