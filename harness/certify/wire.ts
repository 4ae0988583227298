// One HTTP/1.1 exchange on a socket of certify-receiver's own pool: the
// request goes out as one write, the answer is read by http1.ts as it comes,
// its status line and headers are timed the moment they are parsed, its body
// is kept up to a cap, and the caller may cut the exchange at any point. A
// general HTTP client spends more per request on what this core does not need
// (undici: validating and copying each request, routing it through agent, pool
// and client, a parser behind WebAssembly) than this core spends in all;
// bench/certify.bench.ts measures the core against autocannon.
import { isIP, connect as tcp, type Socket } from 'node:net';
import { connect as tls } from 'node:tls';
import { BodyCollector, type ReadBody } from '../http/body.ts';
import { AnswerParser, type AnswerEvents } from './http1.ts';

/**
 * What is kept of an answer body (arbitrary: every acknowledgement and error
 * page's useful part, and a state answer with a checkout's status; a run of
 * 1,000 deliveries keeps 4 MB of answers at most). The rest is counted and
 * hashed up to ANSWER_READ_LIMIT_BYTES.
 */
export const ANSWER_KEPT_BYTES = 4 * 1024;
/**
 * Reading an answer stops here and its connection is dropped (arbitrary: 16
 * times what is kept, far beyond any acknowledgement; a receiver that answers
 * 10 MB to each of 300 deliveries would otherwise cost 3 GB of reading and
 * hashing, which took a loaded 2-core machine 600 ms a delivery).
 */
export const ANSWER_READ_LIMIT_BYTES = 64 * 1024;

export interface WireRequest { method: string; url: string; headers: Record<string, string>; body?: string }

/** Where a request goes, parsed once per URL rather than once per request. */
export interface Target { origin: string; https: boolean; host: string; port: number; hostHeader: string; path: string }

export function targetOf(url: string): Target {
  const u = new URL(url);
  const https = u.protocol === 'https:';
  return { origin: u.origin, https, host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || (https ? 443 : 80)), hostHeader: u.host,
    path: u.pathname + u.search };
}

export interface WireOutcome {
  /** The final status (1xx interim answers are skipped); undefined when none came. */
  status?: number;
  /** The answer's status line and headers as they came, one byte a character (headerRecord reads them). */
  head?: string;
  /** performance.now() when the status line and headers were parsed. */
  headersAt?: number;
  /**
   * A body read whole within ANSWER_KEPT_BYTES, as its bytes (one a
   * character): most answers. smallAnswer makes its ReadBody when something
   * asks, so the hash is taken only of bodies shown.
   */
  small?: string;
  /** Any other body as far as it was read (its first ANSWER_KEPT_BYTES kept). One of `small` and `answer` is set whenever a status came. */
  answer?: ReadBody;
  /** Why the exchange ended without a status, or why its body broke off. */
  error?: Error;
}

/** The ReadBody of a short body (WireOutcome.small), made when something asks for it. */
export function smallAnswer(bytes: string): ReadBody {
  const c = new BodyCollector(ANSWER_KEPT_BYTES, ANSWER_READ_LIMIT_BYTES);
  c.push(Buffer.from(bytes, 'latin1'));
  return c.finish();
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A header set as lines, and whether they are ASCII (then head and body go out as one UTF-8 string). */
interface Lines { text: string; ascii: boolean }

/** The lines of each frozen header set, made once: a run sends the same few sets again and again. */
const LINES = new WeakMap<Record<string, string>, Lines>();

/** The caller's headers as lines; throws for what a header cannot carry. */
function headerLines(headers: Record<string, string>): Lines {
  const known = LINES.get(headers);
  if (known) return known;
  let text = '';
  for (const name in headers) {
    const value = headers[name];
    if (!TOKEN.test(name) || /[\0\r\n]/.test(value)) throw new Error(`the request header ${JSON.stringify(name)} cannot be sent as it is`);
    text += `${name}: ${value}\r\n`;
  }
  // The rest of a head is ASCII: a URL's path and host are percent- and punycode-encoded.
  const lines = { text, ascii: !/[^\x00-\x7f]/.test(text) };
  if (Object.isFrozen(headers)) LINES.set(headers, lines);
  return lines;
}

/** The request's head as it goes on the wire: the header set and order an HTTP client sends (host, connection, the caller's headers, content-length). */
function requestHead(target: Target, req: WireRequest, lines: string, keepAlive: boolean): string {
  const length = req.body !== undefined ? `content-length: ${Buffer.byteLength(req.body)}\r\n` : '';
  return `${req.method} ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\nconnection: ${keepAlive ? 'keep-alive' : 'close'}\r\n${lines}${length}\r\n`;
}

/** How long an idle connection is kept when the receiver did not say (arbitrary: shorter than the usual 5 s of servers). */
const IDLE_MS = 2_000;

/**
 * The connections of a run, by origin, without a limit: the checkouts of a
 * phase open parallel connections as the service's do (spec 6.9). With
 * `keepAlive` false every request goes on a connection of its own, closed
 * after it.
 */
export class Connections {
  private readonly idle = new Map<string, Conn[]>();
  private readonly open = new Set<Conn>();
  private readonly sessions = new Map<string, Buffer>();
  private readonly sweeper?: NodeJS.Timeout;
  /** The last head and short body read (see kept). */
  private readonly recent = ['', ''];
  private next = 0;

  constructor(readonly o: { rejectUnauthorized: boolean; keepAlive: boolean }) {
    if (o.keepAlive) (this.sweeper = setInterval(() => this.sweep(), IDLE_MS / 2)).unref();
  }

  /** A connection to `target` for one exchange: an idle one still fresh enough, else a new one. */
  take(target: Target): Conn {
    const list = this.idle.get(target.origin);
    for (let c = list?.pop(); c; c = list!.pop()) {
      if (performance.now() - c.idleSince < c.idleMs && !c.socket.destroyed) return c;
      c.socket.destroy();
    }
    const socket = target.https
      ? tls({ host: target.host, port: target.port, servername: isIP(target.host) ? undefined : target.host, rejectUnauthorized: this.o.rejectUnauthorized,
        ALPNProtocols: ['http/1.1'], session: this.sessions.get(target.origin) })
      : tcp({ host: target.host, port: target.port });
    socket.setNoDelay(true);
    if (target.https) socket.on('session', (s: Buffer) => this.sessions.set(target.origin, s));
    const c = new Conn(socket, this, target.origin);
    this.open.add(c);
    return c;
  }

  /** An exchange ended well on `c`: it waits for the next one, or is closed. */
  release(c: Conn, idleMs: number | undefined): void {
    if (!this.o.keepAlive || c.socket.destroyed) { c.socket.destroy(); return; }
    c.idleSince = performance.now();
    c.idleMs = idleMs ?? IDLE_MS;
    const list = this.idle.get(c.origin);
    if (list) list.push(c); else this.idle.set(c.origin, [c]);
  }

  forget(c: Conn): void {
    this.open.delete(c);
    const list = this.idle.get(c.origin);
    const i = list ? list.indexOf(c) : -1;
    if (i >= 0) list!.splice(i, 1);
  }

  /**
   * `s`, or an equal string read before: the heads and short bodies of a
   * receiver's answers repeat (a head's Date line changes once a second), and
   * a delivery keeps them for the run, so equal ones are kept once.
   */
  kept(s: string): string {
    if (s === this.recent[0]) return this.recent[0];
    if (s === this.recent[1]) return this.recent[1];
    this.recent[this.next] = s;
    this.next ^= 1;
    return s;
  }

  /** Closes every connection, idle or busy (an exchange still running ends as cut). */
  close(): void {
    clearInterval(this.sweeper);
    for (const c of this.open) c.socket.destroy();
    this.idle.clear();
  }

  private sweep(): void {
    const now = performance.now();
    for (const list of this.idle.values()) for (const c of list) if (now - c.idleSince >= c.idleMs) c.socket.destroy();
  }
}

/** One socket and the exchange it carries, if any. */
class Conn {
  call?: WireCall;
  idleSince = 0;
  idleMs = IDLE_MS;
  private error?: Error;

  constructor(readonly socket: Socket, private readonly pool: Connections, readonly origin: string) {
    socket.on('data', chunk => this.data(chunk));
    socket.on('end', () => this.ended());
    socket.on('error', e => { this.error ??= e; });
    socket.on('close', () => { this.ended(); this.pool.forget(this); });
  }

  /** Writes a request; `ascii` says whether its head is, so that head and body go as one UTF-8 string. */
  send(call: WireCall, head: string, body: string | undefined, ascii: boolean): void {
    this.call = call;
    this.error = undefined;
    // One write, one segment: a head beyond ASCII (a key sent as its UTF-8 bytes) goes as bytes, the body as UTF-8.
    if (body === undefined) this.socket.write(head, 'latin1');
    else if (ascii) this.socket.write(head + body);
    else { this.socket.cork(); this.socket.write(head, 'latin1'); this.socket.write(body); this.socket.uncork(); }
  }

  private data(chunk: Buffer): void {
    const call = this.call;
    // Bytes nobody asked for: the connection is out of step.
    if (!call) { this.socket.destroy(); return; }
    try {
      call.parser.push(chunk);
    } catch (e) {
      this.drop(e as Error);
      return;
    }
    if (call.limited) { this.drop(new Error('the answer body reached the read limit'), 'limit'); return; }
    if (!call.complete) return;
    this.call = undefined;
    call.finish(true);
    // A request not yet written out whole (the receiver answered early) leaves the connection unusable.
    if (call.parser.reusable() && this.socket.writableLength === 0) this.pool.release(this, call.parser.idleMs); else this.socket.destroy();
  }

  /** The connection ended (closed by the receiver, reset, refused, or destroyed here). */
  private ended(): void {
    const call = this.call;
    if (!call) return;
    this.call = undefined;
    const cutShort = call.parser.eof();
    if (call.complete) call.finish(true);
    else call.finish(false, cutShort ?? this.error ?? Object.assign(new Error('the connection ended before an answer'), { code: 'EOF' }));
    this.socket.destroy();
  }

  /** Ends the exchange now and closes the connection. */
  drop(reason: Error, cut?: ReadBody['cut']): void {
    const call = this.call;
    this.call = undefined;
    this.socket.destroy();
    call?.finish(false, reason, cut);
  }
}

/**
 * One exchange in flight. `done` settles once, when the answer is complete or
 * the exchange ended otherwise, and never rejects; `cut` ends it now (before
 * the status line it fails with the reason, after it the body is cut).
 */
export class WireCall implements AnswerEvents {
  readonly done: Promise<WireOutcome>;
  readonly outcome: WireOutcome = {};
  readonly parser = new AnswerParser(this);
  complete = false;
  limited = false;
  private settle!: (o: WireOutcome) => void;
  private settled = false;
  /** The body so far while it fits what is kept; past that the collector takes over. */
  private chunks?: Buffer[];
  private smallBytes = 0;
  private collector?: BodyCollector;
  private readonly conn?: Conn;

  constructor(private readonly pool: Connections, target: Target, req: WireRequest) {
    this.done = new Promise<WireOutcome>(r => { this.settle = r; });
    let lines: Lines;
    try {
      lines = headerLines(req.headers);
    } catch (e) {
      this.finish(false, e as Error);
      return;
    }
    try {
      this.conn = pool.take(target);
    } catch (e) {
      // What the socket refuses at once (a port out of range) ends the exchange like a refused connection.
      this.finish(false, e as Error);
      return;
    }
    this.conn.send(this, requestHead(target, req, lines.text, pool.o.keepAlive), req.body, lines.ascii);
  }

  /** Whether the final status line and headers are in. */
  get headed(): boolean { return this.outcome.headersAt !== undefined; }

  cut(reason: Error): void {
    if (this.settled) return;
    if (this.conn?.call === this) this.conn.drop(reason);
    else this.finish(false, reason);
  }

  head(status: number, head: string): void {
    this.outcome.status = status;
    this.outcome.head = this.pool.kept(head);
    this.outcome.headersAt = performance.now();
  }

  data(chunk: Buffer): boolean {
    if (!this.collector && this.smallBytes + chunk.length <= ANSWER_KEPT_BYTES) {
      (this.chunks ??= []).push(chunk);
      this.smallBytes += chunk.length;
      return true;
    }
    // Past the read limit the rest is not worth the time: the connection is dropped.
    if (this.collect().push(chunk)) return true;
    this.limited = true;
    return false;
  }

  private collect(): BodyCollector {
    if (this.collector) return this.collector;
    this.collector = new BodyCollector(ANSWER_KEPT_BYTES, ANSWER_READ_LIMIT_BYTES);
    for (const c of this.chunks ?? []) this.collector.push(c);
    this.chunks = undefined;
    return this.collector;
  }

  end(): void { this.complete = true; }

  finish(complete: boolean, error?: Error, cut?: ReadBody['cut']): void {
    if (this.settled) return;
    this.settled = true;
    if (this.outcome.status !== undefined) {
      if (complete && !this.collector) {
        this.outcome.small = this.pool.kept(!this.chunks ? '' : this.chunks.length === 1 ? this.chunks[0].toString('latin1')
          : Buffer.concat(this.chunks).toString('latin1'));
      }
      else this.outcome.answer = this.collect().finish(complete ? undefined : cut ?? 'deadline');
    }
    if (error) this.outcome.error = error;
    this.settle(this.outcome);
  }
}
