// One HTTP exchange on undici's dispatch interface, the layer its request()
// is built on: the status line and headers are seen the moment they are
// parsed (that is when an answer is timed), the body goes chunk by chunk into
// a capped collector, and the caller may cut the exchange at any point. No
// stream objects are made per request, which is most of what request() costs;
// the certify benchmark (bench/certify.bench.ts) measures this path.
import type { Dispatcher } from 'undici';
import { BodyCollector, type ReadBody } from '../http/body.ts';

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
export interface Target { origin: string; path: string }

export function targetOf(url: string): Target {
  const u = new URL(url);
  return { origin: u.origin, path: u.pathname + u.search };
}

export interface WireOutcome {
  /** The final status (1xx interim answers are skipped); undefined when none came. */
  status?: number;
  /** The answer's headers as undici parsed them. */
  headers?: Record<string, string | string[] | undefined>;
  /** performance.now() when the status line and headers were parsed. */
  headersAt?: number;
  /** The body as far as it was read (its first ANSWER_KEPT_BYTES kept); set whenever a status came. */
  answer?: ReadBody;
  /** Why the exchange ended without a status, or why its body broke off. */
  error?: Error;
}

/**
 * One exchange in flight. `done` settles once, when the answer is complete or
 * the exchange ended otherwise, and never rejects; `cut` ends it now (before
 * the status line it fails with the reason, after it the body is cut).
 */
export class WireCall implements Dispatcher.DispatchHandler {
  readonly done: Promise<WireOutcome>;
  readonly outcome: WireOutcome = {};
  private settle!: (o: WireOutcome) => void;
  private settled = false;
  private controller?: Dispatcher.DispatchController;
  private pending?: Error;
  private readonly collector = new BodyCollector(ANSWER_KEPT_BYTES, ANSWER_READ_LIMIT_BYTES);
  private cutAt?: ReadBody['cut'];

  constructor(dispatcher: Dispatcher, target: Target, req: WireRequest) {
    this.done = new Promise<WireOutcome>(r => { this.settle = r; });
    try {
      dispatcher.dispatch({ origin: target.origin, path: target.path, method: req.method as Dispatcher.HttpMethod, headers: req.headers, body: req.body ?? null }, this);
    } catch (e) {
      this.finish(false, e as Error);
    }
  }

  /** Whether the final status line and headers are in. */
  get headed(): boolean { return this.outcome.headersAt !== undefined; }

  cut(reason: Error): void {
    if (this.settled) return;
    // Before undici hands over its controller (still connecting) the outcome is settled here;
    // the controller aborts the request as soon as it comes.
    if (this.controller) this.controller.abort(reason);
    else { this.pending = reason; this.finish(false, reason); }
  }

  onRequestStart(c: Dispatcher.DispatchController): void {
    this.controller = c;
    if (this.pending) c.abort(this.pending);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    if (status < 200) return;
    this.outcome.status = status;
    this.outcome.headers = headers;
    this.outcome.headersAt = performance.now();
  }

  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer): void {
    // Past the read limit the rest is not worth the time: the connection is dropped.
    if (!this.collector.push(chunk) && !this.cutAt) { this.cutAt = 'limit'; c.abort(new Error('the answer body reached the read limit')); }
  }
  onResponseEnd(): void { this.finish(true); }
  onResponseError(_c: Dispatcher.DispatchController, error: Error): void { this.finish(false, error); }

  private finish(complete: boolean, error?: Error): void {
    if (this.settled) return;
    this.settled = true;
    if (this.outcome.status !== undefined) this.outcome.answer = this.collector.finish(complete ? undefined : this.cutAt ?? 'deadline');
    if (error) this.outcome.error = error;
    this.settle(this.outcome);
  }
}

export function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
