// How far a sender's retry delays may vary by jitter, and how likely such a
// sender is to look steady (webhook.backoff.growth judges the shape of a
// backoff for a steady sender only: backoff.ts, steadySpread).

/** The upward jitter a sender may add to each delay: up to 25 % (the catalog quirk `webhook-jitter`). */
export const MAX_JITTER = 1.25;

/**
 * Arbitrary: a sender with up to 25 % jitter draws spreads as small as those
 * seen at most once in a thousand runs, or the sender is not taken for steady.
 */
export const STEADY_CHANCE = 1e-3;

/**
 * How likely a sender whose every delay is its nominal one times 1 + u, u
 * uniform in [0, MAX_JITTER - 1] (the webhook-jitter quirk), would draw
 * spreads as small as `groups` show, at every place at once: each group's
 * chance (the range of n uniform draws is at most f with chance
 * n·f^(n-1) - (n-1)·f^n), combined by Fisher's method (-2 Σ ln p is
 * chi-squared with 2 per group degrees of freedom). The nominal delay is taken
 * as small as the least delay allows (least / MAX_JITTER), which can only
 * raise the chance: a busy sink's spread only makes a sender look less steady.
 */
export function jitterChance(groups: ReadonlyArray<{ n: number; spread: number; least: number }>): number {
  let x = 0;
  for (const { n, spread, least } of groups) {
    // A delay of 0 or less gives no scale to judge the spread by: no evidence of steadiness.
    const f = least > 0 ? Math.min(1, spread / ((MAX_JITTER - 1) * least / MAX_JITTER)) : 1;
    const p = n * f ** (n - 1) - (n - 1) * f ** n;
    if (p <= 0) return 0;
    x -= 2 * Math.log(p);
  }
  // The chi-squared tail with 2k degrees of freedom: e^(-x/2) Σ_{i<k} (x/2)^i / i!.
  let term = Math.exp(-x / 2), sum = 0;
  for (let i = 0; i < groups.length; i++) { sum += term; term *= x / 2 / (i + 1); }
  return Math.min(1, sum);
}
