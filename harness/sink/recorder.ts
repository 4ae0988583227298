// The sink's record of every attempt. The hot path (answering) only pushes raw
// facts: monotonic times in nanoseconds, bounded headers, the body's reader.
// Once a body ends, its facts are taken (analysis/facts.ts) and only a bounded
// prefix stays. Turning raw attempts into DeliveryAttempt (strings,
// milliseconds, checkout ids) happens when the run asks for them.
import { createHash } from 'node:crypto';
import type { ApiKeyCheck } from '../results/model.ts';
import { REDACTED } from '../report/redact.ts';
import type { BodyFacts, RecordedAttempt } from './checks/facts.ts';
import type { BodyReader } from './body.ts';
import type { Probe } from './probes.ts';

export { MAX_BODY_BYTES,  } from './body.ts';

/** Arbitrary bounds on the headers kept per attempt: a sender's are a few hundred bytes; Node accepts 16 KiB. */
const MAX_HEADER_VALUE = 512;
const MAX_HEADER_TEXT = 4096;
const MAX_PATH = 200;

export interface RawAttempt {
  seq: number;
  /** The plan key: the path slot (/hooks/<key>), the checkout id found in the body, or '' while unknown. */
  route: string;
  arrivedNs: bigint;
  /** When its connection was accepted, for the first request of a connection: its sender's clock ran before that. */
  connectedNs?: bigint;
  method: string;
  path: string;
  headers: Record<string, string>;
  headersOmitted: number;
  /** The api-key header's value until it has been judged; never kept after. */
  keyValue?: string;
  key?: ApiKeyCheck;
  reader?: BodyReader;
  /** The request's body ended (its last byte came). */
  ended?: boolean;
  /** Listeners were told about the finished attempt. */
  settled?: boolean;
  /** The kept body text, its length and hash, once the body ended or was cut off. */
  kept?: { text: string; bytes: number; sha256?: string };
  facts?: BodyFacts;
  probe: Probe;
  answer?: number | 'reset' | 'none';
  answeredNs?: bigint;
  closedNs?: bigint;
  /** The finished attempt as DeliveryAttempt, once it can no longer change. */
  done?: RecordedAttempt;
}

/** The api-key header against the registered keys; a wrong key is told by its length and a short hash, never its value. */
export function judgeKey(value: string | undefined, registered: Iterable<string | undefined>): ApiKeyCheck {
  if (value === undefined) return { verdict: 'missing' };
  for (const k of registered) if (k !== undefined && k === value) return { verdict: 'registered' };
  return { verdict: 'other', length: value.length, sha256: createHash('sha256').update(value).digest('hex').slice(0, 8) };
}

/** Node's headers with repeated ones joined, names lower case, values and total size bounded, the api-key taken out. */
function boundedHeaders(raw: Record<string, string | string[] | undefined>): { headers: Record<string, string>; omitted: number; key?: string } {
  const headers: Record<string, string> = {};
  let size = 0, omitted = 0, key: string | undefined;
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    if (k === 'api-key') { key = value; headers[k] = REDACTED; continue; }
    const kept = value.length > MAX_HEADER_VALUE ? `${value.slice(0, MAX_HEADER_VALUE)}…` : value;
    if (size + k.length + kept.length > MAX_HEADER_TEXT) { omitted++; continue; }
    size += k.length + kept.length;
    headers[k] = kept;
  }
  return { headers, omitted, ...(key !== undefined ? { key } : {}) };
}

export class Recorder {
  readonly t0 = process.hrtime.bigint();
  /** By seq, oldest first; an attempt let go of (forget) leaves the record, its seq stays used. */
  private readonly raw = new Map<number, RawAttempt>();
  private seq = 0;

  /** Nanoseconds since the sink started (monotonic). */
  nowNs(): bigint { return process.hrtime.bigint() - this.t0; }
  /** Real milliseconds since the sink started. */
  nowMs(): number { return Number(this.nowNs()) / 1e6; }

  start(method: string, path: string, rawHeaders: Record<string, string | string[] | undefined>): RawAttempt {
    const { headers, omitted, key } = boundedHeaders(rawHeaders);
    const a: RawAttempt = {
      seq: ++this.seq, route: '', arrivedNs: this.nowNs(), method, path: path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path,
      headers, headersOmitted: omitted, probe: 'ok', ...(key !== undefined ? { keyValue: key } : {}),
    };
    this.raw.set(a.seq, a);
    return a;
  }

  /** Lets go of a finished attempt: it is counted (count) but no longer kept. */
  forget(a: RawAttempt): void { this.raw.delete(a.seq); }

  /** Attempts begun so far, kept or not. */
  get count(): number { return this.seq; }

  /**
   * Every attempt so far, oldest first, as the report model has them (real ms
   * since the sink started). `checkoutOf` names the checkout of a route: the
   * control API's id may come back after the checkout's first webhook arrived.
   * `lagAround` bounds how late the sink stamped a time (lag.ts).
   */
  attempts(checkoutOf: (route: string) => string = r => r, lagAround: (ms: number) => number = () => 0): RecordedAttempt[] {
    return [...this.raw.values()].map(a => this.delivery(a, checkoutOf, lagAround));
  }

  /** One attempt as the report model has it (see attempts()). */
  delivery(a: RawAttempt, checkoutOf: (route: string) => string = r => r, lagAround: (ms: number) => number = () => 0): RecordedAttempt {
    const id = checkoutOf(a.route);
    // A finished attempt never changes again but its checkout's name may: convert it once per name.
    // Its lag is read anew each time: a stall around its stamps is known only once the loop
    // has run again, which may be after the attempt was first converted.
    const d = a.done?.checkoutId === id ? a.done : toDelivery(a, id);
    if (a.answer !== undefined && a.kept) a.done = d;
    // Always set, 0 included: an attempt without lagMs is judged by the run's worst lateness
    // (analysis/view.ts), which would blur an attempt the sink stamped on time.
    d.lagMs = lagOf(a, lagAround);
    return d;
  }
}

const ms = (ns: bigint | undefined) => ns === undefined ? undefined : Number(ns) / 1e6;

/** Real ms up to which the attempt's arrival or end may have been stamped late, to 0.1 ms. */
function lagOf(a: RawAttempt, lagAround: (ms: number) => number): number {
  const end = ms(a.closedNs ?? a.answeredNs);
  const lag = Math.max(lagAround(ms(a.arrivedNs)!), end === undefined ? 0 : lagAround(end));
  return Math.round(lag * 10) / 10;
}

function toDelivery(a: RawAttempt, checkoutId: string): RecordedAttempt {
  const arrivedMs = ms(a.arrivedNs)!, answeredMs = ms(a.answeredNs), closedMs = ms(a.closedNs), connectedMs = ms(a.connectedNs);
  return {
    seq: a.seq,
    checkoutId,
    arrivedMs,
    ...(connectedMs !== undefined ? { connectedMs } : {}),
    ...(a.method !== 'POST' ? { method: a.method } : {}),
    path: a.path,
    headers: a.headers,
    ...(a.headersOmitted ? { headersOmitted: a.headersOmitted } : {}),
    ...(a.key ? { apiKeyCheck: a.key } : {}),
    body: a.kept?.text ?? '',
    ...(a.kept?.sha256 ? { bodyBytes: a.kept.bytes, bodySha256: a.kept.sha256 } : {}),
    probe: a.probe,
    // An attempt still open when the attempts are read has not been answered yet.
    answer: a.answer ?? 'none',
    ...(answeredMs !== undefined ? { answeredMs } : {}),
    ...(closedMs !== undefined ? { closedMs } : {}),
    ...(a.facts ? { facts: a.facts } : {}),
  };
}
