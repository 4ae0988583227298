// The reference implementation's only source of time: every spec
// duration d lasts d x scale real seconds (docs/report.md, time scale). Nothing else
// under harness/reference reads Date.now(), performance.now() or setTimeout directly.
// The conversions, the tolerance and the check of the scale are the spec clock's (harness/clock.ts).
import { specClock, type SpecClock } from '../clock.ts';

export interface Timer { cancel(): void }

export interface Clock extends SpecClock {
  /** Spec milliseconds elapsed since the clock started (monotonic). */
  now(): number;
  /** Wall-clock time in spec terms: start time + elapsed spec time, as a Date (for createdDate, token iat...). */
  date(): Date;
  /** Runs fn after specMs spec milliseconds. */
  after(specMs: number, fn: () => void): Timer;
  /** Resolves after specMs spec milliseconds. */
  sleep(specMs: number): Promise<void>;
}

export function realClock(scale = 1): Clock {
  const spec = specClock(scale);
  const t0 = performance.now();
  const wall0 = Date.now();
  const clock: Clock = {
    ...spec,
    now: () => spec.toSpec(performance.now() - t0),
    date: () => new Date(wall0 + clock.now()),
    after(specMs, fn) {
      const t = setTimeout(fn, Math.max(0, spec.toReal(specMs)));
      t.unref?.();
      return { cancel: () => clearTimeout(t) };
    },
    sleep: specMs => new Promise(resolve => { setTimeout(resolve, Math.max(0, spec.toReal(specMs))); }),
  };
  return clock;
}
