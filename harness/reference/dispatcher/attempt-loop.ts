// The attempt loop for one delivery of one event (spec 6.3-6.7): send, and on
// anything but a timely 200 wait the backoff counted from the end of the failed
// attempt, then send again, until delivered or 7 days after the event was created.
import type { Clock } from '../clock.ts';
import type { DeliveryPolicy } from './policy.ts';
import { send, SendClosedError, type Connections } from './send.ts';
import { afterAtLeast } from './timer.ts';
import type { AttemptOutcome, EventRecord, OutgoingEvent, ReferenceAttempt } from './types.ts';

export interface LoopContext {
  clock: Clock;
  policy: DeliveryPolicy;
  connections: Connections;
  /** Fires when the dispatcher closes: the loop stops without logging anything more. */
  closed: AbortSignal;
  log(attempt: ReferenceAttempt): void;
  /**
   * Under `webhook-global-retry-queue`: waits for the one turn to retry that all
   * checkouts share, and resolves with its release, or undefined when the dispatcher closed first.
   */
  retryTurn?: () => Promise<(() => void) | undefined>;
  /** Called after the record changed state (delivered or dropped). */
  settled(record: EventRecord): void;
}

/** The request headers of attempt n; the api-key is left out only under `webhook-retry-no-api-key`. */
function headersFor(ctx: LoopContext, ev: OutgoingEvent, attempt: number): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (ctx.policy.sendsApiKey(attempt)) headers['api-key'] = ev.target.apiKey;
  return headers;
}

/** Resolves true after specMs, or false at once when the dispatcher closes first. */
function pause(ctx: LoopContext, specMs: number): Promise<boolean> {
  if (ctx.closed.aborted) return Promise.resolve(false);
  return new Promise(resolve => {
    const onClose = () => { timer.cancel(); resolve(false); };
    const timer = afterAtLeast(ctx.clock, specMs, () => { ctx.closed.removeEventListener('abort', onClose); resolve(true); });
    ctx.closed.addEventListener('abort', onClose, { once: true });
  });
}

function drop(ctx: LoopContext, record: EventRecord, reason: string): void {
  record.state = 'dropped';
  record.droppedAtMs = ctx.clock.now();
  record.dropReason = reason;
  ctx.settled(record);
}

/** Runs every attempt of one delivery; never rejects. */
export async function deliver(ctx: LoopContext, ev: OutgoingEvent, record: EventRecord): Promise<void> {
  const turn: { release?: () => void } = {};
  try {
    await attempts(ctx, ev, record, turn);
  } finally {
    turn.release?.();
  }
}

async function attempts(ctx: LoopContext, ev: OutgoingEvent, record: EventRecord, turn: { release?: () => void }): Promise<void> {
  const { clock, policy } = ctx;
  const body = JSON.stringify(ev.body);
  const deadline = record.createdAtMs + policy.maxEventAgeMs;
  let previous: number | undefined;
  for (let n = 1; !ctx.closed.aborted; n++) {
    // Spec 6.7: "An event not delivered within 7 days is lost." No attempt starts at or after the deadline.
    if (clock.now() >= deadline) return drop(ctx, record, 'not delivered within 7 days (spec 6.7)');
    const headers = headersFor(ctx, ev, n);
    const begunAtMs = clock.now();
    let result;
    try {
      result = await send(ctx.connections, clock, ev.target.url, headers, body,
        { ms: policy.responseWaitMs, resetsOnData: policy.waitResetsOnData, pollMs: policy.waitPollMs }, ctx.closed);
    } catch (e) {
      if (e instanceof SendClosedError) return;
      throw e;
    }
    // Logged as they happened on the connection (send.ts), not when this loop decided to send or got to the result.
    const { sentAtMs = begunAtMs, endedAtMs } = result;
    const delivered = result.status !== undefined && policy.delivers(result.status);
    const outcome: AttemptOutcome = delivered ? 'delivered' : result.outcome;
    record.attempts = n;
    ctx.log({
      checkoutId: ev.checkoutId, event: ev.event, status: ev.status, attempt: n, copy: record.copy,
      sentAtMs, endedAtMs, outcome, written: result.sentAtMs !== undefined, headers: redactKey(headers),
      ...(result.error ? { error: result.error } : {}),
    });
    if (delivered) {
      record.state = 'delivered';
      record.deliveredAtMs = endedAtMs;
      return ctx.settled(record);
    }
    if (!policy.retries) return drop(ctx, record, 'not retried (fault webhook-no-retry)');
    if (n >= policy.maxAttempts) return drop(ctx, record, `given up after ${n} attempts (fault webhook-gives-up-after-${n})`);
    if (ctx.retryTurn && !turn.release) {
      turn.release = await ctx.retryTurn();
      if (!turn.release) return;
    }
    // Spec 6.5: the backoff runs from the end of the failed attempt (or from when it was
    // sent, under policy.backoffFrom); it is cut at the deadline so that the drop happens
    // at 7 days, not at the next backoff after it. Counted from the logged times, which
    // this loop reaches a little later.
    const from = policy.backoffFrom === 'start' ? sentAtMs : endedAtMs;
    previous = policy.retryDelayMs(n, previous, ev.event);
    const wait = Math.min(from + previous, deadline) - clock.now();
    if (!(await pause(ctx, Math.max(0, wait)))) return;
  }
}

/** The log never holds the api-key value: it may end up in a report (docs/report.md#secrets). */
function redactKey(headers: Record<string, string>): Record<string, string> {
  return 'api-key' in headers ? { ...headers, 'api-key': '[redacted]' } : { ...headers };
}
