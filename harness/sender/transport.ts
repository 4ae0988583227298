// Sends the deliveries of a certification run and times each one. One undici
// Agent for the whole run so bursts open parallel connections the way the
// service's sender does (spec 6.9), and every exchange is kept for
// receiver.latency. Latency is performance.now() around the complete exchange
// (request written, answer and its body read).
import { Agent } from 'undici';
import { exchange } from '../http/exchange.ts';
import type { HttpEvidence } from '../report/model.ts';
import type { Redactor } from '../report/redact.ts';
import { timing, type SenderOptions, type Timing } from './options.ts';

/** What a delivery was for: body kinds are measured separately by receiver.latency. */
export type DeliveryKind = 'normal' | 'batch' | 'older' | 'burst' | 'auth' | 'garbage' | 'state';

export interface Delivery {
  kind: DeliveryKind;
  label: string;
  /** The answer's status code; undefined when no complete answer came. */
  status?: number;
  /** Why no answer came: refused, reset, no answer within the wait. */
  error?: string;
  /** No answer came within the sender's wait (three times the service's 5 s). */
  timedOut: boolean;
  /** Real ms for the complete exchange. */
  ms: number;
  evidence: HttpEvidence;
  json?: unknown;
}

export interface PostOptions {
  kind: DeliveryKind;
  label: string;
  /** The api-key header: the registered key by default, null to leave the header out. */
  apiKey?: string | null;
  /** A raw body sent as is (garbage); otherwise `body` is sent as JSON. */
  raw?: string;
  contentType?: string;
}

// Bodies and curl lines past this size are cut in the evidence (a 2 MB body
// would make the report unreadable); the label says how large the body was.
const MAX_EVIDENCE_CHARS = 4_000;

export class Transport {
  readonly timing: Timing;
  readonly log: Delivery[] = [];
  private readonly agent: Agent;
  private sent = 0;
  private lastAnswered?: Delivery;
  private down?: { after: Delivery; refused: Delivery };

  constructor(private readonly opts: SenderOptions, private readonly redactor: Redactor,
    private readonly onSent: (sent: number) => void = () => {}) {
    this.timing = timing(opts.timeScale);
    this.agent = new Agent({ connect: { rejectUnauthorized: !opts.insecure }, keepAliveTimeout: 2_000 });
  }

  get count(): number { return this.sent; }

  /**
   * Set when a connection failed (refused, or closed without an answer) after
   * the receiver had answered, and nothing was answered since: the receiver
   * may have stopped after `after`. The caller confirms with a fresh connection.
   */
  get broken(): { after: Delivery; refused: Delivery } | undefined { return this.down; }

  /** POSTs one delivery to the receiver; never throws for HTTP or network failures. */
  async post(body: unknown, o: PostOptions): Promise<Delivery> {
    const headers: Record<string, string> = {};
    if (o.contentType) headers['content-type'] = o.contentType;
    const key = o.apiKey === undefined ? this.opts.apiKey : o.apiKey;
    if (key !== null) headers['api-key'] = key;
    return this.send({ method: 'POST', url: this.opts.url, headers, body: o.raw ?? body }, o.kind, o.label, false);
  }

  /** GETs a URL (the state URL); not counted as a delivery. */
  async get(url: string, label: string): Promise<Delivery> {
    return this.send({ method: 'GET', url, headers: { accept: 'application/json' } }, 'state', label, true);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => {});
  }

  private async send(req: { method: string; url: string; headers: Record<string, string>; body?: unknown }, kind: DeliveryKind, label: string, aside: boolean): Promise<Delivery> {
    const started = performance.now();
    const x = await exchange({ ...req, label, timeoutMs: this.timing.waitMs, dispatcher: this.agent }, this.redactor);
    const ms = performance.now() - started;
    const code = (x.error as NodeJS.ErrnoException | undefined)?.code ?? '';
    const d: Delivery = {
      kind, label, ms, evidence: trimEvidence(x.evidence), timedOut: !x.response && /TIMEOUT/.test(code),
      ...(x.response ? { status: x.response.status, json: x.response.json } : { error: describeError(x.error, this.timing.waitMs) }),
    };
    if (d.status !== undefined) { this.lastAnswered = d; this.down = undefined; }
    else if (this.lastAnswered && !this.down && !d.timedOut) this.down = { after: this.lastAnswered, refused: d };
    if (!aside) {
      this.log.push(d);
      this.onSent(++this.sent);
    }
    return d;
  }
}

function describeError(e: Error | undefined, waitMs: number): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? ((e?.cause as NodeJS.ErrnoException | undefined)?.code) ?? '';
  if (/TIMEOUT/.test(code)) return `no answer within ${waitMs.toFixed(0)} ms`;
  if (code === 'ECONNREFUSED') return 'connection refused (the receiver is not listening any more)';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return `the receiver closed the connection without an answer (${code})`;
  return `${code ? code + ': ' : ''}${e?.message ?? 'unknown error'}`;
}

function trimEvidence(ev: HttpEvidence): HttpEvidence {
  const body = ev.request.body;
  const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
  if (text.length <= MAX_EVIDENCE_CHARS) return ev;
  const cut = `${text.slice(0, 200)}… (${text.length} characters in all; cut here)`;
  return {
    ...ev,
    request: { ...ev.request, body: cut },
    ...(ev.curl ? { curl: ev.curl.slice(0, 600) + ` … (the body is ${text.length} characters; this line is cut)` } : {}),
  };
}
