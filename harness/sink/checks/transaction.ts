// webhook.body.transaction-status: the payment's own status (spec 3.2) in the
// body, against the checkout's status (spec 3.1) and across events.
import type { CheckDef } from '../../check/def.ts';
import { TRANSACTION_STATUSES } from '../../contracts/enums.ts';
import { transactionStatusExpected } from '../../contracts/rules.ts';
import { showFact, type Fact } from './facts.ts';
import { readable, where } from './body.ts';
import { verdict, type Finding } from './result.ts';
import { notRun, type Outcome } from '../../check/outcome.ts';
import type { AttemptView, RunView } from './view.ts';

// Spec 2.2: transactionStatus "Status of the individual payment. Included as soon
// as the end user authorizes the payment." Spec 6.1: "Its body carries the current
// status and, once the end user has authorized, transactionStatus." Spec 3.2:
// PAYMENT_COMPLETED, PAYMENT_FAILED, PAYMENT_CANCELLED, PAYMENT_NONTRACKABLE "Final".
export const TRANSACTION_STATUS: CheckDef = {
  id: 'webhook.body.transaction-status',
  requirements: ['R6.1-transaction-status-once-authorized', 'R3.2-transaction-status-final'],
  title: 'transactionStatus is there once the payment is authorised, and a final one never changes', spec: '3.2',
  quote: 'Its body carries the current status and, once the end user has authorized, transactionStatus.',
};
// Spec 3.1 and 3.2 name the meanings of both statuses but rule on no pairing of
// them ("Transitions: not shown"): a transactionStatus that contradicts the
// checkout's status is a should finding, never a must.
export const TRANSACTION_AGREES: CheckDef = {
  id: 'webhook.body.transaction-status-agrees', requirements: ['R6.1-transaction-status-once-authorized'],
  title: 'transactionStatus does not contradict the checkout\'s status (authorised values once authorised, none claimed before)', spec: '3.2',
  quote: 'PAYMENT_INITIATED | End user authorized the payment. | Last end-user step.',
};

/** Values of 3.2 that say the end user has authorised (PAYMENT_INITIATED and what only follows it). */
const AUTHORISED = new Set(['PAYMENT_INITIATED', 'PAYMENT_COMPLETED', 'PAYMENT_FAILED', 'PAYMENT_CANCELLED', 'PAYMENT_NONTRACKABLE']);
/** Values of 3.2 marked Final. */
const FINAL = new Set(['PAYMENT_COMPLETED', 'PAYMENT_FAILED', 'PAYMENT_CANCELLED', 'PAYMENT_NONTRACKABLE']);
/** Values that claim an authorisation the checkout's status denies while it waits for the end user. */
const CLAIMS_AUTHORISED = new Set(['PAYMENT_INITIATED', 'PAYMENT_COMPLETED', 'PAYMENT_NONTRACKABLE']);

/** A payment without transactionStatus once the end user has authorised (spec 2.2, 6.1 state it outright), or null. */
function transactionStatusFinding(status: string | undefined, tx: Fact | undefined): string | null {
  const given = tx !== undefined && tx !== null;
  if (transactionStatusExpected(status) && !given) return `no transactionStatus, though status ${status} means the end user has authorised (spec 6.1)`;
  return null;
}

/**
 * Why one payment's transactionStatus contradicts the checkout's status, or
 * null. Every other pairing is allowed (a batch's payments may settle one by
 * one; a failed checkout may or may not have reached its bank):
 * - once authorised (PAYMENT_INITIATED and the poller statuses) it is itself an
 *   authorised value; at a poller status of a normal checkout, the same value
 *   (one payment, one poller);
 * - before authorisation (STARTED, PAYMENT_CREATED) it does not claim the
 *   payment was authorised.
 */
function contradiction(status: string | undefined, kind: 'normal' | 'batch', tx: Fact | undefined): string | null {
  if (transactionStatusExpected(status)) {
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

/** Bodies of spec 2.2 and 2.3, and the first payment of each that `why` faults (one finding per body). */
function perPayment(view: RunView,
  why: (status: string | undefined, kind: 'normal' | 'batch', tx: Fact | undefined) => string | null): { all: AttemptView[]; findings: Finding[] } {
  const all = readable(view).filter(a => a.facts.kind === 'normal' || a.facts.kind === 'batch');
  const findings: Finding[] = [];
  for (const a of all) {
    const kind = a.facts.kind as 'normal' | 'batch';
    for (const [i, p] of a.facts.payments.entries()) {
      const w = why(a.status, kind, p.transactionStatus);
      if (w) { findings.push({ message: `${where(a)}${kind === 'batch' ? `, payment ${i}` : ''}: ${w}`, attempts: [a] }); break; }
    }
  }
  return { all, findings };
}

export function checkTransactionStatus(view: RunView): Outcome {
  const { all, findings } = perPayment(view, (status, _kind, tx) => transactionStatusFinding(status, tx));
  if (!all.length) return notRun('no webhook body of spec 2.2 or 2.3 arrived');
  findings.push(...finalChanged(view));
  return verdict('transactionStatus once authorised, final values kept', findings,
    `${all.length} bodies: transactionStatus present from authorisation on, no final value changed`);
}

export function checkTransactionAgrees(view: RunView): Outcome {
  const { all, findings } = perPayment(view, contradiction);
  if (!all.length) return notRun('no webhook body of spec 2.2 or 2.3 arrived');
  return verdict('transactionStatus not contradicting the checkout status', findings,
    `${all.length} bodies: no transactionStatus contradicted its checkout status`);
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
