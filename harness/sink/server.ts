// The webhook sink (issue 5): an HTTP(S) server of the harness that records
// every delivery attempt and answers it by the probe plan. It never parses JSON
// or analyses while answering; the analysis (analysis/) reads the record later.
import { createServer as createHttp, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HarnessError, listenError } from '../errors.ts';
import type { DeliveryAttempt } from '../report/model.ts';
import { PASSIVE_CYCLE, probeFor, type CheckoutPlan, type ControlOutcome, type SinkPlan } from './plan.ts';
import { SLOW_ANSWER_SPEC_MS, probeAnswer } from './probes.ts';
import { MAX_BODY_BYTES, Recorder, type RawAttempt } from './recorder.ts';
import { selfSignedCertificate } from './tls.ts';

export interface SinkOptions {
  host?: string;
  port?: number;
  /** Real seconds per spec second; slow probes hold 4 s and 6 s of spec time. */
  timeScale?: number;
  /** Serve HTTPS with this certificate, or with a generated self-signed one. */
  tls?: { cert: string; key: string } | 'self-signed';
  /** The address the target must call when it differs from host:port (a tunnel). */
  publicUrl?: string;
  /** Plans handed out to checkouts that arrive without a path slot, in order of first appearance. */
  passive?: readonly CheckoutPlan[];
}

export interface SinkStats { checkouts: number; attempts: number; failuresProvoked: number; retriesSeen: number; open: number }

interface Route { plan: CheckoutPlan; checkoutId: string; control?: ControlOutcome; count: number; lastFailed: boolean }

export interface Sink {
  /** Base URL the target calls (the public URL when one was given). */
  readonly url: string;
  readonly timeScale: number;
  /** The URL for one planned checkout: its attempts are answered by `plan`, whatever their body says. */
  hookUrl(key: string): string;
  /** Registers a planned checkout under a path key, before it is created. */
  expect(key: string, plan: CheckoutPlan): void;
  /** Records what the control API said for a planned checkout (its id becomes the attempts' checkoutId). */
  created(key: string, control: ControlOutcome): void;
  /** Every planned or seen checkout, by checkout id. */
  plan(): SinkPlan;
  attempts(): DeliveryAttempt[];
  stats(): SinkStats;
  /** Real ms since the sink started (the time base of every attempt). */
  nowMs(): number;
  /**
   * The longest this process was late to run its own code since the sink started
   * (event-loop delay, real ms): a bound on how late an arrival or hang-up could
   * have been stamped. The analysis adds it to every timing tolerance.
   */
  schedulingDelayMs(): number;
  /** Calls fn after each attempt got its answer (or the sender hung up); returns an unsubscribe. */
  onAttempt(fn: (seq: number) => void): () => void;
  close(): Promise<void>;
}

// Not anchored: a tunnel (--public-sink-url) may keep a path prefix of its own.
const HOOK_PATH = /\/hooks\/([A-Za-z0-9._-]{1,100})(?:[/?]|$)/;
// Routing by body is a cheap text search, not a parse: the first "id" (spec 2.2),
// else "referenceId" for the older variant of 2.5, which has no id.
const BODY_ID = /"id"\s*:\s*"([^"\\]{1,200})"/;
const BODY_REF = /"referenceId"\s*:\s*"([^"\\]{1,200})"/;

export async function startSink(opts: SinkOptions = {}): Promise<Sink> {
  const host = opts.host ?? '127.0.0.1';
  const scale = opts.timeScale ?? 1;
  // Sampled every 10 ms (arbitrary: fine enough against the 25 ms tolerance
  // floor, cheap enough to leave the recording path alone).
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  if (!(scale > 0)) throw new HarnessError('PIS_BAD_FLAG', `the time scale must be a positive number, not ${scale}.`);
  const passive = opts.passive ?? PASSIVE_CYCLE;
  const rec = new Recorder();
  const routes = new Map<string, Route>();
  const timers = new Set<NodeJS.Timeout>();
  const listeners = new Set<(seq: number) => void>();
  let passiveSeen = 0, failuresProvoked = 0, retriesSeen = 0, open = 0;

  const routeOf = (path: string | undefined, a: RawAttempt): Route => {
    const slot = HOOK_PATH.exec(path ?? '')?.[1];
    if (slot && routes.has(slot)) { a.route = slot; return routes.get(slot)!; }
    const text = Buffer.concat(a.chunks).subarray(0, 64 * 1024).toString('utf8');
    const id = BODY_ID.exec(text)?.[1] ?? BODY_REF.exec(text)?.[1] ?? `(no id)`;
    a.route = `id:${id}`;
    let r = routes.get(a.route);
    if (!r) {
      r = { plan: passive[passiveSeen++ % passive.length], checkoutId: id, count: 0, lastFailed: false };
      routes.set(a.route, r);
    }
    return r;
  };

  const done = (a: RawAttempt) => { open--; for (const fn of listeners) fn(a.seq); };

  const answer = (a: RawAttempt, res: ServerResponse, status: number) => {
    if (a.answer !== undefined) return;
    // Stamped before writing: the sender cannot act on the answer before this instant.
    a.answeredNs = rec.nowNs();
    a.answer = status;
    const headers: Record<string, string> = status === 302 ? { location: '/moved' } : {};
    if (status === 413) headers.connection = 'close';
    res.writeHead(status, status === 204 ? headers : { ...headers, 'content-type': 'text/plain' });
    res.end(status === 204 ? undefined : status === 200 ? 'ok' : `sink answered ${status} on purpose`);
    done(a);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const a = rec.start(flatHeaders(req));
    open++;
    let route: Route | undefined;
    res.on('close', () => {
      if (a.answer === undefined) { a.closedNs = rec.nowNs(); a.answer = 'none'; done(a); }
    });
    req.on('data', (chunk: Buffer) => {
      a.size += chunk.length;
      if (a.size <= MAX_BODY_BYTES) { a.chunks.push(chunk); return; }
      if (a.probe === 'too-large') return;
      // Over the limit: answer 413 at once; the attempt stays recorded (issue 5).
      a.probe = 'too-large';
      route = routeOf(req.url, a);
      route.count++;
      answer(a, res, 413);
    });
    req.on('error', () => { /* a client that vanished mid-body is recorded by res 'close' */ });
    req.on('end', () => {
      // One compact copy: the chunks are slices that would keep the socket's read buffers alive.
      if (a.chunks.length) a.chunks = [Buffer.concat(a.chunks)];
      if (a.probe === 'too-large') return;
      route = routeOf(req.url, a);
      if (route.lastFailed) retriesSeen++;
      const probe = probeFor(route.plan, route.count++);
      a.probe = probe;
      route.lastFailed = probe !== 'ok' && probe !== 'slow-4s';
      if (route.lastFailed) failuresProvoked++;
      const what = probeAnswer(probe);
      if (what === 'reset') {
        a.answeredNs = a.closedNs = rec.nowNs();
        a.answer = 'reset';
        req.socket.resetAndDestroy();
        done(a);
        return;
      }
      const hold = SLOW_ANSWER_SPEC_MS[probe];
      if (hold === undefined) return answer(a, res, what);
      const t = setTimeout(() => { timers.delete(t); if (!res.destroyed) answer(a, res, what); }, hold * scale);
      timers.add(t);
    });
  };

  let server: Server;
  let scheme = 'http';
  if (opts.tls) {
    const pems = opts.tls === 'self-signed' ? await selfSignedCertificate(host) : opts.tls;
    try { server = createHttps({ cert: pems.cert, key: pems.key }, onRequest); } catch (e) {
      throw new HarnessError('PIS_TLS', `The sink's TLS certificate or key is not usable (${(e as Error).message}): give a PEM certificate and its private key.`, { cause: e });
    }
    scheme = 'https';
  } else server = createHttp(onRequest);
  // Slow senders and held answers must not be cut by Node's own limits; the
  // sink decides when to answer. Keep-alive as long as a slow answer can take.
  server.requestTimeout = 0;
  server.keepAliveTimeout = Math.max(5_000, 7_000 * scale);

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', e => reject(listenError(e, 'webhook sink', host, opts.port ?? 0)));
    server.listen(opts.port ?? 0, host, () => resolve((server.address() as { port: number }).port));
  });
  const url = (opts.publicUrl ?? `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');

  const planOf = (): SinkPlan => {
    const out: SinkPlan = new Map();
    for (const r of routes.values()) out.set(r.checkoutId, { plan: r.plan, ...(r.control ? { control: r.control } : {}) });
    return out;
  };

  return {
    url,
    timeScale: scale,
    hookUrl: key => `${url}/hooks/${key}`,
    expect(key, plan) {
      if (!HOOK_PATH.test(`/hooks/${key}`)) throw new HarnessError('PIS_INTERNAL', `sink route key '${key}' is not a plain name.`);
      routes.set(key, { plan, checkoutId: key, count: 0, lastFailed: false });
    },
    created(key, control) {
      const r = routes.get(key);
      if (!r) return;
      r.control = control;
      if (control.id) r.checkoutId = control.id;
    },
    plan: planOf,
    attempts: () => rec.attempts(route => routes.get(route)?.checkoutId ?? route),
    stats: () => ({ checkouts: routes.size, attempts: rec.count, failuresProvoked, retriesSeen, open }),
    nowMs: () => rec.nowMs(),
    // The histogram counts the 10 ms sampling period itself in each value.
    schedulingDelayMs: () => Math.max(0, lag.max / 1e6 - 10),
    onAttempt(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    async close() {
      lag.disable();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}

/** Node's headers with repeated ones joined, all names lower case. */
function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
