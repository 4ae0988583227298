// The code rules of rules.ts applied to one item of a contract, as violations
// beside the schema's. Only what a schema cannot say lives here.
import type { ContractName } from './load.ts';
import type { CheckResult } from '../results/model.ts';
import { summarize } from '../report/verdict.ts';
import type { Violation } from './violations.ts';
import { describeValue } from './violations.ts';
import {
  RULES, abortReasonAllowed, bicFormatOk, bicLengthOk, isIsoDateTime, modifiedAfterCreatedExpected, modifiedBeforeCreated, transactionStatusExpected,
  type RuleInfo,
} from './rules.ts';

type Item = Record<string, unknown>;
const isObject = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);

function violation(rule: RuleInfo, pointer: string, expected: string, found: unknown): Violation {
  return { pointer, expected, found: describeValue(found), spec: rule.spec, level: rule.level, rule: rule.id };
}

/** Rules shared by normal and batch bodies (the older variant has neither abortReason nor transactionStatus). */
function webhookRules(body: Item, payments: Array<[string, unknown]>): Violation[] {
  const out: Violation[] = [];
  if (!abortReasonAllowed(body.status, body.abortReason))
    out.push(violation(RULES['abort-reason.status'], '/abortReason',
      `abortReason only with status TIMED_OUT, FAILED or CANCELLED (status is ${JSON.stringify(body.status)})`, body.abortReason));
  if (transactionStatusExpected(body.status)) {
    for (const [pointer, p] of payments)
      if (isObject(p) && (p.transactionStatus === undefined || p.transactionStatus === null))
        out.push(violation(RULES['transaction-status.once-authorised'], `${pointer}/transactionStatus`,
          `a transactionStatus once the end user has authorised (status is ${body.status})`, p.transactionStatus));
  }
  if (!('endToEndId' in body))
    out.push(violation(RULES['end-to-end-id.present'], '/endToEndId', 'the endToEndId of the checkout request', undefined));
  return out;
}

function dateRules(body: Item): Violation[] {
  const out = (['createdDate', 'lastModifiedDate'] as const)
    .filter(k => typeof body[k] === 'string' && !isIsoDateTime(body[k] as string))
    .map(k => violation(RULES['date.iso-8601'], `/${k}`, 'an ISO 8601 date-time (docs/profile.md)', body[k]));
  if (modifiedBeforeCreated(body.createdDate, body.lastModifiedDate))
    out.push(violation(RULES['date.last-modified-after-created'], '/lastModifiedDate', modifiedAfterCreatedExpected(body.createdDate), body.lastModifiedDate));
  return out;
}

function transactionRules(t: Item): Violation[] {
  const agent = t.counterpartyAgent;
  if (typeof agent !== 'string') return [];
  if (!bicLengthOk(agent))
    return [violation(RULES['bic.length'], '/counterpartyAgent', '"" or a BIC of 8 or 11 characters', agent)];
  if (!bicFormatOk(agent))
    return [violation(RULES['bic.format'], '/counterpartyAgent', 'a BIC: 4 letters, 2-letter country, 2 letters or digits, optional 3 more', agent)];
  return [];
}

/**
 * A body judged as the older variant (spec 2.5: no id, endToEndId, abortReason,
 * originalAmount or transactionStatus) is valid, but a current body (2.2) that
 * lost those fields reads the same: say which variant it was judged as, at
 * should (the sink's webhook.body.current-variant grades it alike).
 */
function olderRules(): Violation[] {
  return [violation(RULES['variant.older'], '',
    'a current body of spec 2.2 (id, endToEndId, payment.originalAmount); judged as the older variant of spec 2.5 instead', 'none of them')];
}

/** The summary of results.json agrees with what the one verdict function computes from its checks. */
function resultsRules(r: Item): Violation[] {
  if (!Array.isArray(r.checks) || !isObject(r.summary)) return [];
  const checks = [...r.checks, ...(Array.isArray(r.notSelected) ? r.notSelected : [])].filter(isObject) as unknown as CheckResult[];
  const expected = summarize(checks, { interrupted: r.interrupted === true });
  const rule: RuleInfo = { id: 'results.summary', spec: 'docs/report.md', level: 'must', quote: 'conformant: every selected must check ran and passed' };
  const out: Violation[] = [];
  for (const k of ['passed', 'failed', 'skipped', 'conformant', 'verdict', 'warnings', 'notRun', 'notApplicable', 'notSelected'] as const) {
    const seen = r.summary[k];
    if (seen !== undefined && seen !== expected[k])
      out.push(violation(rule, `/summary/${k}`, `${JSON.stringify(expected[k])} (computed from the checks)`, seen));
  }
  return out;
}

/** Violations of the code rules for one item of a contract; [] when the item is not an object. */
export function codeRules(name: ContractName, item: unknown): Violation[] {
  if (!isObject(item)) return [];
  switch (name) {
    case 'webhook-normal':
      return [...webhookRules(item, [['/payment', item.payment]]), ...dateRules(item)];
    case 'webhook-batch':
      return [...webhookRules(item, Array.isArray(item.payments) ? item.payments.map((p, i): [string, unknown] => [`/payments/${i}`, p]) : []),
        ...dateRules(item)];
    case 'webhook-older':
      return [...olderRules(), ...dateRules(item)];
    case 'transaction':
      return transactionRules(item);
    case 'results':
      return resultsRules(item);
    default:
      return [];
  }
}
