// A timer that never fires before its time on the reference clock. Node's
// setTimeout counts from the event loop's cached time, so on a busy loop it can
// fire several ms early; a retry that comes early, or a request given up before
// 5 s, would break spec 6.5 and 6.6, so the dispatcher re-arms until the time is reached.
import type { Clock, Timer } from '../clock.ts';

export function afterAtLeast(clock: Clock, specMs: number, fn: () => void): Timer {
  const due = clock.now() + specMs;
  let current: Timer;
  const check = () => {
    const left = due - clock.now();
    if (left > 0) current = clock.after(left, check);
    else fn();
  };
  current = clock.after(specMs, check);
  return { cancel: () => current.cancel() };
}
