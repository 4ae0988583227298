// A step done once per worker (a payment, a confirm-funds probe) whose answer
// several checks read: the exchanges it made are kept, and every check that
// reads the answer gets them as its own evidence, so a failure always shows
// the exchange it is about, whichever check happened to ask first.
import { CheckContext } from './check.ts';

const SETUP = { id: 'setup', title: 'a step several checks share', spec: '', level: 'must' as const, quote: '' };

interface Entry<T> { promise: Promise<T>; ctx: CheckContext; shown: WeakSet<CheckContext> }

export class Memo<T> {
  private readonly entries = new Map<string, Entry<T>>();

  /** The answer of `step` for `key`, made once; its exchanges are added to `c`'s evidence (once per check). */
  async get(c: CheckContext | null, key: string, step: (c: CheckContext) => Promise<T>): Promise<T> {
    let e = this.entries.get(key);
    if (!e) {
      const ctx = new CheckContext(SETUP);
      e = { ctx, promise: step(ctx), shown: new WeakSet() };
      this.entries.set(key, e);
    }
    try {
      return await e.promise;
    } finally {
      if (c && !e.shown.has(c)) {
        e.shown.add(c);
        c.evidence.push(...e.ctx.evidence);
      }
    }
  }
}
