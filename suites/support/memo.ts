// A step done once per worker (a payment, a confirm-funds probe) whose answer
// several checks read: the exchanges it made are kept, and every check that
// reads the answer gets them as its own evidence (with their answers, so a
// failure can point at the exchange it is about), whichever check asked first.
import type { Evidence, HttpEvidence } from '../../harness/results/model.ts';
import type { ExchangeRequest, ExchangeResponse } from '../../harness/http/exchange.ts';
import { CheckContext } from './check.ts';

const SETUP = { id: 'setup', title: 'a step several checks share', spec: '', quote: '' };

/** A context that remembers which evidence each answer came with (also the watches of waits.ts). */
export class Recorder extends CheckContext {
  readonly answers = new Map<ExchangeResponse, HttpEvidence>();
  override async http(req: ExchangeRequest): Promise<ExchangeResponse> {
    const res = await super.http(req);
    this.answers.set(res, this.evidence[this.evidence.length - 1] as HttpEvidence);
    return res;
  }
  override adopt(evidence: readonly Evidence[], answers: Iterable<[ExchangeResponse, HttpEvidence]> = []): void {
    const list = [...answers];
    super.adopt(evidence, list);
    for (const [res, e] of list) this.answers.set(res, e);
  }
}

interface Entry<T> { promise: Promise<T>; ctx: Recorder; shown: WeakSet<CheckContext> }

export class Memo<T> {
  private readonly entries = new Map<string, Entry<T>>();

  /** The answer of `step` for `key`, made once; its exchanges are added to `c`'s evidence (once per check). */
  async get(c: CheckContext | null, key: string, step: (c: CheckContext) => Promise<T>): Promise<T> {
    let e = this.entries.get(key);
    if (!e) {
      const ctx = new Recorder(SETUP);
      e = { ctx, promise: step(ctx), shown: new WeakSet() };
      this.entries.set(key, e);
    }
    try {
      return await e.promise;
    } finally {
      if (c && !e.shown.has(c)) {
        e.shown.add(c);
        c.adopt(e.ctx.evidence, e.ctx.answers);
      }
    }
  }
}
