// A delivery as certify-receiver made it: what the checks judge, and the
// evidence the report shows of it, built only when a check asks for it.
import { curlLine } from '../http/exchange.ts';
import type { HttpEvidence } from '../results/model.ts';
import type { Redactor } from '../report/redact.ts';
import { evidenceBody, type ReadBody } from '../http/body.ts';
import { headerRecord } from './http1.ts';
import { smallAnswer, type WireOutcome, type WireRequest } from './wire.ts';

/** What a delivery was for: body kinds are measured separately by receiver.latency. */
export type DeliveryKind = 'normal' | 'batch' | 'older' | 'burst' | 'auth' | 'garbage' | 'state';

export interface Delivery {
  kind: DeliveryKind;
  label: string;
  /** The answer's status code; undefined when no answer came within the wait. */
  status?: number;
  /** Why no answer came: refused, reset, no answer within the wait, or why it was not sent. */
  error?: string;
  /** No status line came within the wait. */
  timedOut: boolean;
  /** Set when the delivery was never sent (the time budget was spent, or its verdict was settled): why. */
  notSent?: string;
  /** For a delivery not sent: what the user can do to have it sent. */
  remedy?: string;
  /**
   * Real ms from sending to the answer's status line and headers (to giving up
   * when none came). When the answer was seen just as this process came out
   * of a stall of its own, that stall is taken out (`stallMs`): the answer
   * may have come at any moment of it, so `ms` is the receiver's best case.
   */
  ms: number;
  /** The stall taken out of `ms`: the answer came between `ms` and `ms + stallMs`. */
  stallMs?: number;
  /** Bytes of the answer's body read (the report keeps only the first few kilobytes). */
  answerBytes?: number;
  evidence: HttpEvidence;
  json?: unknown;
}

// Request bodies and curl lines past this size are cut in the evidence (a 2 MB
// body would make the report unreadable); the label says how large the body was.
const MAX_EVIDENCE_CHARS = 4_000;

export interface What {
  kind: DeliveryKind;
  label: string;
  /** The shell expression the curl line gives for a key that must not be shown (the registered key, or one derived from it). */
  curlKey?: string;
}

/**
 * A delivery as the transport made it. The evidence is built (curl line,
 * redaction) only when something reads it: most deliveries pass and are never
 * shown, and building it for each would cost more than sending it.
 */
export class Sent implements Delivery {
  readonly kind: DeliveryKind;
  readonly label: string;
  readonly status?: number;
  readonly error?: string;
  readonly timedOut: boolean;
  readonly notSent?: string;
  readonly remedy?: string;
  readonly ms: number;
  readonly stallMs?: number;
  json?: unknown;
  private readonly curlKey?: string;
  private readonly startedAt: number;
  private readonly durationMs: number;
  /** The answer's status line and headers as they came: parsed only for the evidence. */
  private readonly head?: string;
  /** The answer's body as the wire read it (WireOutcome's `small` or `answer`); `read` is its ReadBody once asked for. */
  private readonly small?: string;
  private read?: ReadBody;
  private shown?: HttpEvidence;

  constructor(private readonly redactor: Redactor, private readonly req: WireRequest, what: What,
    m: { ms: number; stallMs?: number; startedAt: number; durationMs: number; timedOut: boolean; notSent?: string; remedy?: string; error?: string;
      outcome?: WireOutcome }) {
    this.kind = what.kind;
    this.label = what.label;
    this.curlKey = what.curlKey;
    this.ms = m.ms;
    this.stallMs = m.stallMs;
    this.startedAt = m.startedAt;
    this.durationMs = m.durationMs;
    this.timedOut = m.timedOut;
    this.notSent = m.notSent;
    this.remedy = m.remedy;
    this.error = m.error;
    if (m.outcome?.status !== undefined) {
      this.status = m.outcome.status;
      this.head = m.outcome.head;
      this.small = m.outcome.small;
      this.read = m.outcome.answer;
    }
  }

  /** Bytes of the answer's body read (the report keeps only the first few kilobytes). */
  get answerBytes(): number | undefined { return this.small?.length ?? this.read?.bytes; }

  /** The answer's body as read, when a status came. */
  get answer(): ReadBody | undefined { return this.read ??= this.small !== undefined ? smallAnswer(this.small) : undefined; }

  /** The exchange as the report shows it: redacted, request body and curl line cut when large. */
  get evidence(): HttpEvidence {
    // Redaction keeps an item's kind: an http item stays one.
    return this.shown ??= this.redactor.evidence({
      kind: 'http', label: this.label, request: requestShown(this.req),
      ...(this.status !== undefined
        ? { response: { status: this.status, headers: this.head ? headerRecord(this.head) : {},
          ...(this.answer ? evidenceBody(this.answer, answerJson(this.answer)) : {}) } }
        : { error: this.error ?? 'no answer' }),
      startedAt: new Date(this.startedAt).toISOString(), durationMs: this.durationMs,
      curl: curlShown(this.req, this.redactor, this.curlKey),
    }) as HttpEvidence;
  }
}

function requestShown(req: WireRequest): HttpEvidence['request'] {
  const body = req.body === undefined ? undefined
    : req.body.length > MAX_EVIDENCE_CHARS ? `${req.body.slice(0, 200)}… (${req.body.length} characters in all; cut here)` : parseMaybe(req.body);
  return { method: req.method, url: req.url, headers: { ...req.headers }, ...(body !== undefined ? { body } : {}) };
}

/**
 * A curl line that repeats the request. The registered key (and a key made
 * from it) is written as a shell expression of the variable a reader sets,
 * whatever its length; the random wrong keys of receiver.auth are shown as sent.
 */
function curlShown(req: WireRequest, redactor: Redactor, curlKey: string | undefined): string {
  const { 'api-key': sentKey, ...rest } = req.headers;
  let curl = curlLine(req.method, req.url, rest, req.body, redactor);
  if (sentKey !== undefined) curl += curlKey !== undefined ? ` -H "api-key: ${curlKey}"` : ` -H '${`api-key: ${sentKey}`.replace(/'/g, `'\\''`)}'`;
  if (req.body !== undefined && req.body.length > MAX_EVIDENCE_CHARS)
    curl = curl.slice(0, 600) + ` … (the body is ${req.body.length} characters; this line is cut)`;
  return curl;
}

/** The parsed answer when it was kept whole and is JSON, else undefined. */
export function answerJson(a: ReadBody): unknown {
  // The usual plain-text acknowledgement ("ok") is not JSON: no exception is paid for it.
  if (!a.whole || !/^\s*[[{"\d-]|^\s*(true|false|null)\s*$/.test(a.text)) return undefined;
  try { return JSON.parse(a.text); } catch { return undefined; }
}

function parseMaybe(text: string): unknown {
  if (!text) return undefined;
  try { return JSON.parse(text); } catch { return text; }
}

export function describeError(e: Error | undefined): string {
  if (!e) return 'no answer';
  const code = (e as NodeJS.ErrnoException).code ?? ((e.cause as NodeJS.ErrnoException | undefined)?.code) ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused (the receiver is not listening any more)';
  if (code === 'ECONNRESET' || code === 'EOF' || code === 'EPIPE') return `the receiver closed the connection without an answer (${code})`;
  return `${code ? code + ': ' : ''}${e.message}`;
}
