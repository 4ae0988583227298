// The webhook analysis: pure, from the recorded attempts and the probe plan to
// one CheckResult per check id. The `webhook` suite and the `sink` command both
// call analyze(), so they judge a sender alike. The checks are defined in one
// file per concern; their levels are given here, where they are registered.
import { CheckRegistry, must, profile, should, type Registered } from '../../report/check.ts';
import { RULES } from '../../contracts/rules.ts';
import type { CheckResult, DeliveryAttempt } from '../../report/model.ts';
import { REDACTED } from '../../report/redact.ts';
import type { Judged } from '../../report/check.ts';
import type { SinkPlan } from '../plan.ts';
import { API_KEY, checkApiKey } from './auth.ts';
import { GROWTH, MIN_DELAY, checkGrowth, checkMinDelay } from './backoff.ts';
import { ADVICE, CURRENT, MATCHES, METHOD, VALID, checkAdvice, checkCurrentVariant, checkMatches, checkMethod, checkValid } from './body.ts';
import { EVERY_STATUS, SCA, checkEveryStatus, checkSca } from './delivered.ts';
import { AMOUNT_UNEDITED, CARD_PAYMENT_ID, END_TO_END_ID, LAST_MODIFIED, REFERENCE_ID, SCHEDULED_DATE, STABLE, checkAmountUnedited, checkCardPaymentId,
  checkEndToEndId, checkLastModified, checkReferenceId, checkScheduledDate, checkStableFields } from './fields.ts';
import { TRANSACTION_AGREES, TRANSACTION_STATUS, checkTransactionAgrees, checkTransactionStatus } from './transaction.ts';
import { DUPLICATES, checkDuplicates } from './duplicates.ts';
import { ACK_GATED, COPIES_IN_ORDER, checkCopiesInOrder, checkOrder } from './order.ts';
import { CONCURRENT, NOT_HELD, checkConcurrent, checkNotHeld } from './parallel.ts';
import { RETRY_CHECKS, checkRetries } from './retry.ts';
import { LONG_CHAIN, checkLongChain } from './long-chain.ts';
import { ABORT_REASON, FORBIDDEN, SEQUENCE, checkAbortReason, checkForbiddenRefused, checkSequence } from './states.ts';
import { LATE_NOT_TAKEN, WAITS_5S, checkLateNotTaken, checkWaits5s } from './timeout.ts';
import { annotated, buildView, type AnalysisOptions } from './view.ts';

export type { AnalysisOptions } from './view.ts';

/** Every webhook check with its level, in report order; analyze() returns one result for each, in this order. */
export const WEBHOOK_CHECKS: readonly Registered[] = [
  must(VALID), should(CURRENT), should(ADVICE), must(MATCHES), must(METHOD),
  must(END_TO_END_ID), must(REFERENCE_ID), must(SCHEDULED_DATE), must(STABLE),
  // At the level of the rule `validate` judges the same bodies by (lastModifiedDate before createdDate): one rule, one level.
  { must, should, profile }[RULES['date.last-modified-after-created'].level](LAST_MODIFIED),
  must(AMOUNT_UNEDITED), must(CARD_PAYMENT_ID), must(TRANSACTION_STATUS), should(TRANSACTION_AGREES),
  must(API_KEY),
  must(SEQUENCE), should(ABORT_REASON), must(FORBIDDEN), must(EVERY_STATUS), must(SCA),
  ...RETRY_CHECKS.map(k => must(k)), must(LONG_CHAIN),
  must(WAITS_5S), must(LATE_NOT_TAKEN),
  must(MIN_DELAY), must(GROWTH),
  must(ACK_GATED), should(COPIES_IN_ORDER),
  must(CONCURRENT), must(NOT_HELD),
  should(DUPLICATES),
];

const REGISTRY = new CheckRegistry(WEBHOOK_CHECKS);

export interface Analysis {
  checks: CheckResult[];
  /** The attempts with event, status and attempt number filled in, for results.json's deliveries. */
  deliveries: DeliveryAttempt[];
}

export function analyzeRun(attempts: readonly DeliveryAttempt[], plan: SinkPlan, opts: AnalysisOptions): Analysis {
  const view = buildView(attempts, plan, opts);
  const judged = [
    checkValid(view), checkCurrentVariant(view), checkAdvice(view), checkMatches(view), checkMethod(view),
    checkEndToEndId(view), checkReferenceId(view), checkScheduledDate(view), checkStableFields(view), checkLastModified(view),
    checkAmountUnedited(view), checkCardPaymentId(view),
    checkTransactionStatus(view), checkTransactionAgrees(view),
    checkApiKey(view),
    checkSequence(view), checkAbortReason(view), checkForbiddenRefused(view), checkEveryStatus(view), checkSca(view),
    ...checkRetries(view), checkLongChain(view),
    checkWaits5s(view), checkLateNotTaken(view),
    checkMinDelay(view), checkGrowth(view),
    checkOrder(view), checkCopiesInOrder(view),
    checkConcurrent(view), checkNotHeld(view),
    checkDuplicates(view),
  ];
  return { checks: judged.map(j => REGISTRY.result(withoutKeys(j, keysOf(opts, plan)))), deliveries: annotated(view) };
}

/** Keys long enough to be told from ordinary words (8 characters: the length below which a secret is warned about). */
function keysOf(opts: AnalysisOptions, plan: SinkPlan): string[] {
  return [opts.apiKey, ...[...plan.values()].map(p => p.apiKey)].filter((k): k is string => k !== undefined && k.length >= 8);
}

/**
 * A sender knows the key it was given and may echo it into a body (as an id, a
 * reference, a status): a message that quotes the body would then carry it.
 * Messages are not redacted later (they are the harness's own words), so the
 * registered keys are taken out here.
 */
function withoutKeys(j: Judged, keys: readonly string[]): Judged {
  if (!keys.length) return j;
  const clean = (s: string | undefined) => s === undefined ? s : keys.reduce((t, k) => t.split(k).join(REDACTED), s);
  return { ...j, message: clean(j.message), ...(j.expected !== undefined ? { expected: clean(j.expected) } : {}),
    ...(j.seen !== undefined ? { seen: clean(j.seen) } : {}) };
}

/** The agreed entry point: one CheckResult per webhook check id. */
export function analyze(attempts: readonly DeliveryAttempt[], plan: SinkPlan, opts: AnalysisOptions): CheckResult[] {
  return analyzeRun(attempts, plan, opts).checks;
}
