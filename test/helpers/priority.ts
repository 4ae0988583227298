// Test files that judge milliseconds (a sender's 5 s window, a backoff's
// growth, a receiver's latency, on a compressed clock with a few hundred ms of
// tolerance) share two cores with files of CPU-bound proof runs (a Playwright
// run each). On a busy machine such a file waits its turn for the CPU, its
// event loop stalls past its tolerance, and its timing cannot be judged: the
// case is run again, and fails when it stalls again (test/sink/stall.ts).
// These files use little CPU, so they may ask the scheduler to run them first
// without slowing the rest: a higher priority (a lower nice value) for every
// thread of the process (on Linux a priority is a thread's: the garbage
// collector's helper threads would stay behind), which the servers it starts,
// the threads it creates and the children it spawns afterwards share. Only a
// privileged user may raise a priority; for anyone else this changes nothing
// and the cases judge as before.
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

let asked: boolean | undefined;

/** Raises this process's priority once, where permitted; says whether it was. */
export function judgesMilliseconds(): boolean {
  if (asked === undefined) {
    try {
      setPriority(constants.priority.PRIORITY_HIGH);
      let threads: string[] = [];
      try { threads = readdirSync('/proc/self/task'); } catch { /* not Linux: the process's priority is all there is */ }
      for (const tid of threads) setPriority(Number(tid), constants.priority.PRIORITY_HIGH);
      asked = true;
    } catch {
      asked = false;
    }
  }
  return asked;
}
