// Timing checks judge milliseconds; a test process whose event loop stalls for
// longer than the tolerance (two cores shared with the whole test suite) cannot
// tell a fault from its own lateness. Cases measure the stalls of their process;
// when a stall exceeded the tolerance the reference cases judge again alone and
// then fail naming the stalls (reference-cases.ts), other tests skip their
// timing assertions with the reason.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface StallWatch { stop(): number }

/** Starts watching this process's event loop; stop() returns the longest stall in ms. */
export function watchStalls(): StallWatch {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return { stop: () => { h.disable(); return h.max / 1e6; } };
}
