// What every phase of a certification run shares: the transport, fresh ids,
// the options, and the answer a valid delivery gets from this receiver.
import type { CheckResult } from '../report/model.ts';
import type { SenderOptions } from './options.ts';
import type { Ids } from './plan.ts';
import type { Delivery, Transport } from './transport.ts';

export interface Success {
  /** The status code a valid delivery must get outside receiver.accepts. */
  code: number;
  /** Appended to messages when code is not 200, so a reader knows why. */
  note: string;
}

export interface Ctx {
  t: Transport;
  ids: Ids;
  opts: SenderOptions;
  success: Success;
  emit(check: CheckResult): void;
}

/**
 * Spec 6.4 wants exactly 200. Only receiver.accepts judges that: when the
 * receiver answers valid deliveries with another 2xx (201, 204), the other
 * checks judge duplicates, bursts and recovery against that answer, so one
 * fault is reported under one prefix instead of under all six.
 */
export function successFrom(first: Delivery | undefined): Success {
  const s = first?.status;
  if (s !== undefined && s >= 200 && s < 300 && s !== 200)
    return { code: s, note: ` (judged against the ${s} this receiver answers to a valid delivery; receiver.accepts reports that it is not 200)` };
  return { code: 200, note: '' };
}

export const answered = (code: number) => (d: Delivery) => d.status === code;
