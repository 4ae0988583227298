// The sink's record of every attempt. The hot path (answering) only pushes raw
// facts: monotonic times in nanoseconds, headers, the raw body bytes. Turning
// them into DeliveryAttempt (strings, milliseconds, checkout ids) happens once,
// when the run asks for the attempts.
import type { DeliveryAttempt } from '../report/model.ts';
import type { Probe } from './probes.ts';

/** Bodies beyond this many bytes are answered 413 and kept only in part. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** How much of an oversized body the report keeps (the rest is only counted). */
const KEPT_OF_OVERSIZED = 4096;

export interface RawAttempt {
  seq: number;
  /** The plan key: the path slot (/hooks/<key>) or the checkout id found in the body. */
  route: string;
  arrivedNs: bigint;
  headers: Record<string, string>;
  chunks: Buffer[];
  size: number;
  probe: Probe;
  answer?: number | 'reset' | 'none';
  answeredNs?: bigint;
  closedNs?: bigint;
  /** The finished attempt as DeliveryAttempt, once it can no longer change. */
  done?: DeliveryAttempt;
}

export class Recorder {
  readonly t0 = process.hrtime.bigint();
  private readonly raw: RawAttempt[] = [];

  /** Nanoseconds since the sink started (monotonic). */
  nowNs(): bigint { return process.hrtime.bigint() - this.t0; }
  /** Real milliseconds since the sink started. */
  nowMs(): number { return Number(this.nowNs()) / 1e6; }

  start(headers: Record<string, string>): RawAttempt {
    const a: RawAttempt = { seq: this.raw.length + 1, route: '', arrivedNs: this.nowNs(), headers, chunks: [], size: 0, probe: 'ok' };
    this.raw.push(a);
    return a;
  }

  get count(): number { return this.raw.length; }

  /**
   * Every attempt so far, oldest first, as the report model has them (real ms
   * since the sink started). `checkoutOf` names the checkout of a route: the
   * control API's id may come back after the checkout's first webhook arrived.
   */
  attempts(checkoutOf: (route: string) => string = r => r): DeliveryAttempt[] {
    return this.raw.map(a => {
      const id = checkoutOf(a.route);
      // An answered attempt never changes again: convert it once (the driver asks often).
      if (a.done?.checkoutId === id) return a.done;
      const d = toDelivery(a, id);
      if (a.answer !== undefined && a.probe !== 'too-large') a.done = d;
      return d;
    });
  }

}

const ms = (ns: bigint | undefined) => ns === undefined ? undefined : Number(ns) / 1e6;

function toDelivery(a: RawAttempt, checkoutId: string): DeliveryAttempt {
  const buf = Buffer.concat(a.chunks);
  const body = a.size > MAX_BODY_BYTES
    ? `${buf.subarray(0, KEPT_OF_OVERSIZED).toString('utf8')}…[${a.size} bytes in all, cut at ${KEPT_OF_OVERSIZED}]`
    : buf.toString('utf8');
  return {
    seq: a.seq,
    checkoutId,
    arrivedMs: ms(a.arrivedNs)!,
    headers: { ...a.headers },
    body,
    probe: a.probe,
    // An attempt still open when the attempts are read has not been answered yet.
    answer: a.answer ?? 'none',
    ...(a.answeredNs !== undefined ? { answeredMs: ms(a.answeredNs) } : {}),
    ...(a.closedNs !== undefined ? { closedMs: ms(a.closedNs) } : {}),
  };
}
