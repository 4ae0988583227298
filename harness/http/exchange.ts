// One HTTP exchange with its evidence: the suites, the pre-flight, the control
// API driver and the sender call targets through this, so every request the
// harness makes can be shown and repeated, and is bounded: a total deadline
// over connect, headers and body together (undici's own timeouts measure the
// wait for headers and the idle time between body chunks, so a body sent a
// byte at a time never ends), and a body kept in bounded memory (body.ts),
// whatever the target sends.
import { finished, type Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { HttpEvidence } from '../results/model.ts';
import { Redactor } from '../report/redact.ts';
import { BodyCollector, READ_LIMIT_BYTES, WHOLE_BODY_BYTES, describeBody, evidenceBody, type ReadBody } from './body.ts';
import { curlLine } from './curl.ts';
import { redactUrlUserinfo, splitUserinfo } from './url.ts';

export { curlLine } from './curl.ts';

/** Default wait for an answer's headers (arbitrary: far above any answer a check waits for, far below a CI timeout). */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface ExchangeRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a URLSearchParams as a form; a string as is. */
  body?: unknown;
  /** Real ms from the request going out to the answer's headers, and the longest pause inside its body (default 30 s). */
  timeoutMs?: number;
  /**
   * Real ms the whole exchange may take, from the call to the body's end
   * (default twice timeoutMs: the headers' wait as undici counts it starts
   * only when the request goes out, after any wait for a connection).
   */
  deadlineMs?: number;
  dispatcher?: Dispatcher;
  label?: string;
  /** Bytes of the answer kept whole and parsed (default WHOLE_BODY_BYTES); at most READ_LIMIT_BYTES are read in any case. */
  wholeBytes?: number;
}

export interface ExchangeResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text: whole up to the request's wholeBytes (default 1 MiB), else its first wholeBytes (see `body`). */
  text: string;
  /** The parsed body when it was whole and JSON, else undefined. */
  json: unknown;
  /** How much of the body was read and kept: length, sha256, whether it is whole or was cut. */
  body: Omit<ReadBody, 'text'>;
}

export interface Exchange {
  response?: ExchangeResponse;
  error?: Error;
  evidence: HttpEvidence;
}

/** The exchange's total deadline passed before the answer was complete. */
export class DeadlineError extends Error {
  // Matches /TIMEOUT/ like undici's own timeout codes, so callers treat both alike.
  readonly code = 'DEADLINE_TIMEOUT';
  constructor(readonly ms: number, readonly partial?: { status: number; body: string }) {
    super(`no complete answer within ${ms.toFixed(0)} ms${partial ? ` (status ${partial.status} came, then ${partial.body} of the body)` : ''}`);
    this.name = 'DeadlineError';
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function encode(req: ExchangeRequest): { body?: string; headers: Record<string, string> } {
  const headers = { ...(req.headers ?? {}) };
  const has = (n: string) => Object.keys(headers).some(k => k.toLowerCase() === n);
  if (req.body === undefined) return { headers };
  if (req.body instanceof URLSearchParams) {
    if (!has('content-type')) headers['content-type'] = 'application/x-www-form-urlencoded';
    return { body: req.body.toString(), headers };
  }
  if (typeof req.body === 'string') return { body: req.body, headers };
  if (!has('content-type')) headers['content-type'] = 'application/json';
  return { body: JSON.stringify(req.body), headers };
}

/** Sends one request and returns the response (or the error) with redacted evidence. Never throws for HTTP or network failures. */
export async function exchange(req: ExchangeRequest, redactor: Redactor): Promise<Exchange> {
  const { body, headers } = encode(req);
  // Credentials in the URL (https://user:pass@host) travel as Basic authorization, and never into the evidence.
  const { url, authorization } = splitUserinfo(req.url);
  const sent = authorization && !Object.keys(headers).some(k => k.toLowerCase() === 'authorization') ? { ...headers, authorization } : headers;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const shownUrl = redactUrlUserinfo(req.url);
  const evidenceRequest = {
    method: req.method, url: shownUrl, headers: { ...headers },
    ...(body !== undefined ? { body: parseMaybe(body) } : {}),
  };
  const curl = curlLine(req.method, shownUrl, headers, body, redactor);
  const timeout = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadlineMs = req.deadlineMs ?? 2 * timeout;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  let partial: { status: number; collector: BodyCollector } | undefined;
  const base = { kind: 'http' as const, ...(req.label ? { label: req.label } : {}), request: evidenceRequest, startedAt, curl };
  try {
    const res = await request(url, {
      method: req.method as Dispatcher.HttpMethod, headers: sent, body,
      headersTimeout: timeout, bodyTimeout: timeout, dispatcher: req.dispatcher, signal: deadline.signal,
    });
    partial = { status: res.statusCode, collector: new BodyCollector(Math.min(req.wholeBytes ?? WHOLE_BODY_BYTES, READ_LIMIT_BYTES)) };
    const cut = await collect(res.body, partial.collector);
    const { text, ...read } = partial.collector.finish(cut);
    const json = read.whole ? parseMaybe(text, true) : undefined;
    const response: ExchangeResponse = { status: res.statusCode, headers: flatHeaders(res.headers), text, json, body: read };
    const evidence = redactor.evidence({
      ...base,
      response: { status: response.status, headers: response.headers, ...evidenceBody({ text, ...read }, json) },
      durationMs: performance.now() - started,
    }) as HttpEvidence;
    return { response, evidence };
  } catch (e) {
    const error = deadline.signal.aborted
      ? new DeadlineError(deadlineMs, partial && { status: partial.status, body: describeBody({ bytes: partial.collector.bytes }) })
      : e as Error;
    const code = (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
    const evidence = redactor.evidence({
      ...base, error: `${code ? code + ': ' : ''}${error.message}`, durationMs: performance.now() - started,
    }) as HttpEvidence;
    return { error, evidence };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a body into `collector` until it ends ('limit' when the read limit stopped it, and the body is destroyed);
 * rejects with the body's error (the deadline's abort among them). Read by its 'data' events: an async iterator
 * costs a promise per chunk, and this runs for every exchange of a run.
 */
function collect(body: Readable, collector: BodyCollector): Promise<ReadBody['cut']> {
  return new Promise((resolve, reject) => {
    // As the iterator ends: at the body's end, at its error, or at a close before its end ("Premature close").
    finished(body, e => (e ? reject(e) : resolve(undefined)));
    body.on('data', (chunk: Buffer) => {
      if (collector.push(chunk)) return;
      // Destroyed before its end, the body emits an error of its own: the promise has settled by then.
      body.destroy();
      resolve('limit');
    });
  });
}

function parseMaybe(text: string, strict = false): unknown {
  if (!text) return undefined;
  try { return JSON.parse(text); } catch { return strict ? undefined : text; }
}
