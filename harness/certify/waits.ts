// The wait of every exchange in flight, on one timer (transport.ts says how an
// exchange is timed). The waits all last as long and start in the order the
// exchanges do, so the timer only needs to be due at the oldest one's end; a
// timer per exchange cost more than parsing its answer.
import type { StallMeter } from './stall.ts';
import type { WireCall } from './wire.ts';

// Arbitrary: an answer whose status line came just before the end of the wait
// still gets this long for its body, so a small acknowledgement is not cut.
const BODY_GRACE_MS = 250;

/** One exchange in flight: when it started (performance.now() ms), and whether it was given up for want of an answer. */
export interface Flight { readonly call: WireCall; readonly started: number; timedOut: boolean }

export class Waits {
  /** In the order they started, which is the order their waits end in (unless stalls extend some). */
  private readonly flights = new Set<Flight>();
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;

  constructor(private readonly waitMs: number, private readonly stalls: StallMeter) {}

  start(call: WireCall, started: number): Flight {
    const f: Flight = { call, started, timedOut: false };
    this.flights.add(f);
    this.arm(started + this.waitMs);
    return f;
  }

  end(f: Flight): void {
    this.flights.delete(f);
    if (!this.flights.size) this.disarm();
  }

  /** Cuts every exchange in flight (a stop signal). */
  cutAll(why: string): void {
    for (const f of this.flights) f.call.cut(new Error(why));
  }

  close(): void { this.disarm(); }

  /**
   * When `f` is given up. Until the status line it is the wait, extended by
   * this process's own stalls (up to twice its length). After the status
   * line the body may use what is left of the wait, at least BODY_GRACE_MS.
   */
  private due(f: Flight): number {
    return f.call.headed
      ? Math.max(f.started + this.waitMs + this.stalls.stalledMs(f.started), f.call.outcome.headersAt! + BODY_GRACE_MS)
      : f.started + this.waitMs + Math.min(this.waitMs, this.stalls.stalledMs(f.started));
  }

  private arm(at: number): void {
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - performance.now()));
    // An exchange in flight holds its socket open; the timer alone keeps no process alive.
    this.timer.unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    const over: Flight[] = [];
    let next = Infinity;
    for (const f of this.flights) {
      // Later ones started later: none of them is due yet.
      if (f.started + this.waitMs > now) { next = Math.min(next, f.started + this.waitMs); break; }
      const due = this.due(f);
      if (due > now) next = Math.min(next, due);
      else over.push(f);
    }
    if (next < Infinity) this.arm(next);
    // The cut goes through setImmediate so that an answer that arrived while
    // the timer was due is read first (I/O is polled before immediates run).
    if (over.length) setImmediate(() => { for (const f of over) this.giveUp(f); });
  }

  private giveUp(f: Flight): void {
    if (!this.flights.has(f)) return;
    if (f.call.headed) f.call.cut(new Error('the answer body was not complete at the end of the wait'));
    else { f.timedOut = true; f.call.cut(new Error('no answer within the wait')); }
  }
}
