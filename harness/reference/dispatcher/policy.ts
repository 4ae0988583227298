// The delivery rules of spec section 6 as numbers and switches, and how each
// webhook fault or quirk of catalog.yaml bends exactly one of them. The attempt
// loop reads only this object, so a fault cannot leak into another rule.
import type { CatalogName } from '../catalog-names.ts';

/** Spec 6.6 and 8: "The service waits 5 seconds in total for a response." */
export const RESPONSE_WAIT_MS = 5_000;
/** Spec 6.5 and 8: "Retries use exponential backoff with a minimum delay of 10 seconds." */
const MIN_RETRY_DELAY_MS = 10_000;
/** Spec 6.7 and 8: "An event not delivered within 7 days is lost." */
export const MAX_EVENT_AGE_MS = 7 * 24 * 3600 * 1000;

/** `webhook-retry-early`: the first retry 2 s after the failure (the catalog's figure); growth is kept, so only the minimum is broken. */
const EARLY_FIRST_DELAY_MS = 2_000;
/** `webhook-short-timeout`: gives up after 3 s (the catalog's figure). */
const SHORT_RESPONSE_WAIT_MS = 3_000;
/** `webhook-timeout-4500ms`: gives up half a second early, the narrowest miss the timeout check must catch. */
const EARLY_RESPONSE_WAIT_MS = 4_500;
/** `webhook-timeout-4600ms-polled`: gives up after 4.6 s, noticed at the next 300 ms poll of the clock (4.6 to 4.9 s). */
const POLLED_RESPONSE_WAIT_MS = 4_600;
const WAIT_POLL_MS = 300;
/** `webhook-jitter`: up to 25 % upward, so a delay never drops below the spec's minimum. */
const JITTER_FRACTION = 0.25;
/** `webhook-capped-backoff`: the delay stops growing at 20 s (10, 20, 20 ... s). */
const CAPPED_DELAY_MS = 20_000;
/** `webhook-gives-up-after-3`: an event is dropped after its third failed attempt. */
const GIVE_UP_AFTER = 3;
/** `webhook-gives-up-after-6`: after its sixth (1 + 5 retries, a common setting), which only the long chain (run --long-chains) reaches. */
const GIVE_UP_LATE_AFTER = 6;
/**
 * `webhook-decorrelated-jitter`: each delay drawn between 10 s and 3 times the one before, at most 90 s
 * (every retry within the run's wait); a delay may be shorter than the one before.
 */
const DECORRELATED_CAP_MS = 90_000;
/** `webhook-long-backoff`: 60 s, 5 min, 30 min, then doubling; legal (spec 6.5 sets no maximum), and longer than a run waits. */
const LONG_DELAYS_MS = [60_000, 300_000, 1_800_000];
/** `webhook-backoff-gentle`: a growth factor of 1.2 per retry (10, 12, 14.4 ... s); spec 6.5 sets no factor. */
const GENTLE_FACTOR = 1.2;

export interface DeliveryPolicy {
  /** Spec ms from sending to a complete answer before the attempt is aborted; Infinity waits forever. */
  responseWaitMs: number;
  /** Whether every byte of the answer starts the response wait anew (an inactivity limit; spec 6.6 counts 5 s in total). */
  waitResetsOnData: boolean;
  /** When above 0: the end of the response wait is noticed only at the clock's next multiple of this many spec ms. */
  waitPollMs: number;
  /**
   * Spec ms to wait after failed attempt n (1-based) ended before the next one; `previous`: the delay before attempt n, if any;
   * `event`: the event's index in its checkout (0: the first).
   */
  retryDelayMs(failedAttempt: number, previous?: number, event?: number): number;
  /**
   * Where the delay counts from: the failed attempt's end, or when it was sent
   * (`webhook-backoff-from-start`; spec 6.5 does not say, so both are readings).
   */
  backoffFrom: 'end' | 'start';
  /** Whether a failed attempt is followed by another one at all (spec 6.4). */
  retries: boolean;
  /** The most attempts of one event before it is dropped (Infinity: until 7 days have passed, spec 6.7). */
  maxAttempts: number;
  /** Whether an answer with this status delivers the event (spec 4.3, 6.4: only 200). */
  delivers(status: number): boolean;
  /** Whether event n+1 of a checkout waits for event n's acknowledgement (spec 6.8). */
  ackGating: boolean;
  /** Whether all checkouts share one queue instead of one queue each (spec 6.9 forbids it). */
  globalQueue: boolean;
  /** Whether the retries of all checkouts wait in one queue: an event's retries begin only once every earlier failed event was delivered (6.9 forbids it). */
  globalRetryQueue: boolean;
  /** Whether attempt n (1-based) carries the api-key header (spec 5.4: every request does). */
  sendsApiKey(attempt: number): boolean;
  /** How many times each event is delivered (1; 2 under the `webhook-duplicates` quirk, allowed by spec 6.3). */
  copies: number;
  /** Spec ms after its creation at which an undelivered event is dropped. */
  maxEventAgeMs: number;
}

/** Exponential backoff: first ms, then multiplied by `factor` each time (10, 20, 40 ... s for the spec's minimum and 2). */
function exponential(first: number, factor = 2): (n: number, previous?: number, event?: number) => number {
  return n => first * factor ** Math.max(0, n - 1);
}

/** The delivery policy for a set of fault and quirk names; names that are not webhook ones are ignored here. */
export function deliveryPolicy(faults: ReadonlySet<CatalogName>, random: () => number = Math.random): DeliveryPolicy {
  let retryDelay = exponential(MIN_RETRY_DELAY_MS);
  if (faults.has('webhook-retry-early')) retryDelay = exponential(EARLY_FIRST_DELAY_MS);
  if (faults.has('webhook-no-growth')) retryDelay = () => MIN_RETRY_DELAY_MS;
  if (faults.has('webhook-linear-backoff')) retryDelay = n => MIN_RETRY_DELAY_MS * n;
  if (faults.has('webhook-capped-backoff')) { const exp = retryDelay; retryDelay = n => Math.min(exp(n), CAPPED_DELAY_MS); }
  if (faults.has('webhook-growth-first-event-only')) { const exp = retryDelay; retryDelay = (n, _p, event = 0) => event ? MIN_RETRY_DELAY_MS : exp(n); }
  if (faults.has('webhook-long-backoff'))
    retryDelay = n => LONG_DELAYS_MS[n - 1] ?? LONG_DELAYS_MS[LONG_DELAYS_MS.length - 1] * 2 ** (n - LONG_DELAYS_MS.length);
  if (faults.has('webhook-backoff-gentle')) retryDelay = exponential(MIN_RETRY_DELAY_MS, GENTLE_FACTOR);
  if (faults.has('webhook-decorrelated-jitter'))
    retryDelay = (_n, previous = MIN_RETRY_DELAY_MS) =>
      MIN_RETRY_DELAY_MS + random() * (Math.min(3 * previous, DECORRELATED_CAP_MS) - MIN_RETRY_DELAY_MS);
  if (faults.has('webhook-jitter')) {
    const base = retryDelay;
    retryDelay = (n, previous, event) => base(n, previous, event) * (1 + JITTER_FRACTION * random());
  }
  const responseWaitMs = faults.has('webhook-no-timeout') ? Infinity
    : faults.has('webhook-short-timeout') ? SHORT_RESPONSE_WAIT_MS
    : faults.has('webhook-timeout-4500ms') ? EARLY_RESPONSE_WAIT_MS
    : faults.has('webhook-timeout-4600ms-polled') ? POLLED_RESPONSE_WAIT_MS : RESPONSE_WAIT_MS;
  const anyTwoHundred = faults.has('webhook-2xx-success');
  const keyOnRetries = !faults.has('webhook-retry-no-api-key');
  return {
    responseWaitMs,
    waitResetsOnData: faults.has('webhook-inactivity-timeout'),
    waitPollMs: faults.has('webhook-timeout-4600ms-polled') ? WAIT_POLL_MS : 0,
    retryDelayMs: retryDelay,
    backoffFrom: faults.has('webhook-backoff-from-start') ? 'start' : 'end',
    retries: !faults.has('webhook-no-retry'),
    maxAttempts: faults.has('webhook-gives-up-after-3') ? GIVE_UP_AFTER : faults.has('webhook-gives-up-after-6') ? GIVE_UP_LATE_AFTER : Infinity,
    delivers: status => status === 200 || (anyTwoHundred && status >= 200 && status < 300),
    ackGating: !faults.has('webhook-no-ack-gating'),
    globalQueue: faults.has('webhook-global-queue'),
    globalRetryQueue: faults.has('webhook-global-retry-queue'),
    sendsApiKey: attempt => attempt === 1 || keyOnRetries,
    copies: faults.has('webhook-duplicates') ? 2 : 1,
    maxEventAgeMs: MAX_EVENT_AGE_MS,
  };
}
