// webhook.states: which statuses a checkout's webhooks carried, against what its
// checkout request asked for: every status became an event (spec 6.1), and a
// payment that needs strong customer authentication passes through
// PAYMENT_CREATED (spec 3.1, 6.2).
import type { CheckDef } from '../../check/def.ts';
import { CHECKOUT_STATUSES } from '../../contracts/enums.ts';
import { PlaceLedger } from '../../results/places.ts';
import { listed, verdict, type Finding, withoutRequests } from './result.ts';
import { notRun, placed, type Outcome } from '../../check/outcome.ts';
import { honoured, notHonoured } from './fields.ts';
import { disorderedCheckouts } from './order.ts';
import { sec, type CheckoutView, type RunView } from './view.ts';
import { factsOf } from './facts.ts';

// Spec 6.1: "An event is delivered every time a status update of a checkout is detected."
export const EVERY_STATUS: CheckDef = {
  id: 'webhook.states.every-status-sent', requirements: ['R6.1-event-per-update'],
  title: 'Every status the control API accepted is sent as a webhook, each of the ten CheckoutStatus values', spec: '6.1',
  quote: 'An event is delivered every time a status update of a checkout is detected.',
  bindsAt: { family: 'checkout-status' },
};
// Spec 3.1: "PAYMENT_CREATED | End user started the payment but has not authorized
// it. | Sent when strong customer authentication is needed." Spec 6.2: "PAYMENT_CREATED
// is sent when strong customer authentication is needed."
export const SCA: CheckDef = {
  id: 'webhook.states.sca-payment-created', requirements: ['R3.1-payment-created-when-sca'],
  title: 'A checkout whose payment needs strong customer authentication sends PAYMENT_CREATED before PAYMENT_INITIATED', spec: '6.2',
  quote: 'PAYMENT_CREATED is sent when strong customer authentication is needed.',
};

/** Planned checkouts the control API accepted, with what the sink saw of them (undefined: nothing arrived). */
function accepted(view: RunView): Array<{ name: string; id: string; statuses: string[]; sca: boolean; c?: CheckoutView }> {
  const out: Array<{ name: string; id: string; statuses: string[]; sca: boolean; c?: CheckoutView }> = [];
  for (const p of view.plan.values()) {
    const id = p.control?.id, r = p.plan.request;
    // A forbidden request a control API accepted need not be delivered whole (webhook.states.forbidden-refused judges it).
    if (!id || !r || p.control!.status >= 300 || p.plan.forbidden) continue;
    out.push({ name: p.plan.name, id, statuses: r.statuses, sca: r.sca === true, c: view.byId.get(id) });
  }
  return out;
}

/** What one accepted checkout sent of the statuses it asked for. */
export interface StatusesSent {
  x: ReturnType<typeof accepted>[number] & { c: CheckoutView };
  seen: Set<string | undefined>;
  lastSeen: number;
  /** Statuses not sent with the key that were due: before the last one seen, or watched for the run's retry wait after it. */
  due: string[];
  /** Statuses not sent with the key that attempts without the registered api-key carried (not counted as the sender's). */
  unkeyed: Set<string>;
}

/**
 * Per accepted checkout that sent anything, the statuses it asked for against
 * those its attempts with the registered api-key carried (spec 6.1), and those
 * that came only without the key.
 */
export function statusesSent(view: RunView): StatusesSent[] {
  const list = accepted(view);
  const ids = new Set(list.map(x => x.id));
  // Per checkout, the statuses that attempts not counted as the sender's carried.
  const sentUnkeyed = new Map<string, Set<unknown>>();
  for (const y of view.strangers) if (y.d.checkoutId && ids.has(y.d.checkoutId)) {
    if (!sentUnkeyed.has(y.d.checkoutId)) sentUnkeyed.set(y.d.checkoutId, new Set());
    sentUnkeyed.get(y.d.checkoutId)!.add(factsOf(y.d).status);
  }
  return list.flatMap(x => {
    if (!x.c) return [];
    const seen = new Set(x.c.events.map(e => e.status));
    const lastSeen = x.statuses.reduce((m, s, i) => seen.has(s) ? i : m, -1);
    // After the last status seen was acknowledged, the next one is due at once; watched for
    // the run's retry wait (view.retryWait) more without it, it is lost too.
    const lastAck = x.c.events.find(e => e.status === x.statuses[lastSeen])?.ackAt;
    const watchedOn = lastAck !== undefined && view.until - lastAck >= view.retryWait;
    return [{ x: { ...x, c: x.c }, seen, lastSeen, due: x.statuses.filter((s, i) => !seen.has(s) && (i < lastSeen || watchedOn)),
      unkeyed: new Set(x.statuses.filter(s => !seen.has(s) && sentUnkeyed.get(x.id)?.has(s))) }];
  });
}

/**
 * A status asked for but never attempted, while the sender went on to a later one
 * or was watched long enough: lost. A status still in its retries is not lost
 * (webhook.retry judges those), and a run that ended early says nothing of what
 * was still to come. A status that came only in attempts without the registered
 * api-key was sent, though not counted as the sender's: webhook.auth.api-key
 * fails it, and whether it was delivered is not known here.
 */
export function checkEveryStatus(view: RunView): Outcome {
  const list = accepted(view);
  if (!list.length)
    return withoutRequests(view, 'no checkout was created through the control API, so there is no list of statuses to compare with');
  const findings: Finding[] = [];
  const places = new PlaceLedger('checkout-status', CHECKOUT_STATUSES);
  const sent = statusesSent(view);
  for (const { x, seen, lastSeen, due, unkeyed } of sent) {
    const missing = due.filter(s => !unkeyed.has(s));
    for (const s of x.statuses) {
      if (seen.has(s)) places.pass(s);
      else if (unkeyed.has(s)) places.skip(s, `sent only in attempts without the registered api-key (checkout ${x.id}), which are not ` +
        'counted as the sender\'s (see webhook.auth.api-key)');
      else if (missing.includes(s)) places.fail(s);
      else places.skip(s, `still to come when the sink stopped watching, ${sec(view.until)} into the run (checkout ${x.id}; ` +
        `the drive stops after ${sec(view.retryWait)} without an attempt: a sender with a longer backoff is waited for with a longer --retry-wait)`);
    }
    if (missing.length) findings.push({
      message: `checkout ${x.id} ('${x.name}'): ${listed(missing)} never arrived, though ${x.statuses[lastSeen] ?? 'nothing asked for'} did ` +
        `(asked for ${x.statuses.join(' → ')})`,
      attempts: x.c.attempts,
    });
  }
  const silent = list.filter(x => !x.c);
  if (!sent.length) return notRun(`none of the ${list.length} checkouts created through the control API sent a webhook`);
  return placed(verdict('every accepted status sent as an event', findings,
    `${sent.length} checkouts: every status up to the last one seen arrived` +
      `${silent.length ? `; ${silent.length} sent nothing (${listed(silent.map(x => x.id))})` : ''}`), places);
}

export function checkSca(view: RunView): Outcome {
  const all = accepted(view).filter(x => x.sca && x.c);
  if (!all.length) return withoutRequests(view, 'no checkout asked for strong customer authentication sent a webhook');
  const list = all.filter(x => honoured(x.c!, 'sca', x.c!.events.some(e => e.status === 'PAYMENT_CREATED')));
  if (!list.length) return notRun(notHonoured('sca', all.length, all.map(x => x.c)));
  const disordered = disorderedCheckouts(view);
  const findings: Finding[] = [];
  for (const x of list) {
    const order = x.c!.attempts.map(a => a.status);
    const created = order.indexOf('PAYMENT_CREATED'), initiated = order.indexOf('PAYMENT_INITIATED');
    if (created < 0) findings.push({
      message: `checkout ${x.id} ('${x.name}') needed strong customer authentication but sent no PAYMENT_CREATED (it sent ${[...new Set(order)].join(' → ')})`,
      attempts: x.c!.attempts,
    });
    // Out of order only because the sender broke the acknowledgement gate: webhook.order.ack-gated's fault, not this check's.
    else if (initiated >= 0 && initiated < created && !disordered.has(x.id))
      findings.push({ message: `checkout ${x.id} ('${x.name}') sent PAYMENT_CREATED only after PAYMENT_INITIATED`, attempts: x.c!.attempts });
  }
  return verdict('PAYMENT_CREATED before PAYMENT_INITIATED on a checkout that needs strong customer authentication', findings,
    `${list.length} checkouts needing strong customer authentication sent PAYMENT_CREATED first`);
}
