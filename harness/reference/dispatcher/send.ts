// One webhook request and nothing else (spec 4.3): POST the body, wait for a
// complete answer (status and the whole body) for at most the policy's response
// wait counted from sending, then abort. Retrying is the attempt loop's business.
import { Agent, request } from 'undici';
import type { Clock } from '../clock.ts';
import { afterAtLeast } from './timer.ts';
import type { AttemptOutcome } from './types.ts';

export interface SendResult {
  outcome: AttemptOutcome;
  /** The HTTP status when an answer came in time, whatever it was. */
  status?: number;
  error?: string;
}

/** The connection pools the dispatcher sends through. */
export interface Connections {
  pick(url: string): Agent;
  destroy(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

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
  let loopbackTls: Agent | undefined;
  return {
    pick(url) {
      const u = new URL(url);
      if (u.protocol !== 'https:' || !LOOPBACK.has(u.hostname)) return strict;
      return loopbackTls ??= new Agent({ ...options, connect: { rejectUnauthorized: false } });
    },
    async destroy() {
      await Promise.all([strict, loopbackTls].map(a => a?.destroy().catch(() => {})));
    },
  };
}

/** Thrown through when the dispatcher closes mid-request; the attempt is not logged. */
export class SendClosedError extends Error {}

/**
 * Sends one request; resolves with how it ended, never rejects except with
 * SendClosedError when `closed` fires first.
 */
export async function send(connections: Connections, clock: Clock, url: string, headers: Record<string, string>, body: string,
  waitMs: number, closed: AbortSignal): Promise<SendResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = Number.isFinite(waitMs) ? afterAtLeast(clock, waitMs, () => { timedOut = true; controller.abort(); }) : undefined;
  const onClose = () => controller.abort();
  closed.addEventListener('abort', onClose, { once: true });
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: connections.pick(url), signal: controller.signal });
    // The answer is complete only once its body has arrived (the 5 s cover the whole answer).
    await res.body.arrayBuffer();
    return { outcome: res.statusCode === 200 ? 'delivered' : `http-${res.statusCode}`, status: res.statusCode };
  } catch (e) {
    if (closed.aborted) throw new SendClosedError('dispatcher closed');
    if (timedOut) return { outcome: 'timeout' };
    const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
    return { outcome: 'error', error: err.cause?.code ?? err.code ?? err.cause?.message ?? err.message };
  } finally {
    timer?.cancel();
    closed.removeEventListener('abort', onClose);
  }
}
