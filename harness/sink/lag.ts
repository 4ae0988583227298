// The sink's own lateness. A stamp (an arrival, a hang-up) is taken when the
// event loop gets to it, so it is late by as long as the loop was busy or the
// process was not scheduled. A timer ticks every RESOLUTION_MS and keeps the
// ticks that came notably late; the lag around one instant bounds how late a
// stamp taken then can be. Judging each attempt by the lag around its own stamps
// (rather than the worst of the whole run) keeps one stall from blurring every
// timing check.

/** Tick period (real ms). Arbitrary: fine against the 25 ms tolerance floor, cheap for the loop. */
const RESOLUTION_MS = 10;
/** Lateness below this (real ms) is timer noise, not kept. */
const NOTABLE_MS = 2;
/** Kept late ticks at most (16 bytes each); the oldest go first. An hour of constant lateness is 360,000. */
const MAX_SAMPLES = 1 << 20;

export interface LagMonitor {
  /** Real ms up to which a stamp taken at `t` (ms on the monitor's clock) may be late. */
  around(t: number): number;
  /** The worst lateness seen (real ms). */
  max(): number;
  /** The worst lateness (real ms) of the ticks that came at or after `t` (ms on the monitor's clock). */
  worstSince(t: number): number;
  stop(): void;
}

/** Starts ticking; `now` is the clock stamps are taken on (real ms, monotonic). */
export function startLagMonitor(now: () => number): LagMonitor {
  const ends = new Float64Array(MAX_SAMPLES);
  const lates = new Float64Array(MAX_SAMPLES);
  let first = 0, count = 0, worst = 0;
  let last = now();
  const timer = setInterval(() => {
    const t = now();
    const late = t - last - RESOLUTION_MS;
    last = t;
    if (late < NOTABLE_MS) return;
    const i = (first + count) % MAX_SAMPLES;
    ends[i] = t; lates[i] = late;
    if (count < MAX_SAMPLES) count++; else first = (first + 1) % MAX_SAMPLES;
    if (late > worst) worst = late;
  }, RESOLUTION_MS);
  timer.unref();
  const at = (k: number) => (first + k) % MAX_SAMPLES;

  return {
    around(t) {
      // A late tick at `end` stands for a loop blocked over [end - late - RESOLUTION_MS, end].
      // An event that came during that time waited in the backlog and was stamped when the
      // loop got to it: at the earliest when the block ended, at the latest once the backlog
      // (as long again, at most) was worked off. So a stamp in
      // [end - late - RESOLUTION_MS, end + late + RESOLUTION_MS] may be up to `late` late.
      // Ticks end in order: a binary search finds the first that can cover t (its end is at
      // most `worst` + RESOLUTION_MS before t), and none whose block starts after t can.
      const from = t - worst - RESOLUTION_MS;
      let lo = 0, hi = count;
      while (lo < hi) { const m = (lo + hi) >> 1; if (ends[at(m)] < from) lo = m + 1; else hi = m; }
      let out = 0;
      for (let k = lo; k < count; k++) {
        const end = ends[at(k)], late = lates[at(k)];
        if (end - worst - RESOLUTION_MS > t) break;
        if (end - late - RESOLUTION_MS <= t && t <= end + late + RESOLUTION_MS && late > out) out = late;
      }
      return out;
    },
    max: () => worst,
    worstSince(t) {
      let lo = 0, hi = count;
      while (lo < hi) { const m = (lo + hi) >> 1; if (ends[at(m)] < t) lo = m + 1; else hi = m; }
      let out = 0;
      for (let k = lo; k < count; k++) if (lates[at(k)] > out) out = lates[at(k)];
      return out;
    },
    stop: () => clearInterval(timer),
  };
}
