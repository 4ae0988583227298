// `sink --forward-to URL`: each delivery attempt is passed on to the merchant's
// own receiver as it came (method, headers but the hop-by-hop ones, body), and
// the receiver's answer (status, content-type, body) is what the sender gets,
// as `stripe listen --forward-to` does. The sink still records and judges every
// attempt; a receiver that cannot be reached, or does not answer within the
// sender's own wait (spec 6.6), makes the sink answer 502 with the reason.
import { Agent } from 'undici';
import { exchange } from '../http/exchange.ts';
import { Redactor } from '../report/redact.ts';

interface ForwardRequest { method: string; headers: Record<string, string | string[] | undefined>; body: string }
export interface ForwardAnswer { status: number; contentType?: string; body: string }
export type Forward = (req: ForwardRequest) => Promise<ForwardAnswer>;

/** Headers of one connection, not of the request (RFC 9110 7.6.1), and those the new request sets itself. */
const NOT_PASSED = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'expect',
  'content-length']);

/** Of the receiver's answer, the sender gets at most this much body (arbitrary: a receiver's answer is a word or a small JSON). */
const ANSWER_CHARS = 64 * 1024;

/** A forwarder to `url`; `waitMs` is how long the sender waits for an answer (5 spec s), after which the sink answers 502. */
export function forwarder(url: string, waitMs: number): { forward: Forward; close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { timeout: waitMs }, headersTimeout: waitMs, bodyTimeout: waitMs });
  // Nothing of the exchange is kept as evidence: the redactor has nothing to hide.
  const redactor = new Redactor();
  const forward: Forward = async req => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !NOT_PASSED.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const ex = await exchange({ method: req.method, url, headers, body: req.body, dispatcher, timeoutMs: waitMs, deadlineMs: waitMs }, redactor);
    if (!ex.response) {
      const why = ex.error instanceof Error ? ex.error.message : String(ex.error ?? 'no answer');
      return { status: 502, contentType: 'text/plain', body: `the sink could not pass this delivery on to ${url}: ${why}` };
    }
    const { status, headers: h, text } = ex.response;
    return { status, ...(h['content-type'] ? { contentType: h['content-type'] } : {}), body: text.slice(0, ANSWER_CHARS) };
  };
  return { forward, close: () => dispatcher.close() };
}
