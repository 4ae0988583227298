// A compressed clock that a test can also jump forward: skip(d) adds d spec ms at
// once and fires every timer that became due. Lets the 7-day drop (spec 6.7) be
// tested with real requests and the spec's 5 s limit intact, which a 1e-6 scale cannot.
import type { Clock, Timer } from '../../../harness/reference/clock.ts';
import { specClock } from '../../../harness/clock.ts';

interface Pending { due: number; fn: () => void; handle?: NodeJS.Timeout }

export interface SkipClock extends Clock {
  skip(specMs: number): void;
}

export function skipClock(scale: number): SkipClock {
  const spec = specClock(scale);
  const t0 = performance.now();
  let offset = 0;
  const pending = new Set<Pending>();
  const arm = (p: Pending) => {
    if (p.handle) clearTimeout(p.handle);
    p.handle = setTimeout(() => { pending.delete(p); p.fn(); }, Math.max(0, spec.toReal(p.due - clock.now())));
  };
  const clock: SkipClock = {
    ...spec,
    now: () => spec.toSpec(performance.now() - t0) + offset,
    date: () => new Date(Date.UTC(2026, 10, 22) + clock.now()),
    after(specMs, fn): Timer {
      const p: Pending = { due: clock.now() + specMs, fn };
      pending.add(p);
      arm(p);
      return { cancel: () => { pending.delete(p); if (p.handle) clearTimeout(p.handle); } };
    },
    sleep: specMs => new Promise(resolve => { clock.after(specMs, resolve); }),
    skip(specMs) {
      offset += specMs;
      for (const p of pending) arm(p);
    },
  };
  return clock;
}
