// What every phase of a certification run shares: the transport, fresh ids,
// the options, and what counts as success for a valid delivery to this receiver.
import type { Judged } from '../report/check.ts';
import type { SenderOptions } from './options.ts';
import type { Ids } from './plan.ts';
import type { Delivery, Transport } from './transport.ts';

export interface Success {
  /** The status code a valid delivery must get outside receiver.accepts. */
  code: number;
  /** Whether a valid delivery outside receiver.accepts succeeded. */
  ok(d: Delivery): boolean;
  /** Appended to messages, so a reader knows what was judged against what. */
  note: string;
}

export interface Ctx {
  t: Transport;
  ids: Ids;
  opts: SenderOptions;
  success: Success;
  /** Hands a finished check on; its registration (checks.ts) gives it its level. */
  emit(check: Judged): void;
}

/**
 * Spec 6.4 wants exactly 200 within 5 s; receiver.accepts judges the code and
 * receiver.latency the time. So that one fault shows under one prefix instead
 * of all six, the other checks judge against what this receiver does with a
 * plain valid delivery (`accepted`, the deliveries of receiver.accepts):
 * - when it answers another 2xx (201, 204), duplicates, bursts and recovery are
 *   judged against that answer;
 * - when some of them already got no answer within the sender's wait, a
 *   missing answer elsewhere is left to receiver.latency too.
 */
export function successFrom(accepted: readonly Delivery[]): Success {
  const s = accepted.find(d => d.status !== undefined)?.status;
  const code = s !== undefined && s >= 200 && s < 300 ? s : 200;
  const excuse = accepted.some(d => d.timedOut);
  const notes = [
    ...(code !== 200 ? [`judged against the ${code} this receiver answers to a valid delivery; receiver.accepts reports that it is not 200`] : []),
    ...(excuse ? ['deliveries without an answer within the wait are left to receiver.latency, as this receiver leaves valid deliveries unanswered that long anyway'] : []),
  ];
  return {
    code,
    ok: d => d.status === code || (excuse && d.timedOut),
    note: notes.length ? ` (${notes.join('; ')})` : '',
  };
}
