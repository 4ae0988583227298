// webhook.auth: the api-key on every attempt, retries included.
import { failed, skipped, verdict, type Finding } from './result.ts';
import type { Evidence } from '../../report/model.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import type { AttemptView, RunView } from './view.ts';

/** The sink judged the header on arrival (and kept no value); a hand-made record still has it. */
function keyVerdict(a: AttemptView, apiKey: string | undefined): 'registered' | 'missing' | 'other' {
  if (a.d.apiKeyCheck) return a.d.apiKeyCheck.verdict;
  const v = a.d.headers['api-key'];
  return v === undefined ? 'missing' : v === apiKey ? 'registered' : 'other';
}

/** The traffic the analysis did not count as the sender's, in one line of counts; undefined when there was none. */
function strangersNote(view: RunView): Evidence | undefined {
  if (!view.strangers.length) return undefined;
  const noKey = view.strangers.filter(x => x.why.startsWith('no api-key')).length;
  return { kind: 'note', text: `${view.strangers.length} attempts were not counted as the sender's and not judged ` +
    `(${noKey} without an api-key, ${view.strangers.length - noKey} with another one), ` +
    `none for a checkout the sender was asked for or used the registered key with: anyone who knows the sink's address can post to it` };
}

// Spec 5.4: "Every webhook request carries the key in the api-key header; the
// receiver verifies it to confirm the sender." Spec 4.3: "Header: api-key with
// the value that the customer registered."
export const API_KEY: CheckDef = {
  id: 'webhook.auth.api-key', requirements: ['R5.4-api-key-every-request', 'R5.4-key-any-format'],
  title: 'Every attempt, retries included, carries the registered api-key', spec: '5.4',
  quote: 'Every webhook request carries the key in the api-key header; the receiver verifies it to confirm the sender.',
};

export function checkApiKey(view: RunView): Judged {
  const keyOf = (a: AttemptView) => view.byId.get(a.d.checkoutId)?.planned?.apiKey ?? view.opts.apiKey;
  if (!view.opts.apiKey && ![...view.plan.values()].some(p => p.apiKey))
    return skipped(API_KEY, 'no webhook api-key was configured, so there is nothing to compare the header with');
  const note = strangersNote(view);
  if (!view.all.length) {
    if (!note) return skipped(API_KEY, 'no delivery attempt arrived');
    // Nothing carried the key: either the sender leaves it out or mangles it, or everything came from elsewhere.
    return failed(API_KEY, 'the registered api-key on the sender\'s attempts', [{
      message: `none of ${view.strangers.length} attempts carried the registered api-key or belonged to a checkout the sender was asked for: ` +
        `if they came from the sender, it leaves the key out or sends another; if not, the sender sent nothing`,
      attempts: [],
    }], [note, { kind: 'delivery', attempts: view.strangers.slice(0, 40).map(x => ({ ...x.d, unattributed: x.why })) }]);
  }
  const missing = view.all.filter(a => keyVerdict(a, keyOf(a)) === 'missing');
  const wrong = view.all.filter(a => keyVerdict(a, keyOf(a)) === 'other');
  const findings: Finding[] = [];
  const describe = (list: typeof missing, what: string) => {
    if (!list.length) return;
    const retries = list.filter(a => a.attempt > 1).length;
    findings.push({ message: `${list.length} of ${view.all.length} attempts ${what} (${retries} of them retries, ${list.length - retries} first attempts)`,
      attempts: list, at: list });
  };
  describe(missing, 'had no api-key header');
  describe(wrong, 'had an api-key other than the registered one');
  return verdict(API_KEY, 'the registered api-key on every attempt', findings,
    `all ${view.all.length} attempts (${view.all.filter(a => a.attempt > 1).length} retries) carried the registered api-key`, note ? [note] : []);
}
