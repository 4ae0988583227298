// The reference's webhook dispatcher (spec section 6): one lane per checkout so
// events of a checkout go out in order, each only after the previous one was
// acknowledged, while checkouts proceed in parallel over an unlimited pool.
// It keeps the attempt log (what every receiver saw, attempt for attempt) and
// the state of every event.
//
// Decisions where spec section 6 leaves room (each also noted where it is made):
// - A dropped event (7 days old, 6.7) does not stop its checkout: the next event
//   follows. An event waiting behind another counts its own 7 days from its
//   creation, and is dropped without an attempt if they ran out while it waited.
// - No attempt starts at or after the deadline; a backoff is cut at it.
// - Backoff runs from the end of the failed attempt: the answer, the error, or
//   the abort at 5 s. Timers never fire early (timer.ts).
// - `webhook-global-retry-queue` gives one turn to retry at a time, for all
//   checkouts: a failed event holds it until it is delivered or dropped.
// - `webhook-duplicates` sends a second copy of each event once the first was
//   delivered, so order is kept (n, n, n+1, n+1).
// - The attempt log shows the api-key as [redacted]; close() aborts requests in
//   flight without logging them.
import { setMaxListeners } from 'node:events';
import type { Clock } from '../clock.ts';
import { deliver, type LoopContext } from './attempt-loop.ts';
import { Lane } from './lane.ts';
import { deliveryPolicy, type DeliveryPolicy } from './policy.ts';
import { createConnections } from './send.ts';
import type { EventRecord, OutgoingEvent, ReferenceAttempt } from './types.ts';
import type { CatalogName } from '../catalog-names.ts';

export type { EventRecord, OutgoingEvent, ReferenceAttempt, WebhookTarget } from './types.ts';
export { deliveryPolicy, type DeliveryPolicy } from './policy.ts';

interface Waiter { done: () => boolean; resolve: () => void }

export class Dispatcher {
  private readonly lanes = new Map<string, Lane>();
  private readonly log: ReferenceAttempt[] = [];
  private readonly records: EventRecord[] = [];
  /** Per checkout, so that one checkout's look-ups and settling cost nothing with thousands of others. */
  private readonly logOf = new Map<string, ReferenceAttempt[]>();
  private readonly recordsOf = new Map<string, EventRecord[]>();
  private readonly pendingOf = new Map<string, number>();
  private pending = 0;
  private readonly waiters = new Set<Waiter>();
  private readonly closer = new AbortController();
  private readonly ctx: LoopContext;
  readonly policy: DeliveryPolicy;

  constructor(private readonly clock: Clock, faults: ReadonlySet<CatalogName> | DeliveryPolicy = new Set()) {
    this.policy = faults instanceof Set ? deliveryPolicy(faults) : faults as DeliveryPolicy;
    // Every request in flight and every backoff listens for close: thousands at once are expected.
    setMaxListeners(0, this.closer.signal);
    this.ctx = {
      clock, policy: this.policy, connections: createConnections(), closed: this.closer.signal,
      log: a => {
        this.log.push(a);
        this.listOf(this.logOf, a.checkoutId).push(a);
      },
      ...(this.policy.globalRetryQueue ? { retryTurn: () => this.retryTurn() } : {}),
      settled: r => {
        this.pending--;
        this.pendingOf.set(r.checkoutId, (this.pendingOf.get(r.checkoutId) ?? 1) - 1);
        this.wake();
      },
    };
  }

  /** Takes an event the moment its status change was detected; it goes out under spec 6's rules. */
  enqueue(ev: OutgoingEvent): void {
    if (this.closer.signal.aborted) return;
    for (let copy = 1; copy <= this.policy.copies; copy++) {
      const record: EventRecord = { checkoutId: ev.checkoutId, event: ev.event, copy, status: ev.status,
        createdAtMs: this.clock.now(), state: 'pending', attempts: 0 };
      this.records.push(record);
      this.listOf(this.recordsOf, ev.checkoutId).push(record);
      this.pending++;
      this.pendingOf.set(ev.checkoutId, (this.pendingOf.get(ev.checkoutId) ?? 0) + 1);
      this.laneFor(ev.checkoutId).push(() => deliver(this.ctx, ev, record));
    }
  }

  /** Every attempt so far, in the order they ended; only one checkout's when an id is given. */
  attempts(checkoutId?: string): ReferenceAttempt[] {
    return [...(checkoutId === undefined ? this.log : this.logOf.get(checkoutId) ?? [])];
  }

  /** The state of every event so far (copies included), in creation order. */
  events(checkoutId?: string): EventRecord[] {
    return (checkoutId === undefined ? this.records : this.recordsOf.get(checkoutId) ?? []).map(r => ({ ...r }));
  }

  /** Resolves once every event enqueued so far (of one checkout, when given) is delivered or dropped. */
  settled(checkoutId?: string): Promise<void> {
    const done = () => (checkoutId === undefined ? this.pending : this.pendingOf.get(checkoutId) ?? 0) === 0;
    if (done() || this.closer.signal.aborted) return Promise.resolve();
    return new Promise(resolve => this.waiters.add({ done, resolve }));
  }

  /** Stops every lane, aborts requests in flight (not logged) and closes the connection pool. */
  async close(): Promise<void> {
    if (this.closer.signal.aborted) return;
    this.closer.abort();
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
    await this.ctx.connections.destroy();
  }

  /**
   * The lane an event joins: its checkout's (spec 6.8 and 6.9); one shared lane
   * under `webhook-global-queue`; a fresh lane per event under
   * `webhook-no-ack-gating`, so the next event goes out before the previous one's answer.
   */
  private laneFor(checkoutId: string): Lane {
    if (!this.policy.ackGating) return new Lane();
    const key = this.policy.globalQueue ? '*' : checkoutId;
    let lane = this.lanes.get(key);
    if (!lane) {
      // A lane that ran dry is forgotten, so 1,000s of finished checkouts hold no memory beyond their log.
      const fresh: Lane = new Lane(() => { if (this.lanes.get(key) === fresh) this.lanes.delete(key); });
      lane = fresh;
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** The end of the queue of retry turns (`webhook-global-retry-queue`): resolves when the last turn given out is released. */
  private retryTail: Promise<void> = Promise.resolve();

  /** Waits for every earlier turn to be released; resolves with this turn's release, or undefined on close. */
  private retryTurn(): Promise<(() => void) | undefined> {
    let release!: () => void;
    const mine = new Promise<void>(resolve => { release = resolve; });
    const before = this.retryTail;
    this.retryTail = before.then(() => mine);
    const closed = new Promise<undefined>(resolve => {
      if (this.closer.signal.aborted) resolve(undefined);
      else this.closer.signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    return Promise.race([before.then(() => release), closed]);
  }

  private listOf<T>(map: Map<string, T[]>, key: string): T[] {
    let list = map.get(key);
    if (!list) map.set(key, list = []);
    return list;
  }

  private wake(): void {
    for (const w of this.waiters) if (w.done()) { this.waiters.delete(w); w.resolve(); }
  }
}
