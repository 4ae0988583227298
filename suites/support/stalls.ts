// A hostile target can make each call wait out its whole timeout: an answer
// that promises more bytes than it sends, a chunk size that never ends, a
// header that never ends. At 30 s a call, a suite of a hundred calls would take
// most of an hour. So the time a worker's calls lose to timeouts is counted per
// suite: past STALLS.budgetMs a call of that suite waits at most
// STALLS.stalledCallMs, and past twice the budget no more calls are made. A
// check whose call was cut short this way is not run, with the figures; the
// stall that used the budget up was the target's, but what follows is not judged.
import { perPart } from './part.ts';

/**
 * Arbitrary: two calls that wait out the 30 s default (harness/http/exchange.ts);
 * a short call gets 2 s, ten times what the reference takes on a loaded machine.
 * A mutable object so that a test can lower the figures.
 */
export const STALLS = { budgetMs: 60_000, stalledCallMs: 2_000 };

const lost = perPart(() => new Map<string, number>());

/** Real ms the calls of `suite` lost to timeouts in this part of the run. */
export const lostMs = (suite: string) => lost().get(suite) ?? 0;

/** How long a call of `suite` may wait now: undefined while the budget lasts, 0 once no call should be made. */
export function stallLimit(suite: string): number | undefined {
  const ms = lostMs(suite);
  if (ms < STALLS.budgetMs) return undefined;
  return ms < 2 * STALLS.budgetMs ? STALLS.stalledCallMs : 0;
}

/** Counts a call that ended in a timeout of its own (headers, body or its total deadline). */
export function countStall(suite: string, code: string, durationMs: number): void {
  if (/TIMEOUT/.test(code)) lost().set(suite, lostMs(suite) + durationMs);
}

/** The sentence for a check whose call was cut short or not made. */
export function stalledReason(suite: string, made: boolean): string {
  return `the target's calls in the ${suite} suite have lost ${(lostMs(suite) / 1000).toFixed(0)} s to timeouts in this worker, ` +
    `past the ${(STALLS.budgetMs / 1000).toFixed(0)} s budget (docs/report.md, Stalls): ` +
    (made ? `this call waited at most ${(STALLS.stalledCallMs / 1000).toFixed(1)} s and got no answer` : 'no more of its calls are made');
}
