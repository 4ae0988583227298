// What a certification run is told and the durations it derives from it. Every
// spec duration passes through here so that --time-scale compresses them all
// (docs/report.md, time scale).
import { specClock, type SpecClock } from '../clock.ts';

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
  /**
   * Spec seconds (time-scaled like every spec duration) after which nothing
   * more is sent; what was not measured is not-run. Undefined: the default
   * (see budgetMs).
   */
  maxDurationS?: number;
}

export const DEFAULTS = {
  timeScale: 1,
  concurrency: 50,
  // Arbitrary but safe: about four full plans at the default concurrency, far
  // below what any receiver in production absorbs from the real service.
  maxRequests: 1000,
  // The target of a certification's length: a correct receiver is done in
  // about 12 s, a receiver that never answers in about 10 s; the margin is for
  // receivers slow enough to fail latency on some deliveries only.
  maxDurationS: 60,
} as const;

/**
 * Arbitrary floor of the default budget in real ms: a compressed clock
 * shortens the spec's waits, not the few hundred exchanges every run makes,
 * which took up to 13 s on a loaded 2-core machine.
 */
const MIN_DEFAULT_BUDGET_MS = 30_000;

/** The run's time budget in real ms, and how a message names it. */
export function budget(o: Pick<SenderOptions, 'maxDurationS' | 'timeScale'>): { ms: number; text: string } {
  const clock = specClock(o.timeScale);
  if (o.maxDurationS !== undefined) return { ms: clock.toReal(o.maxDurationS * 1000), text: `--max-duration ${o.maxDurationS} s` };
  const ms = Math.max(clock.toReal(DEFAULTS.maxDurationS * 1000), MIN_DEFAULT_BUDGET_MS);
  return { ms, text: `the default --max-duration (${fmtMs(ms / 1000)} s real time)` };
}

/** Spec 6.6 and 8: "The service waits 5 seconds in total for a response." */
export const RESPONSE_WAIT_SPEC_MS = 5_000;
/** Spec 6.5 and 8: retries come at the earliest 10 s after a failure; a duplicate typically arrives this late. */
const RETRY_PAUSE_SPEC_MS = 10_000;
/**
 * Arbitrary advice threshold for receiver.latency (`should`): a receiver whose
 * p99 is under a fifth of the service's wait keeps a margin for bad days.
 */
export const P99_ADVICE_SPEC_MS = 1_000;
/**
 * Deliveries of different checkouts in flight at once in receiver.accepts.
 * The service sends different checkouts in parallel anyway (spec 6.9); four
 * keeps a run against a receiver that takes 6 s per answer to about a minute,
 * while a receiver that serialises requests only queues three deep.
 */
export const ACCEPTS_PARALLEL = 4;

export interface Timing {
  clock: SpecClock;
  /** The 5 s response limit in real ms. */
  limitMs: number;
  /** The limit's tolerance in real ms (harness/clock.ts). */
  toleranceMs: number;
  /** Real ms the sender waits for an answer's status line: the 5 s limit plus its tolerance, then it gives up as the service does. */
  waitMs: number;
  /** The p99 advice in real ms. */
  p99AdviceMs: number;
  /** Real ms between an event and its late duplicate. */
  pauseMs: number;
}

export function timing(clock: SpecClock): Timing {
  const limitMs = clock.toReal(RESPONSE_WAIT_SPEC_MS);
  return {
    clock,
    limitMs,
    toleranceMs: clock.tolerance(limitMs),
    waitMs: limitMs + clock.tolerance(limitMs),
    p99AdviceMs: clock.toReal(P99_ADVICE_SPEC_MS),
    pauseMs: clock.toReal(RETRY_PAUSE_SPEC_MS),
  };
}

/** "5000 ms" at scale 1, "100 ms (5 s at time scale 0.02)" otherwise. */
export function describeLimit(specMs: number, clock: SpecClock): string {
  const real = clock.toReal(specMs);
  return clock.scale === 1 ? `${fmtMs(real)} ms` : `${fmtMs(real)} ms (${specMs / 1000} s at time scale ${clock.scale})`;
}

export function fmtMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
