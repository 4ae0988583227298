// One HTTP exchange with its evidence: the suites and the sender call targets
// through this, so every request a check makes can be shown and repeated.
import { request, type Dispatcher } from 'undici';
import type { HttpEvidence } from '../report/model.ts';
import { Redactor } from '../report/redact.ts';

export interface ExchangeRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a URLSearchParams as a form; a string as is. */
  body?: unknown;
  /** Real milliseconds before the exchange is abandoned (default 30 s). */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  label?: string;
}

export interface ExchangeResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it was JSON, else undefined. */
  json: unknown;
}

export interface Exchange {
  response?: ExchangeResponse;
  error?: Error;
  evidence: HttpEvidence;
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

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A curl line that repeats the request; secrets become "$PIS_..." placeholders (double-quoted so the shell expands them). */
export function curlLine(method: string, url: string, headers: Record<string, string>, body: string | undefined, redactor: Redactor): string {
  const q = (s: string) => {
    const p = redactor.placeholders(s);
    return p === s ? shellQuote(s) : `"${p.replace(/["\\`]/g, '\\$&')}"`;
  };
  const parts = ['curl -sS', '-X', method, q(url)];
  for (const [k, v] of Object.entries(headers)) parts.push('-H', q(`${k}: ${v}`));
  if (body !== undefined) parts.push('--data-raw', q(body));
  return parts.join(' ');
}

/** Sends one request and returns the response (or the error) with redacted evidence. Never throws for HTTP or network failures. */
export async function exchange(req: ExchangeRequest, redactor: Redactor): Promise<Exchange> {
  const { body, headers } = encode(req);
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const evidenceRequest = {
    method: req.method, url: req.url, headers: { ...headers },
    ...(body !== undefined ? { body: parseMaybe(body) } : {}),
  };
  const curl = curlLine(req.method, req.url, headers, body, redactor);
  const timeout = req.timeoutMs ?? 30_000;
  try {
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod, headers, body,
      headersTimeout: timeout, bodyTimeout: timeout, dispatcher: req.dispatcher,
    });
    const text = await res.body.text();
    const response: ExchangeResponse = { status: res.statusCode, headers: flatHeaders(res.headers), text, json: parseMaybe(text, true) };
    const evidence: HttpEvidence = redactor.value({
      kind: 'http', ...(req.label ? { label: req.label } : {}), request: evidenceRequest,
      response: { status: response.status, headers: response.headers, body: response.json ?? (text || undefined) },
      startedAt, durationMs: performance.now() - started, curl,
    });
    return { response, evidence };
  } catch (e) {
    const error = e as Error;
    const code = (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
    const evidence: HttpEvidence = redactor.value({
      kind: 'http', ...(req.label ? { label: req.label } : {}), request: evidenceRequest,
      error: `${code ? code + ': ' : ''}${error.message}`, startedAt, durationMs: performance.now() - started, curl,
    });
    return { error, evidence };
  }
}

function parseMaybe(text: string, strict = false): unknown {
  if (!text) return undefined;
  try { return JSON.parse(text); } catch { return strict ? undefined : text; }
}
