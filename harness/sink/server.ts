// The webhook sink: an HTTP(S) server of the harness that records every
// delivery attempt and answers it by the probe plan. It answers first and
// reads the body's facts after (checks/facts.ts); the checks read the record
// later. Whoever connects, it stays bounded: connections are capped and cut
// when their body stalls (connections.ts), and each body is kept in part (body.ts).
// An attempt finds its checkout by routes.ts; a body sent again is read once (read-bodies.ts).
// An attempt without the registered api-key is a stranger's, whatever checkout
// it names: it gets a plain 200, never a probe of the plan, is not counted as the
// sender's, and only the first STRANGER_SAMPLE of them are kept (the rest are counted).
import { createServer as createHttp, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { Socket } from 'node:net';
import { contracts } from '../contracts/load.ts';
import { buildWebhookBody } from '../webhook/bodies.ts';
import { HarnessError, listenError } from '../errors.ts';
import type { DeliveryAttempt } from '../results/model.ts';
import { readBody, unreadableBody, type RecordedAttempt } from './checks/facts.ts';
import { NO_CHECKOUT_ID as NO_ID } from './checks/view.ts';
import { BodyReader, MAX_BODY_BYTES } from './body.ts';
import { ConnectionGuard } from './connections.ts';
import { startLagMonitor } from './lag.ts';
import { PASSIVE_CYCLE, passiveChooser, type CheckoutPlan, type ControlOutcome, type SinkPlan } from './plan.ts';
import type { Forward, ForwardAnswer } from './forward.ts';
import { RETRY_AFTER_SPEC_S, SLOW_ANSWER_SPEC_MS, TRICKLE_BODY, TRICKLE_STEP_SPEC_MS, probeAnswer, probeOfStatus } from './probes.ts';
import { ReadBodies } from './read-bodies.ts';
import { BODY_ID, BODY_REF, HOOK_PATH, kindOfHead, probeOf, type Route } from './routes.ts';
import { Recorder, judgeKey, type RawAttempt } from './recorder.ts';
import { selfSignedCertificate } from './tls.ts';
import { specClock, type SpecClock } from '../clock.ts';

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
  /**
   * The api-key the sender must present. Each attempt's header is judged against
   * it (or its checkout's own key) on arrival and the value is not kept; only an
   * attempt with the key opens a checkout of the passive plan.
   */
  apiKey?: string;
  /** Open connections at most (default 2,000); past it the oldest stalled one makes room. */
  maxConnections?: number;
  /** Real ms a request's body may take after its headers before the sink cuts it (default 10 spec s, at least 1 s). */
  bodyDeadlineMs?: number;
  /** Pass every attempt on and answer with what comes back, instead of the probes (sink --forward-to). */
  forward?: Forward;
}

interface SinkStats {
  checkouts: number; attempts: number; failuresProvoked: number; retriesSeen: number; open: number;
  /** Finished attempts of the sender: with the registered api-key (without any key configured: for a planned or passive checkout). */
  sender: number;
  /** Open attempts that carry a registered api-key (without any key configured: every open attempt). */
  senderOpen: number;
  /** Finished attempts of strangers (see the file's head), the ones kept of them, and the bytes of all their bodies. */
  unattributed: number; strangersKept: number; strangerBodyBytes: number;
  /** Connections open now, and closed by the sink (cap, deadline) so far. */
  connections: number; connectionsClosed: number;
}

export interface Sink {
  /** Base URL the target calls (the public URL when one was given). */
  readonly url: string;
  readonly timeScale: number;
  /** The sender's clock: spec durations to real ones and back. */
  readonly clock: SpecClock;
  /** The URL for one planned checkout: its attempts are answered by `plan`, whatever their body says. */
  hookUrl(key: string): string;
  /** Registers a planned checkout under a path key before it is created, with the api-key asked for it. */
  expect(key: string, plan: CheckoutPlan, apiKey?: string): void;
  /** Records what the control API said for a planned checkout (its id becomes the attempts' checkoutId). */
  created(key: string, control: ControlOutcome): void;
  /** Every planned or seen checkout, by checkout id. */
  plan(): SinkPlan;
  attempts(): RecordedAttempt[];
  stats(): SinkStats;
  /** Real ms since the sink started (the time base of every attempt). */
  nowMs(): number;
  /** The longest this process was late to run its own code since the sink started (real ms; see lag.ts). */
  schedulingDelayMs(): number;
  /** The longest this process was late to run its own code in the last `realMs` (real ms; see lag.ts). */
  recentDelayMs(realMs: number): number;
  /**
   * Calls fn once each attempt is over (answered, or the sender hung up) and its
   * body was read, with whether it was a stranger's (only the kept ones of those); returns an unsubscribe.
   */
  onAttempt(fn: (a: DeliveryAttempt, stranger: boolean) => void): () => void;
  close(): Promise<void>;
}

/** Spec ms a body may take: twice the 5 s a sender waits for an answer (spec 6.6), by when a conforming one has hung up. */
const BODY_DEADLINE_SPEC_MS = 10_000;
/**
 * Strangers' attempts kept in the record; later ones are only counted
 * (arbitrary: enough to show who posted what; each keeps at most a 4 KiB body
 * and 4 KiB of headers, so the sample stays under 2 MiB however many come).
 */
export const STRANGER_SAMPLE = 200;

export async function startSink(opts: SinkOptions = {}): Promise<Sink> {
  const host = opts.host ?? '127.0.0.1';
  const clock = specClock(opts.timeScale ?? 1);
  const nextPassive = passiveChooser(opts.passive ?? PASSIVE_CYCLE);
  // The contracts are compiled now, not on the first body: that takes a second or
  // more, and the sink would stamp every attempt that came meanwhile that much late.
  // Likewise the first read of a body of each kind (2-10 ms on a busy machine, then 0.1 ms).
  contracts();
  for (const kind of ['normal', 'batch', 'older'] as const) readBody(JSON.stringify(buildWebhookBody({ kind, id: 'warm-up', status: 'STARTED' })));
  const rec = new Recorder();
  const bodies = new ReadBodies();
  const lag = startLagMonitor(() => rec.nowMs());
  const routes = new Map<string, Route>();
  const byControlId = new Map<string, Route>();
  const timers = new Set<NodeJS.Timeout>();
  const listeners = new Set<(a: DeliveryAttempt, stranger: boolean) => void>();
  const current = new Map<Socket, { a: RawAttempt; res: ServerResponse }>();
  /** Open attempts that came with a registered key: a stranger's open connection must not hold the drive. */
  const senderOpen = new Set<RawAttempt>();
  let failuresProvoked = 0, retriesSeen = 0, open = 0, sender = 0, unattributed = 0, strangersKept = 0, strangerBodyBytes = 0;
  const deadlineMs = opts.bodyDeadlineMs ?? Math.max(1_000, clock.toReal(BODY_DEADLINE_SPEC_MS));
  const maxConnections = opts.maxConnections ?? 2_000;

  // Every key the sender may present: the one given, and each planned checkout's own.
  const registered = new Set<string | undefined>([opts.apiKey]);
  const keysOf = (r: Route | undefined): Iterable<string | undefined> => r?.apiKey !== undefined ? [r.apiKey] : registered;
  /** Whether an attempt is the sender's: it carries the registered key (of its checkout); with no key configured, it has a checkout. */
  const isSenders = (a: RawAttempt, r: Route | undefined): boolean => {
    if (![...registered].some(k => k !== undefined)) return r !== undefined;
    a.key ??= judgeKey(a.keyValue, keysOf(r));
    return a.key.verdict === 'registered';
  };

  /** The checkout an attempt whose path named none belongs to: by the id in its body. */
  const routeByBody = (a: RawAttempt, text: string): Route | undefined => {
    const id = BODY_ID.exec(text)?.[1] ?? BODY_REF.exec(text)?.[1] ?? NO_ID;
    const planned = byControlId.get(id);
    if (planned) { a.route = planned.key; return planned; }
    a.route = `id:${id}`;
    let r = routes.get(a.route);
    // Only the sender opens a checkout of the passive plan: a stranger's post must not take a probe meant for it.
    if (!r && isSenders(a, undefined)) {
      r = { key: a.route, plan: nextPassive(kindOfHead(text)), checkoutId: id, count: 0, lastFailed: false, passive: { released: false } };
      routes.set(a.route, r);
    }
    return r;
  };

  const settle = (a: RawAttempt) => {
    if (a.answer === undefined || !a.kept || a.settled) return;
    a.settled = true;
    open--;
    senderOpen.delete(a);
    const stranger = !isSenders(a, routes.get(a.route));
    if (stranger) {
      unattributed++;
      strangerBodyBytes += a.kept.bytes;
      if (strangersKept >= STRANGER_SAMPLE) { rec.forget(a); return; }
      strangersKept++;
    } else sender++;
    if (!listeners.size) return;
    const d = rec.delivery(a, checkoutOf, lag.around);
    for (const fn of listeners) fn(d, stranger);
  };

  /** Reads the body's facts (the one full parse) and keeps only its prefix. */
  const finishBody = (a: RawAttempt) => {
    if (a.kept || !a.reader) return;
    const complete = a.ended === true;
    const body = a.reader.finish(complete);
    a.reader = undefined;
    a.key ??= judgeKey(a.keyValue, keysOf(routes.get(a.route)));
    delete a.keyValue;
    // A body kept whole may be one read before.
    const read = body.whole !== undefined && body.kept === body.whole ? bodies.read(body.whole) : undefined;
    a.kept = { text: read?.text ?? body.kept, bytes: body.bytes, ...(body.sha256 ? { sha256: body.sha256 } : {}) };
    a.facts = read?.facts ?? (body.whole !== undefined ? bodies.facts(body.whole) : undefined) ?? unreadableBody(a.probe === 'too-large'
      ? `the body is over the ${MAX_BODY_BYTES}-byte limit (${body.bytes} bytes)`
      : `the body never finished (${body.bytes} bytes came in ${(deadlineMs / 1000).toFixed(1)} s or before the connection ended)`);
    settle(a);
  };

  /** `given`: a forwarded answer, sent as it came (status, content-type, body). */
  const answer = (a: RawAttempt, res: ServerResponse, status: number, given?: ForwardAnswer) => {
    if (a.answer !== undefined) return;
    // Stamped before writing: the sender cannot act on the answer before this instant.
    a.answeredNs = rec.nowNs();
    a.answer = status;
    const headers: Record<string, string> = status === 302 && !given ? { location: '/moved' } : {};
    // Delta-seconds are whole real seconds: the spec's 10 s on the run's clock, at least 1.
    if (a.probe === 'status-429-retry-after') headers['retry-after'] = String(Math.max(1, Math.ceil(clock.toReal(RETRY_AFTER_SPEC_S))));
    if (status === 413 || status === 408) headers.connection = 'close';
    const type = given ? given.contentType : 'text/plain';
    res.writeHead(status, status === 204 || !type ? headers : { ...headers, 'content-type': type });
    res.end(status === 204 ? undefined : given ? given.body : status === 200 ? 'ok' : `sink answered ${status} on purpose`);
    settle(a);
  };

  /**
   * A trickled answer: status line and headers at once, then the body a byte at a
   * time. The answer counts as given when its last byte goes out; a sender that
   * hangs up before is recorded as hanging up (res 'close').
   */
  const trickle = (a: RawAttempt, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(TRICKLE_BODY)) });
    res.flushHeaders();
    const next = (i: number) => {
      const t = setTimeout(() => {
        timers.delete(t);
        if (res.destroyed || a.answer !== undefined) return;
        if (i < TRICKLE_BODY.length - 1) { res.write(TRICKLE_BODY[i]); next(i + 1); return; }
        a.answeredNs = rec.nowNs();
        a.answer = 200;
        res.end(TRICKLE_BODY[i]);
        settle(a);
      }, clock.toReal(TRICKLE_STEP_SPEC_MS));
      timers.add(t);
    };
    next(0);
  };

  /** sink --forward-to: the receiver's answer is the sink's; the probe recorded is the one that answer amounts to. */
  const passOn = (a: RawAttempt, req: IncomingMessage, res: ServerResponse, route: Route | undefined, forward: Forward) => {
    a.probe = 'forwarded';
    forward({ method: req.method ?? 'POST', headers: req.headers, body: a.reader!.peek(MAX_BODY_BYTES) }).then(given => {
      if (res.destroyed) return;
      a.probe = probeOfStatus(given.status);
      if (route) {
        route.lastFailed = given.status !== 200;
        if (route.lastFailed) failuresProvoked++;
      }
      answer(a, res, given.status, given);
    }, () => { if (!res.destroyed) answer(a, res, 502); });
  };

  /** A request past its deadline, or on a connection closed to make room: answered 408 and recorded as cut off. */
  const cut = (socket: Socket) => {
    const c = current.get(socket);
    current.delete(socket);
    if (c && c.a.answer === undefined) {
      c.a.probe = 'incomplete';
      finishBody(c.a);
      answer(c.a, c.res, 408);
    }
    socket.destroy();
  };

  const guard = new ConnectionGuard(maxConnections, deadlineMs, () => rec.nowMs(), cut);
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    guard.set(socket, 'receiving');
    const a = rec.start(req.method ?? 'GET', req.url ?? '/', req.headers);
    a.connectedNs = guard.takeAccepted(socket);
    a.reader = new BodyReader();
    open++;
    if (judgeKey(a.keyValue, registered).verdict === 'registered' || ![...registered].some(k => k !== undefined)) senderOpen.add(a);
    current.set(socket, { a, res });
    const slot = HOOK_PATH.exec(req.url ?? '')?.[1];
    let route = slot !== undefined ? routes.get(slot) : undefined;
    if (route) a.route = slot!;
    res.on('finish', () => guard.set(socket, 'idle'));
    res.on('close', () => {
      if (current.get(socket)?.a === a) current.delete(socket);
      if (a.answer === undefined) { a.closedNs = rec.nowNs(); a.answer = 'none'; }
      finishBody(a);
      settle(a);
    });
    req.on('data', (chunk: Buffer) => {
      a.reader?.push(chunk);
      if (!a.reader?.overLimit || a.probe === 'too-large') return;
      // Over the limit: answer 413 at once; the attempt stays recorded (its start, length and hash).
      a.probe = 'too-large';
      route ??= routeByBody(a, a.reader.peek(64 * 1024));
      if (route && !isSenders(a, route)) route = undefined;
      if (route) route.count++;
      answer(a, res, 413);
    });
    req.on('error', () => { /* a client that vanished mid-body is recorded by res 'close' */ });
    req.on('end', () => {
      if (current.get(socket)?.a === a) current.delete(socket);
      a.ended = true;
      guard.set(socket, 'held');
      if (a.probe === 'too-large') { finishBody(a); return; }
      const body = a.reader!;
      // The text search for the id needs only the start of the body.
      const head = body.bytes ? body.peek(64 * 1024) : '';
      route ??= routeByBody(a, head);
      // A stranger's attempt, whatever checkout it names, is answered 200 and takes no probe of the plan.
      if (route && !isSenders(a, route)) route = undefined;
      if (route?.lastFailed) retriesSeen++;
      if (opts.forward) {
        if (route) route.count++;
        passOn(a, req, res, route, opts.forward);
        setImmediate(() => finishBody(a));
        return;
      }
      const probe = route ? probeOf(route, head, nextPassive.release) : 'ok';
      a.probe = probe;
      if (route) {
        route.lastFailed = probe !== 'ok' && probe !== 'slow-4s';
        if (route.lastFailed) failuresProvoked++;
      }
      const what = probeAnswer(probe);
      if (what === 'reset') {
        a.answeredNs = a.closedNs = rec.nowNs();
        a.answer = 'reset';
        req.socket.resetAndDestroy();
      } else if (probe === 'slow-trickle') trickle(a, res);
      else {
        const hold = SLOW_ANSWER_SPEC_MS[probe];
        if (hold === undefined) answer(a, res, what);
        else {
          const t = setTimeout(() => { timers.delete(t); if (!res.destroyed) answer(a, res, what); }, clock.toReal(hold));
          timers.add(t);
        }
      }
      // The one full read of the body, after the answer went out.
      setImmediate(() => finishBody(a));
    });
  };

  let server: Server;
  let scheme = 'http';
  // Node's own limits back the guard up (headers that never end, a request that never ends), well after its deadline:
  // Node judges them at a timer, without first reading what waits in the socket, so after a stall of the sink's
  // process past the deadline it answered 408 to a request that had come whole, and the attempt went unrecorded. The
  // guard judges after the reads; Node's check cuts only after a stall twice the deadline and a second longer.
  const backstopMs = 2 * deadlineMs + 1_000;
  const limits = { headersTimeout: backstopMs, requestTimeout: backstopMs + 1_000, connectionsCheckingInterval: Math.min(1_000, deadlineMs) };
  if (opts.tls) {
    const pems = opts.tls === 'self-signed' ? await selfSignedCertificate(host) : opts.tls;
    try { server = createHttps({ cert: pems.cert, key: pems.key, handshakeTimeout: deadlineMs, ...limits }, onRequest); } catch (e) {
      throw new HarnessError('PIS_TLS',
        `The sink's TLS certificate or key is not usable (${(e as Error).message}): give a PEM certificate and its private key.`, { cause: e });
    }
    scheme = 'https';
  } else server = createHttp(limits, onRequest);
  // Admitted with its accept time (over TLS, the handshake's end: the request's socket is the TLS one).
  server.on(opts.tls ? 'secureConnection' : 'connection', (socket: Socket) => guard.admit(socket, rec.nowNs()));
  // A backstop for what the guard cannot see: TLS handshakes not yet done.
  server.maxConnections = 2 * maxConnections;
  // Keep-alive as long as a slow answer can take.
  server.keepAliveTimeout = Math.max(5_000, clock.toReal(7_000));

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', e => reject(listenError(e, 'webhook sink', host, opts.port ?? 0)));
    // A deep accept queue (arbitrary, the usual kernel cap): a burst of connections waits there
    // instead of being dropped and retried by the clients seconds later.
    server.listen({ port: opts.port ?? 0, host, backlog: 4096 }, () => resolve((server.address() as { port: number }).port));
  });
  const url = (opts.publicUrl ?? `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');

  const checkoutOf = (route: string) => routes.get(route)?.checkoutId ?? (route.startsWith('id:') ? route.slice(3) : route || NO_ID);

  const planOf = (): SinkPlan => {
    const out: SinkPlan = new Map();
    for (const r of routes.values())
      out.set(r.checkoutId, { plan: r.plan, ...(r.control ? { control: r.control } : {}), ...(r.apiKey !== undefined ? { apiKey: r.apiKey } : {}) });
    return out;
  };

  return {
    url,
    timeScale: clock.scale,
    clock,
    hookUrl: key => `${url}/hooks/${key}`,
    expect(key, plan, apiKey) {
      if (!HOOK_PATH.test(`/hooks/${key}`)) throw new HarnessError('PIS_INTERNAL', `sink route key '${key}' is not a plain name.`);
      routes.set(key, { key, plan, checkoutId: key, count: 0, lastFailed: false, ...(apiKey !== undefined ? { apiKey } : {}) });
      registered.add(apiKey);
    },
    created(key, control) {
      const r = routes.get(key);
      if (!r) return;
      r.control = control;
      if (control.id) { r.checkoutId = control.id; byControlId.set(control.id, r); }
    },
    plan: planOf,
    attempts: () => rec.attempts(checkoutOf, lag.around),
    stats: () => {
      const g = guard.stats();
      return { checkouts: routes.size, attempts: rec.count, failuresProvoked, retriesSeen, open, senderOpen: senderOpen.size, sender,
        unattributed, strangersKept, strangerBodyBytes, connections: g.open, connectionsClosed: g.closed };
    },
    nowMs: () => rec.nowMs(),
    schedulingDelayMs: () => lag.max(),
    recentDelayMs: realMs => lag.worstSince(rec.nowMs() - realMs),
    onAttempt(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    async close() {
      lag.stop();
      guard.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
