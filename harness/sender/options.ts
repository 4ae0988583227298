// What a certification run is told and the durations it derives from it. Every
// spec duration passes through here so that --time-scale compresses them all
// (CONTRACT.md section 3).

export interface SenderOptions {
  /** The receiver's URL, http:// or https://. */
  url: string;
  /** The api-key the merchant registered (spec 5.4). */
  apiKey: string;
  /** 1 spec second = timeScale real seconds. */
  timeScale: number;
  /** Checkouts delivered in parallel in a burst (spec 6.9). */
  concurrency: number;
  /** The run refuses to start when its plan needs more requests than this. */
  maxRequests: number;
  /** Optional `https://merchant.example/checkouts/{id}`: the receiver's view of a checkout. */
  stateUrl?: string;
  /** Accept a self-signed TLS certificate (tests, staging). */
  insecure: boolean;
}

export const DEFAULTS = {
  timeScale: 1,
  concurrency: 50,
  // Arbitrary but safe: about four full plans at the default concurrency, far
  // below what any receiver in production absorbs from the real service.
  maxRequests: 1000,
} as const;

/** Spec 6.6 and 8: "The service waits 5 seconds in total for a response." */
export const RESPONSE_WAIT_SPEC_MS = 5_000;
/** Spec 6.5 and 8: retries come at the earliest 10 s after a failure; a duplicate typically arrives this late. */
export const RETRY_PAUSE_SPEC_MS = 10_000;
/**
 * Arbitrary advice threshold for receiver.latency (`should`): a receiver whose
 * p99 is under a fifth of the service's wait keeps a margin for bad days.
 */
export const P99_ADVICE_SPEC_MS = 1_000;
/**
 * How long the sender waits for an answer before giving up: three times the
 * service's wait (arbitrary), so that a slow receiver's late answer is still
 * seen and judged by receiver.latency rather than reported as "no answer" everywhere.
 */
export const SENDER_WAIT_FACTOR = 3;
/**
 * Deliveries of different checkouts in flight at once in receiver.accepts.
 * The service sends different checkouts in parallel anyway (spec 6.9); four
 * keeps a run against a receiver that takes 6 s per answer to about a minute,
 * while a receiver that serialises requests only queues three deep.
 */
export const ACCEPTS_PARALLEL = 4;

export interface Timing {
  scale: number;
  /** The 5 s response limit in real ms. */
  limitMs: number;
  /** CONTRACT.md section 3: max(25 ms, 2 % of the expected value). */
  toleranceMs: number;
  /** Real ms the sender waits for any one answer. */
  waitMs: number;
  /** The p99 advice in real ms. */
  p99AdviceMs: number;
  /** Real ms between an event and its late duplicate. */
  pauseMs: number;
}

export function timing(scale: number): Timing {
  const limitMs = RESPONSE_WAIT_SPEC_MS * scale;
  return {
    scale,
    limitMs,
    toleranceMs: Math.max(25, limitMs * 0.02),
    waitMs: limitMs * SENDER_WAIT_FACTOR + Math.max(25, limitMs * 0.02),
    p99AdviceMs: P99_ADVICE_SPEC_MS * scale,
    pauseMs: RETRY_PAUSE_SPEC_MS * scale,
  };
}

/** "5000 ms" at scale 1, "100 ms (5 s at time scale 0.02)" otherwise. */
export function describeLimit(specMs: number, scale: number): string {
  const real = specMs * scale;
  return scale === 1 ? `${fmtMs(real)} ms` : `${fmtMs(real)} ms (${specMs / 1000} s at time scale ${scale})`;
}

export function fmtMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
