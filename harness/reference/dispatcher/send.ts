// One webhook request and nothing else (spec 4.3): POST the body, wait for a
// complete answer (status and the whole body) for at most the policy's response
// wait counted from sending, then abort. Retrying is the attempt loop's business.
//
// The times it reports are the moments things happened on the connection, as
// closely as this process can know them: sent when undici hands the request's
// bytes to the socket (after any connection set-up, which on a busy loop takes a
// turn or more), ended when undici has read the answer's last byte or given up.
// A receiver's clock sees the same two moments, give or take loopback latency.
import { Agent, request, type Dispatcher } from 'undici';
import type { Clock, Timer } from '../clock.ts';
import { afterAtLeast } from './timer.ts';
import type { AttemptOutcome } from './types.ts';

export interface SendResult {
  outcome: AttemptOutcome;
  /** The HTTP status when an answer came in time, whatever it was. */
  status?: number;
  error?: string;
  /** Spec ms when the request's bytes went to the socket; absent when it never got a connection. */
  sentAtMs?: number;
  /** Spec ms when the answer was complete, the request failed, or the wait ran out. */
  endedAtMs: number;
}

/** The connection pools the dispatcher sends through. */
export interface Connections {
  pick(url: string): Dispatcher;
  destroy(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Passed to undici as a request's `opaque` (its field for the caller's own data):
 * the interceptor below calls these the moment the request goes out and the
 * moment it is over.
 */
class Moments {
  constructor(readonly sent: () => void, readonly ended: () => void, readonly data: () => void) {}
}

/** Tells a request's Moments when undici writes it and when it ends, then hands every step on unchanged. */
const watchMoments: Dispatcher.DispatcherComposeInterceptor = dispatch => (opts, handler) => {
  const m = (opts as { opaque?: unknown }).opaque;
  if (!(m instanceof Moments)) return dispatch(opts, handler);
  return dispatch(opts, {
    // Called on a connected socket right before the request is written, in the same turn.
    onRequestStart: (c, context) => { m.sent(); handler.onRequestStart?.(c, context); },
    onRequestUpgrade: (c, status, headers, socket) => handler.onRequestUpgrade?.(c, status, headers, socket),
    onResponseStart: (c, status, headers, message) => { m.data(); handler.onResponseStart?.(c, status, headers, message); },
    onResponseData: (c, chunk) => { m.data(); handler.onResponseData?.(c, chunk); },
    onResponseEnd: (c, trailers) => { m.ended(); handler.onResponseEnd?.(c, trailers); },
    onResponseError: (c, e) => { m.ended(); handler.onResponseError?.(c, e); },
  });
};

/**
 * Pools with no connection limit per origin (undici's Pool with
 * `connections: null`), so checkouts to one receiver really go out in parallel
 * (spec 6.9). undici's own header and body timeouts are off: the 5 s limit is
 * measured on the reference clock by send() below. HTTPS to a loopback address
 * accepts a self-signed certificate (the harness's sink makes one for
 * --tls self-signed); every other HTTPS receiver needs a certificate Node trusts.
 */
export function createConnections(): Connections {
  // An idle connection is kept 2 s at most unless the receiver's Keep-Alive header says otherwise:
  // shorter than common server idle timeouts, so a reused socket is rarely closed under a request.
  const options = { connections: null, headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 2_000 };
  const strict = new Agent(options);
  const strictWatched = strict.compose(watchMoments);
  let loopbackTls: Agent | undefined, loopbackTlsWatched: Dispatcher | undefined;
  return {
    pick(url) {
      const u = new URL(url);
      if (u.protocol !== 'https:' || !LOOPBACK.has(u.hostname)) return strictWatched;
      loopbackTls ??= new Agent({ ...options, connect: { rejectUnauthorized: false } });
      return loopbackTlsWatched ??= loopbackTls.compose(watchMoments);
    },
    async destroy() {
      await Promise.all([strict, loopbackTls].map(a => a?.destroy().catch(() => {})));
    },
  };
}

/** How long send() waits for a complete answer (DeliveryPolicy: responseWaitMs, waitResetsOnData, waitPollMs). */
export interface ResponseWait { ms: number; resetsOnData: boolean; pollMs: number }

/** Thrown through when the dispatcher closes mid-request; the attempt is not logged. */
export class SendClosedError extends Error {}

/**
 * Sends one request; resolves with how it ended, never rejects except with
 * SendClosedError when `closed` fires first. The wait for the answer runs from
 * the moment the request went out, so a receiver gets all of it however long
 * the connection took; a connection that never comes is given up `wait.ms`
 * after the call.
 */
export async function send(connections: Connections, clock: Clock, url: string, headers: Record<string, string>, body: string,
  wait: ResponseWait, closed: AbortSignal): Promise<SendResult> {
  const controller = new AbortController();
  let timedOut = false, sentAtMs: number | undefined, endedAtMs: number | undefined;
  const giveUp = () => { timedOut = true; controller.abort(); };
  const waitFor = (): Timer | undefined => {
    if (!Number.isFinite(wait.ms)) return undefined;
    const now = clock.now();
    const due = wait.pollMs > 0 ? Math.ceil((now + wait.ms) / wait.pollMs) * wait.pollMs : now + wait.ms;
    return afterAtLeast(clock, due - now, giveUp);
  };
  let timer = waitFor();
  const moments = new Moments(() => {
    // A wait that ran out before the connection came aborts the request before it is written.
    if (timedOut) return;
    sentAtMs = clock.now();
    timer?.cancel();
    timer = waitFor();
  }, () => { endedAtMs ??= clock.now(); timer?.cancel(); }, () => {
    if (!wait.resetsOnData || timedOut || endedAtMs !== undefined) return;
    timer?.cancel();
    timer = waitFor();
  });
  const onClose = () => controller.abort();
  closed.addEventListener('abort', onClose, { once: true });
  const ended = () => ({ ...(sentAtMs !== undefined ? { sentAtMs } : {}), endedAtMs: endedAtMs ?? clock.now() });
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: connections.pick(url), signal: controller.signal, opaque: moments });
    // The answer is complete only once its body has arrived (the 5 s cover the whole answer).
    await res.body.arrayBuffer();
    return { outcome: res.statusCode === 200 ? 'delivered' : `http-${res.statusCode}`, status: res.statusCode, ...ended() };
  } catch (e) {
    if (closed.aborted) throw new SendClosedError('dispatcher closed');
    if (timedOut) return { outcome: 'timeout', ...ended() };
    const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
    return { outcome: 'error', error: err.cause?.code ?? err.code ?? err.cause?.message ?? err.message, ...ended() };
  } finally {
    timer?.cancel();
    closed.removeEventListener('abort', onClose);
  }
}
