// How long this process's own event loop was stalled. A delivery is timed by
// this process: when its event loop is held up (a loaded CI machine, a garbage
// collection, a large body hashed), an answer that arrived meanwhile waits
// unseen and the receiver looks slower than it is. The sender waits that much
// longer before it gives up on an answer, and an answer seen just as a stall
// ended may have come at any time during it (see justEnded).
// The meter is a 10 ms interval timer; every tick later than due records how
// late it was (a stall ending at that tick).

const TICK_MS = 10;
// Arbitrary: a tick this late or less is timer jitter, not a stall.
const JITTER_MS = 2;
// Arbitrary, two ticks: an answer seen this soon after a stall ended is taken
// to have waited through it (the loop reads queued I/O within a turn or two).
const SEEN_AFTER_MS = 2 * TICK_MS;

export class StallMeter {
  /** Ends of stalls (performance.now() ms) and their lengths, in time order. */
  private readonly ends: number[] = [];
  private readonly lengths: number[] = [];
  private last = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  /** Milliseconds of the span [from, to] (performance.now() ms) during which this process was stalled. */
  stalledMs(from: number, to = performance.now()): number {
    this.tick();
    let total = 0;
    // Stalls are few and short-lived records; the first one that may overlap is found by bisection.
    let lo = 0, hi = this.ends.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.ends[mid] <= from) lo = mid + 1; else hi = mid; }
    for (let i = lo; i < this.ends.length; i++) {
      const end = this.ends[i], start = end - this.lengths[i];
      if (start >= to) break;
      total += Math.max(0, Math.min(end, to) - Math.max(start, from));
    }
    return total;
  }

  /**
   * The stall this process was coming out of at `at` (it ended at most
   * SEEN_AFTER_MS before), clipped to start at `from`; 0 when none. An answer
   * first seen then may have arrived at any moment of that stall.
   */
  justEnded(at: number, from: number): number {
    this.tick();
    // A stall is recorded when the next tick runs, which may be after `at`: its end is then clipped to `at`.
    for (let i = this.ends.length - 1; i >= 0 && this.ends[i] >= at - SEEN_AFTER_MS; i--) {
      const start = this.ends[i] - this.lengths[i];
      if (start >= at) continue;
      return Math.max(0, Math.min(this.ends[i], at) - Math.max(start, from));
    }
    return 0;
  }

  /** The longest single stall that ended within [from, to]. */
  longestMs(from: number, to = performance.now()): number {
    this.tick();
    let longest = 0;
    for (let i = this.ends.length - 1; i >= 0 && this.ends[i] >= from; i--) if (this.ends[i] <= to) longest = Math.max(longest, this.lengths[i]);
    return longest;
  }

  stop(): void { clearInterval(this.timer); }

  private tick(): void {
    const now = performance.now();
    const late = now - this.last - TICK_MS;
    if (late > JITTER_MS) { this.ends.push(now); this.lengths.push(late); }
    // A tick called early (from stalledMs) must not count the rest of the interval as a stall.
    if (now - this.last >= TICK_MS) this.last = now;
  }
}
