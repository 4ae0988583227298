// webhook.auth: the api-key on every attempt, retries included.
import { fromFindings, verdict, type Finding } from './result.ts';
import { notRun, type Outcome } from '../../check/outcome.ts';
import type { Evidence } from '../../results/model.ts';
import type { CheckDef } from '../../check/def.ts';
import { strangersNaming as namingAfter, type RunView } from './view.ts';
import { statusesSent } from './delivered.ts';

/** The traffic the analysis did not count as the sender's, in one line of counts; undefined when there was none. */
function strangersNote(view: RunView): Evidence | undefined {
  if (!view.strangers.length) return undefined;
  const noKey = view.strangers.filter(x => x.why.startsWith('no api-key')).length;
  const more = view.opts.strangersNotKept ? `; ${view.opts.strangersNotKept} more came and were counted, not kept` : '';
  return { kind: 'note', text: `${view.strangers.length} attempts were not counted as the sender's and not judged ` +
    `(${noKey} without an api-key, ${view.strangers.length - noKey} with another one${more}): ` +
    `an attempt without the registered api-key is a stranger's, whatever checkout it names; anyone who knows the sink's address can post to it` };
}

// Spec 5.4: "Every webhook request carries the key in the api-key header; the
// receiver verifies it to confirm the sender." Spec 4.3: "Header: api-key with
// the value that the customer registered."
export const API_KEY: CheckDef = {
  id: 'webhook.auth.api-key', requirements: ['R5.4-api-key-every-request', 'R5.4-key-any-format'],
  title: 'Every attempt, retries included, carries the registered api-key', spec: '5.4',
  quote: 'Every webhook request carries the key in the api-key header; the receiver verifies it to confirm the sender.',
};

export function checkApiKey(view: RunView): Outcome {
  if (!view.opts.apiKey && ![...view.plan.values()].some(p => p.apiKey))
    return notRun('no webhook api-key was configured, so there is nothing to compare the header with');
  const note = strangersNote(view);
  if (!view.all.length) {
    if (!note) return notRun('no delivery attempt arrived');
    // Nothing carried the key: either the sender leaves it out or mangles it, or everything came from elsewhere.
    return fromFindings('the registered api-key on the sender\'s attempts', [{
      message: `none of ${view.strangers.length} attempts carried the registered api-key or belonged to a checkout the sender was asked for: ` +
        `if they came from the sender, it leaves the key out or sends another; if not, the sender sent nothing`,
      attempts: [],
    }], [note, { kind: 'delivery', attempts: view.strangers.slice(0, 40).map(x => ({ ...x.d, unattributed: x.why })) }]);
  }
  // Every attempt judged here carried the registered key: a stranger's never counts (view.ts). What shows a
  // sender that leaves the key out is what did not come with it, where attempts without it did come instead.
  const findings = [...unkeyedCheckouts(view), ...unkeyedRetries(view), ...unkeyedStatuses(view)];
  return verdict('the registered api-key on every attempt', findings,
    `all ${view.all.length} attempts (${view.all.filter(a => a.attempt > 1).length} retries) of the sender carried the registered api-key`, note ? [note] : []);
}

/**
 * Checkouts the control API created that got no attempt with the key in
 * the run's retry wait (view.retryWait), while attempts without it named them: a sender that
 * sends the key delivers each checkout within that time, so strangers alone cannot make this.
 */
function unkeyedCheckouts(view: RunView): Finding[] {
  const out: Finding[] = [];
  for (const [id, p] of view.plan) {
    if (!p.control?.id || p.control.status >= 300 || view.byId.has(id)) continue;
    const created = view.clock.toSpec(p.control.createdMs ?? 0);
    if (view.until < created + view.retryWait) continue;
    const named = namingAfter(view, id, created);
    if (named.length) out.push({ message: `checkout ${id} got no attempt with the registered api-key, and ${named.length} without it`, attempts: [] });
  }
  return out;
}

/**
 * Events whose last attempt with the key failed and got no retry with it in
 * the run's retry wait, while attempts without the key named the checkout after
 * it: spec 6.5 makes a sender retry a failed attempt, so a sender that keeps the
 * key retries with it whatever strangers post.
 */
function unkeyedRetries(view: RunView): Finding[] {
  const out: Finding[] = [];
  for (const c of view.checkouts) {
    for (const e of c.events) {
      const last = e.attempts[e.attempts.length - 1];
      if (!last || last.delivered || view.until < last.end + view.retryWait) continue;
      const named = namingAfter(view, c.id, last.end);
      if (named.length) out.push({ message: `${c.id} ${e.status}: attempt ${last.attempt} failed and no retry carried the registered api-key, ` +
        `while ${named.length} attempts without it named the checkout after it`, attempts: [last] });
    }
  }
  return out;
}

/**
 * Statuses a checkout asked for that were due (the sender went on past them, or
 * was watched for the run's retry wait after the last one) and never came with
 * the key, while attempts without it carried them: a later event's first
 * attempt without the key, which unkeyedRetries does not see. Strangers alone
 * cannot make this either: the sender must also have left the status out.
 */
function unkeyedStatuses(view: RunView): Finding[] {
  return statusesSent(view).flatMap(({ x, due, unkeyed }) => due.filter(s => unkeyed.has(s)).map(s => ({
    message: `checkout ${x.id} ('${x.name}'): ${s} came only in attempts without the registered api-key`, attempts: [],
  })));
}
