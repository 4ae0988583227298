// Reads the receiver's own view of a checkout through --state-url, a template
// such as https://merchant.example/checkouts/{id} that answers JSON carrying
// the checkout's status. The merchant's shape is unknown, so the status is
// looked for under the usual names, at the top or one object down
// ({"checkout": {"status": ...}}), or as a bare string body.
import { CHECKOUT_STATUSES } from '../contracts/enums.ts';
import { fmtMs } from './options.ts';
import { notRun } from '../check/outcome.ts';
import type { Delivery, Transport } from './transport.ts';

export interface StateRead { status?: string; read: Delivery; problem?: string }

const NAMES = ['status', 'checkoutStatus', 'lastStatus', 'state'];

function stateUrlFor(template: string, id: string): string {
  return template.split('{id}').join(encodeURIComponent(id));
}

/** The checkout status in a state answer, or undefined. */
export function statusIn(json: unknown, text: string): string | undefined {
  const isStatus = (v: unknown): v is string => typeof v === 'string' && CHECKOUT_STATUSES.includes(v);
  if (isStatus(json)) return json;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    for (const n of NAMES) if (isStatus(o[n])) return o[n] as string;
    for (const v of Object.values(o)) {
      if (v && typeof v === 'object' && !Array.isArray(v))
        for (const n of NAMES) if (isStatus((v as Record<string, unknown>)[n])) return (v as Record<string, unknown>)[n] as string;
    }
  }
  const bare = text.trim().replace(/^"|"$/g, '');
  return isStatus(bare) ? bare : undefined;
}

export async function readState(t: Transport, template: string, id: string): Promise<StateRead> {
  const read = await t.get(stateUrlFor(template, id), `state of checkout ${id}`);
  if (read.status === undefined) return { read, problem: `the state URL did not answer: ${read.error}` };
  if (read.status !== 200) return { read, problem: `the state URL answered ${read.status}` };
  const body = read.evidence.response?.body;
  const status = statusIn(read.json, typeof body === 'string' ? body : '');
  return status ? { read, status } : { read, problem: 'the state URL answered 200 without a checkout status in it' };
}

/** A state read once it settled, or the last one when it did not within the bound. */
export interface Settled extends StateRead {
  /** Real ms from the first read to this one. */
  afterMs: number;
  reads: number;
  settled: boolean;
}

/**
 * Arbitrary: the bound is the 5 s the service waits for an answer (spec 6.6).
 * A receiver may answer 200 at once and apply the event from a queue; one
 * whose state still lags after as long as the service would wait for its
 * answer keeps a checkout's state wrong for longer than it keeps the service waiting.
 */
export const SETTLE_SPEC_MS = 5_000;
/** Reads of a state that has not settled come 25 ms real apart at first, twice as far each time, at most a tenth of the bound. */
const FIRST_STEP_MS = 25;

/**
 * Reads the state of each checkout until `ok` holds for it (given its index in `ids`) (a queued receiver
 * applies events after it answered them) or `withinMs` real ms have passed;
 * a read without an answer ends that checkout's reading. Results in `ids` order.
 */
export async function settledStates(t: Transport, template: string, ids: readonly string[], ok: (s: StateRead, i: number) => boolean,
  withinMs: number): Promise<Settled[]> {
  const t0 = performance.now();
  const out: Settled[] = new Array(ids.length);
  let open = ids.map((_, i) => i);
  let step = FIRST_STEP_MS;
  for (;;) {
    const reads = await Promise.all(open.map(i => readState(t, template, ids[i])));
    const afterMs = performance.now() - t0;
    open = open.filter((i, k) => {
      const s = reads[k];
      const settled = ok(s, i);
      out[i] = { ...s, afterMs, reads: (out[i]?.reads ?? 0) + 1, settled };
      return !settled && s.read.status !== undefined && !s.read.notSent;
    });
    if (!open.length || afterMs >= withinMs) return out;
    await t.pause(Math.min(step, withinMs - afterMs));
    step = Math.min(step * 2, withinMs / 10);
  }
}

/** A check that reads the receiver's state, without --state-url. */
export const NEEDS_STATE_URL = notRun("needs --state-url, the receiver's own view of a checkout: " +
  "an address that answers a checkout's status as JSON, e.g. https://merchant.example/checkouts/{id}", 'give --state-url');

/** "read 3 times over 180 ms": how long a queued receiver took. */
export function settledIn(s: Settled): string {
  return s.reads === 1 ? (s.settled ? 'at the first read' : 'read once') : `read ${s.reads} times over ${fmtMs(s.afterMs)} ms`;
}
