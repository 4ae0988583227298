// The reference implementation's only source of time: every spec
// duration d lasts d x scale real seconds (docs/report.md, time scale). Nothing else
// under harness/reference reads Date.now(), performance.now() or setTimeout directly.

export interface Timer { cancel(): void }

export interface Clock {
  /** Real seconds per spec second. */
  readonly scale: number;
  /** Spec milliseconds elapsed since the clock started (monotonic). */
  now(): number;
  /** Wall-clock time in spec terms: start time + elapsed spec time, as a Date (for createdDate, token iat...). */
  date(): Date;
  /** Runs fn after specMs spec milliseconds. */
  after(specMs: number, fn: () => void): Timer;
  /** Resolves after specMs spec milliseconds. */
  sleep(specMs: number): Promise<void>;
  /** Spec ms -> real ms, and back. */
  toReal(specMs: number): number;
  toSpec(realMs: number): number;
}

export function realClock(scale = 1): Clock {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`time scale must be a positive number, not ${scale}`);
  const t0 = performance.now();
  const wall0 = Date.now();
  const clock: Clock = {
    scale,
    now: () => (performance.now() - t0) / scale,
    date: () => new Date(wall0 + clock.now()),
    after(specMs, fn) {
      const t = setTimeout(fn, Math.max(0, specMs * scale));
      t.unref?.();
      return { cancel: () => clearTimeout(t) };
    },
    sleep: specMs => new Promise(resolve => { setTimeout(resolve, Math.max(0, specMs * scale)); }),
    toReal: specMs => specMs * scale,
    toSpec: realMs => realMs / scale,
  };
  return clock;
}
