// webhook.body.transaction-status: the payment's own status (spec 3.2) in the
// body, against the checkout's status (spec 3.1) and across events.
import type { CheckDef, Judged } from '../../report/check.ts';
import { TRANSACTION_STATUSES } from '../../contracts/enums.ts';
import { transactionStatusExpected } from '../../contracts/rules.ts';
import { showFact, type Fact } from './facts.ts';
import { readable, where } from './body.ts';
import { skipped, verdict, type Finding } from './result.ts';
import type { AttemptView, RunView } from './view.ts';

// Spec 2.2: transactionStatus "Status of the individual payment. Included as soon
// as the end user authorizes the payment." Spec 6.1: "Its body carries the current
// status and, once the end user has authorized, transactionStatus." Spec 3.2:
// PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_CANCELLED, PAYMENT_NONTRACKABLE "Final".
export const TRANSACTION_STATUS: CheckDef = {
  id: 'webhook.body.transaction-status',
  requirements: ['R6.1-transaction-status-once-authorized', 'R3.2-transaction-status-final'],
  title: 'transactionStatus is there once the payment is authorised, agrees with status, and a final one never changes', spec: '3.2',
  quote: 'Its body carries the current status and, once the end user has authorized, transactionStatus.',
};

/** Values of 3.2 that say the end user has authorised (PAYMENT_INITIATED and what only follows it). */
const AUTHORISED = new Set(['PAYMENT_INITIATED', 'PAYMENT_COMPLETED', 'PAYMENT_FAILED', 'PAYMENT_CANCELLED', 'PAYMENT_NONTRACKABLE']);
/** Values of 3.2 marked Final. */
const FINAL = new Set(['PAYMENT_COMPLETED', 'PAYMENT_FAILED', 'PAYMENT_CANCELLED', 'PAYMENT_NONTRACKABLE']);
/** Values that claim an authorisation the checkout's status denies while it waits for the end user. */
const CLAIMS_AUTHORISED = new Set(['PAYMENT_INITIATED', 'PAYMENT_COMPLETED', 'PAYMENT_NONTRACKABLE']);

/**
 * Why one payment's transactionStatus disagrees with the checkout's status, or
 * null. Only what 3.1 and 3.2 together settle is judged; every other pairing is
 * allowed (a batch's payments may settle one by one; a failed checkout may or may
 * not have reached its bank):
 * - once authorised (PAYMENT_INITIATED and the poller statuses) it is present and
 *   itself an authorised value; at a poller status of a normal checkout, the same
 *   value (one payment, one poller);
 * - before authorisation (STARTED, PAYMENT_CREATED) it may be absent, and it
 *   does not claim the payment was authorised.
 */
function transactionStatusFinding(status: string | undefined, kind: 'normal' | 'batch', tx: Fact | undefined): string | null {
  const given = tx !== undefined && tx !== null;
  if (transactionStatusExpected(status)) {
    if (!given) return `no transactionStatus, though status ${status} means the end user has authorised (spec 6.1)`;
    if (typeof tx !== 'string' || !TRANSACTION_STATUSES.includes(tx)) return null; // not a 3.2 value: webhook.body.valid
    if (!AUTHORISED.has(tx)) return `transactionStatus ${tx} with status ${status}: after authorisation it is PAYMENT_INITIATED or a final value (spec 3.2)`;
    if (kind === 'normal' && FINAL.has(status!) && tx !== status)
      return `transactionStatus ${tx} with status ${status}: the poller's final status of the one payment`;
    return null;
  }
  if ((status === 'STARTED' || status === 'PAYMENT_CREATED') && typeof tx === 'string' && CLAIMS_AUTHORISED.has(tx))
    return `transactionStatus ${tx} with status ${status}: the end user has not authorised yet`;
  return null;
}

export function checkTransactionStatus(view: RunView): Judged {
  const all = readable(view).filter(a => a.facts.kind === 'normal' || a.facts.kind === 'batch');
  if (!all.length) return skipped(TRANSACTION_STATUS, 'no webhook body of spec 2.2 or 2.3 arrived');
  const findings: Finding[] = [];
  for (const a of all) {
    const kind = a.facts.kind as 'normal' | 'batch';
    for (const [i, p] of a.facts.payments.entries()) {
      const why = transactionStatusFinding(a.status, kind, p.transactionStatus);
      if (why) { findings.push({ message: `${where(a)}${kind === 'batch' ? `, payment ${i}` : ''}: ${why}`, attempts: [a] }); break; }
    }
  }
  findings.push(...finalChanged(view));
  const judgedEvents = all.length;
  return verdict(TRANSACTION_STATUS, 'transactionStatus once authorised, agreeing with status, final values kept', findings,
    `${judgedEvents} bodies: transactionStatus present from authorisation on, agreeing with status, no final value changed`);
}

/** Spec 3.2 "Final": once an event of a checkout carried a final transactionStatus for a payment, later events keep it. */
function finalChanged(view: RunView): Finding[] {
  const out: Finding[] = [];
  for (const c of view.checkouts) {
    const final = new Map<number, { tx: string; a: AttemptView }>();
    for (const e of c.events) {
      const a = e.attempts.find(x => x.facts.unreadable === undefined && (x.facts.kind === 'normal' || x.facts.kind === 'batch'));
      if (!a) continue;
      let found = false;
      for (const [i, p] of a.facts.payments.entries()) {
        const before = final.get(i), tx = p.transactionStatus;
        if (before && tx !== undefined && tx !== null && tx !== before.tx) {
          out.push({
            message: `checkout ${c.id}: payment ${i} had the final transactionStatus ${before.tx} (${before.a.status}), then ${showFact(tx)} (${a.status})`,
            attempts: [before.a, a],
          });
          found = true;
          break;
        }
        if (!before && typeof tx === 'string' && FINAL.has(tx)) final.set(i, { tx, a });
      }
      if (found) break;
    }
  }
  return out;
}
