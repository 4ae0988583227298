// What every phase of a certification run shares: the transport, fresh ids,
// the options, and what counts as success for a valid delivery to this receiver.
import type { CheckDef } from '../check/def.ts';
import type { Outcome } from '../check/outcome.ts';
import type { SenderOptions } from './options.ts';
import type { Ids } from './plan.ts';
import type { Delivery, Transport } from './transport.ts';

export interface Success {
  /** The 2xx a valid delivery gets outside receiver.accepts; undefined when the receiver gave no valid delivery a 2xx. */
  code?: number;
  /** Whether a valid delivery outside receiver.accepts succeeded. */
  ok(d: Delivery): boolean;
  /** What a valid delivery without an answer within the wait means outside receiver.accepts (see Judging). */
  unanswered: 'fail' | { notRun: string };
  /** Appended to messages, so a reader knows what was judged against what. */
  note: string;
  /** When `code` is undefined: why checks that need a successful delivery cannot be judged. */
  refused?: string;
}

export interface Ctx {
  t: Transport;
  ids: Ids;
  opts: SenderOptions;
  success: Success;
  /** Hands a finished check on (its outcome and the ms it took); its registration (checks.ts) gives it its level. */
  emit(def: CheckDef, outcome: Outcome, durationMs?: number): void;
}

/**
 * Spec 6.4 wants exactly 200 within 5 s; receiver.accepts judges the code and
 * receiver.latency the time. So that one fault shows under one prefix instead
 * of all six, the other checks judge against what this receiver does with a
 * plain valid delivery (`accepted`, the deliveries of receiver.accepts):
 * - when it answers another 2xx (201, 204), duplicates, bursts and recovery are
 *   judged against that answer;
 * - when it answers no valid delivery with a 2xx, checks that need one are
 *   not-run (receiver.accepts failed already);
 * - when some of them already got no answer within the wait (or one later
 *   than `limitMs`), a missing answer elsewhere is receiver.latency's finding
 *   and leaves the check not-run.
 */
export function successFrom(accepted: readonly Delivery[], limitMs = Infinity): Success {
  const answered = accepted.filter(d => d.status !== undefined);
  const two = answered.filter(d => d.status! >= 200 && d.status! < 300);
  const code = two.some(d => d.status === 200) ? 200 : two[0]?.status ?? (answered.length ? undefined : 200);
  // Late answers count with missing ones: a receiver that needs longer than the wait is latency's finding either way.
  const silent = accepted.some(d => d.timedOut || (d.status !== undefined && d.ms > limitMs));
  const notes = code !== undefined && code !== 200
    ? [`judged against the ${code} this receiver answers to a valid delivery; receiver.accepts reports that it is not 200`] : [];
  return {
    code,
    ok: d => code !== undefined && d.status === code,
    unanswered: silent ? { notRun: 'as valid deliveries of receiver.accepts got none in time either (receiver.latency reports it)' } : 'fail',
    note: notes.length ? ` (${notes.join('; ')})` : '',
    ...(code === undefined ? {
      refused: `not judged: the receiver gave no valid delivery a 2xx (first: ${answered[0].label}: ${answered[0].status}), which receiver.accepts reports`,
    } : {}),
  };
}

/** The first valid delivery (outside bursts) that took longer than the 5 s limit or got no answer: receiver.latency has failed. */
export function slowDelivery(ctx: Ctx): Delivery | undefined {
  return ctx.t.log.find(d => isSlow(ctx, d));
}

function isSlow(ctx: Ctx, d: Delivery): boolean {
  const { limitMs, toleranceMs } = ctx.t.timing;
  return VALID_KINDS.has(d.kind) && !d.notSent && (d.timedOut || (d.status !== undefined && d.ms > limitMs + toleranceMs));
}

/**
 * Arbitrary: this many valid deliveries in a row too slow (or unanswered) make
 * a receiver slow for sure; one late answer among fast ones is not enough to
 * stop measuring the rest.
 */
const SLOW_IN_A_ROW = 4;

/**
 * Why bodies still to send are not worth sending: the receiver answered the
 * last SLOW_IN_A_ROW valid deliveries too late or not at all, so
 * receiver.latency has failed (the verdict is settled) and each further
 * delivery would likely cost the whole wait.
 */
export function settledSlow(ctx: Ctx): string | undefined {
  const valid = ctx.t.log.filter(d => VALID_KINDS.has(d.kind) && !d.notSent);
  const last = valid.slice(-SLOW_IN_A_ROW);
  if (last.length < SLOW_IN_A_ROW || !last.every(d => isSlow(ctx, d))) return undefined;
  const d = last[last.length - 1];
  return `the receiver answered the last ${SLOW_IN_A_ROW} valid deliveries late or not at all ` +
    `(the latest: ${d.label}: ${d.status !== undefined ? `${d.status} in ${d.ms.toFixed(0)} ms` : d.error}), ` +
    "so receiver.latency has failed and settles the verdict; fix the receiver's answer time and run again";
}

/**
 * Why nothing more is worth sending when the receiver answered no valid
 * delivery at all and left some without an answer: every later check would
 * wait the whole wait for nothing, and receiver.latency has failed already.
 */
export function silence(ctx: Ctx): string | undefined {
  const valid = ctx.t.log.filter(d => VALID_KINDS.has(d.kind) && !d.notSent);
  if (!valid.length || valid.some(d => d.status !== undefined) || !valid.some(d => d.timedOut)) return undefined;
  return `not sent: the receiver answered none of the ${valid.length} valid deliveries sent so far within the wait, which receiver.latency reports; ` +
    'nothing it answers later could be judged';
}

/** Kinds of valid deliveries sent outside bursts: what receiver.latency judges. */
export const VALID_KINDS: ReadonlySet<string> = new Set(['normal', 'batch', 'older']);
