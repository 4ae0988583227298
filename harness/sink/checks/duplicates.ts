// webhook.duplicates: deliveries of an event after it was acknowledged.
import { deliveries } from './result.ts';
import { notRun, passed, type Outcome } from '../../check/outcome.ts';
import type { CheckDef } from '../../check/def.ts';
import type { RunView } from './view.ts';

// Spec 6.3: "Delivery is at least once. The receiver must expect duplicates."
// Duplicates are counted and shown, never failed: the spec allows them, and
// catalog quirk `webhook-duplicates` proves the suite passes a sender that sends
// every event twice. It is the one webhook check that cannot fail, on purpose.
export const DUPLICATES: CheckDef = {
  id: 'webhook.duplicates.counted', requirements: ['R6.3-at-least-once'],
  title: 'Deliveries of an event after its 200 are counted (at least once allows them)', spec: '6.3',
  quote: 'Delivery is at least once. The receiver must expect duplicates.',
};

export function checkDuplicates(view: RunView): Outcome {
  if (!view.all.length) return notRun('no delivery attempt arrived');
  const dups = view.checkouts.flatMap(c => c.events.flatMap(e =>
    e.ackAt === undefined ? [] : e.attempts.filter(a => a.arrived >= e.ackAt!)));
  const events = new Set(dups.map(a => `${a.d.checkoutId}#${a.event}`)).size;
  const message = dups.length
    ? `${dups.length} duplicate deliveries of ${events} acknowledged events (allowed: delivery is at least once)`
    : 'no event was delivered again after its 200';
  return passed(message, dups.length ? [deliveries(dups)] : []);
}
