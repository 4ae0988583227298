// receiver.accepts: the receiver answers 200 to every body the service may send.
// This prefix judges the status code only; how long answers took is
// receiver.latency's (so a slow receiver is reported once, under latency).
import type { CheckDef } from './check.ts';
import { every, timed } from './check.ts';
import type { Ctx } from './context.ts';
import type { PlannedBody } from './plan.ts';
import type { Delivery } from './transport.ts';

// Spec 6.4: "The receiver must answer each request with status code 200. Any
// other status code triggers another attempt to deliver the same event."
const CHECKS: Record<string, Omit<CheckDef, 'id'>> = {
  'normal-statuses': { title: 'A normal checkout body of every CheckoutStatus, with its transactionStatus, gets 200', spec: '6.4', level: 'must' },
  'batch-statuses': { title: 'A batch checkout body of every CheckoutStatus gets 200', spec: '6.4', level: 'must' },
  // Spec 2.4: abortReason "may be populated when status is TIMED_OUT, FAILED or CANCELLED".
  'abort-reasons': { title: 'A body with each abortReason gets 200', spec: '2.4', level: 'must' },
  // Spec 2.3: "Both appear; the builder must accept and tolerate either."
  'scheduled-date': { title: 'A body with the scheduledDate spelling gets 200', spec: '2.3', level: 'must' },
  'payment-scheduled-date': { title: 'A body with the paymentScheduledDate spelling gets 200', spec: '2.3', level: 'must' },
  // Spec 2.5: "An earlier form of the body omits id, ... Receivers should accept it."
  'older-variant': { title: 'The older webhook variant gets 200', spec: '2.5', level: 'should' },
  // Spec 6.4 again: each request, so also a body with fields added after the receiver was written.
  'unknown-fields': { title: 'A body with unknown extra fields gets 200', spec: '6.4', level: 'must' },
};

/** Sends every group one delivery at a time and emits one check per group; returns every delivery. */
export async function runAccepts(ctx: Ctx, groups: Record<string, PlannedBody[]>): Promise<Delivery[]> {
  const all: Delivery[] = [];
  for (const [name, bodies] of Object.entries(groups)) {
    const def = { id: `receiver.accepts.${name}`, ...CHECKS[name] };
    ctx.emit(await timed(def, async () => {
      const sent: Delivery[] = [];
      for (const b of bodies) sent.push(await ctx.t.post(b.body, { kind: b.kind, label: b.label }));
      all.push(...sent);
      return every(sent, d => d.status === 200, 'exactly 200');
    }));
  }
  return all;
}
