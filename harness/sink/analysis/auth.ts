// webhook.auth: the api-key on every attempt, retries included.
import { skipped, verdict, type Finding } from './result.ts';
import type { CheckDef, Judged } from '../../report/check.ts';
import type { AttemptView, RunView } from './view.ts';

/** The sink judged the header on arrival (and kept no value); a hand-made record still has it. */
export function keyVerdict(a: AttemptView, apiKey: string | undefined): 'registered' | 'missing' | 'other' {
  if (a.d.apiKeyCheck) return a.d.apiKeyCheck.verdict;
  const v = a.d.headers['api-key'];
  return v === undefined ? 'missing' : v === apiKey ? 'registered' : 'other';
}

// Spec 5.4: "Every webhook request carries the key in the api-key header; the
// receiver verifies it to confirm the sender." Spec 4.3: "Header: api-key with
// the value that the customer registered."
export const API_KEY: CheckDef = {
  id: 'webhook.auth.api-key', requirements: ['R5.4-api-key-every-request'], title: 'Every attempt, retries included, carries the registered api-key', spec: '5.4',
  quote: 'Every webhook request carries the key in the api-key header; the receiver verifies it to confirm the sender.',
};

export function checkApiKey(view: RunView): Judged {
  if (!view.opts.apiKey) return skipped(API_KEY, 'no webhook api-key was configured, so there is nothing to compare the header with');
  if (!view.all.length) return skipped(API_KEY, 'no delivery attempt arrived');
  const missing = view.all.filter(a => keyVerdict(a, view.opts.apiKey) === 'missing');
  const wrong = view.all.filter(a => keyVerdict(a, view.opts.apiKey) === 'other');
  const findings: Finding[] = [];
  const describe = (list: typeof missing, what: string) => {
    if (!list.length) return;
    const retries = list.filter(a => a.attempt > 1).length;
    findings.push({ message: `${list.length} of ${view.all.length} attempts ${what} (${retries} of them retries, ${list.length - retries} first attempts)`, attempts: list, at: list });
  };
  describe(missing, 'had no api-key header');
  describe(wrong, 'had an api-key other than the registered one');
  return verdict(API_KEY, 'the registered api-key on every attempt', findings,
    `all ${view.all.length} attempts (${view.all.filter(a => a.attempt > 1).length} retries) carried the registered api-key`);
}
