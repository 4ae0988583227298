// The webhook analysis: pure, from the recorded attempts and the probe plan to
// one CheckResult per check id. The `webhook` suite and the `sink` command both
// call analyze(), so they judge a sender alike. The checks are defined in one
// file per concern; each is registered here once, with its level and its
// judgement as a pair (must(VALID, checkValid)).
import { must, profile, should, type Registered } from '../../check/def.ts';
import { RULES } from '../../contracts/rules.ts';
import { toResult, type Outcome } from '../../check/outcome.ts';
import type { CheckResult, DeliveryAttempt } from '../../results/model.ts';
import { REDACTED } from '../../report/redact.ts';
import type { SinkPlan } from '../plan.ts';
import { API_KEY, checkApiKey } from './auth.ts';
import { GROWTH, MIN_DELAY, checkGrowth, checkMinDelay } from './backoff.ts';
import {
  ADVICE, CURRENT, DATES, MATCHES, METHOD, VALID, checkAdvice, checkCurrentVariant, checkDates, checkMatches, checkMethod, checkValid,
} from './body.ts';
import { EVERY_STATUS, SCA, checkEveryStatus, checkSca } from './delivered.ts';
import { AMOUNT_UNEDITED, CARD_PAYMENT_ID, END_TO_END_ID, LAST_MODIFIED, REFERENCE_ID, SCHEDULED_DATE, STABLE, checkAmountUnedited, checkCardPaymentId,
  checkEndToEndId, checkLastModified, checkReferenceId, checkScheduledDate, checkStableFields } from './fields.ts';
import { TRANSACTION_AGREES, TRANSACTION_STATUS, checkTransactionAgrees, checkTransactionStatus } from './transaction.ts';
import { DUPLICATES, checkDuplicates } from './duplicates.ts';
import { ACK_GATED, COPIES_IN_ORDER, checkCopiesInOrder, checkOrder } from './order.ts';
import { CONCURRENT, NOT_HELD, checkConcurrent, checkNotHeld } from './parallel.ts';
import { RETRY_CHECKS } from './retry.ts';
import { LONG_CHAIN, checkLongChain } from './long-chain.ts';
import { ABORT_REASON, ABORT_REASON_VALUE, FORBIDDEN, SEQUENCE, checkAbortReason, checkAbortReasonValue, checkForbiddenRefused,
  checkSequence } from './states.ts';
import { LATE_NOT_TAKEN, WAITS_5S, checkLateNotTaken, checkWaits5s } from './timeout.ts';
import type { RecordedAttempt } from './facts.ts';
import { annotated, buildView, type AnalysisOptions, type RunView } from './view.ts';

export type { AnalysisOptions } from './view.ts';

/** A webhook check as registered: its definition, its level, and the judgement of a run's view. */
export type WebhookCheck = Registered & { judge(view: RunView): Outcome };

/**
 * Every webhook check with its level and its judgement, in report order;
 * analyze() returns one result for each, in this order.
 */
export const WEBHOOK_CHECKS: readonly WebhookCheck[] = [
  must(VALID, checkValid), should(CURRENT, checkCurrentVariant), should(ADVICE, checkAdvice), must(MATCHES, checkMatches), must(METHOD, checkMethod),
  must(END_TO_END_ID, checkEndToEndId), must(REFERENCE_ID, checkReferenceId), must(SCHEDULED_DATE, checkScheduledDate),
  must(STABLE, checkStableFields),
  // At the level of the rule `validate` judges the same bodies by (lastModifiedDate before createdDate): one rule, one level.
  { must, should, profile }[RULES['date.last-modified-after-created'].level](LAST_MODIFIED, checkLastModified),
  { must, should, profile }[RULES['date.iso-8601'].level](DATES, checkDates),
  must(AMOUNT_UNEDITED, checkAmountUnedited), must(CARD_PAYMENT_ID, checkCardPaymentId),
  must(TRANSACTION_STATUS, checkTransactionStatus), should(TRANSACTION_AGREES, checkTransactionAgrees),
  must(API_KEY, checkApiKey),
  must(SEQUENCE, checkSequence), should(ABORT_REASON, checkAbortReason),
  must(ABORT_REASON_VALUE, checkAbortReasonValue), must(FORBIDDEN, checkForbiddenRefused),
  must(EVERY_STATUS, checkEveryStatus), must(SCA, checkSca),
  ...RETRY_CHECKS.map(k => must(k.def, k.judge)), must(LONG_CHAIN, checkLongChain),
  must(WAITS_5S, checkWaits5s), must(LATE_NOT_TAKEN, checkLateNotTaken),
  must(MIN_DELAY, checkMinDelay), must(GROWTH, checkGrowth),
  must(ACK_GATED, checkOrder), should(COPIES_IN_ORDER, checkCopiesInOrder),
  must(CONCURRENT, checkConcurrent), must(NOT_HELD, checkNotHeld),
  should(DUPLICATES, checkDuplicates),
];

export interface Analysis {
  checks: CheckResult[];
  /** The attempts with event, status and attempt number filled in, for results.json's deliveries. */
  deliveries: DeliveryAttempt[];
}

export function analyzeRun(attempts: readonly RecordedAttempt[], plan: SinkPlan, opts: AnalysisOptions): Analysis {
  const view = buildView(attempts, plan, opts);
  const keys = keysOf(opts, plan);
  return { checks: WEBHOOK_CHECKS.map(c => toResult(c, withoutKeys(c.judge(view), keys), 0)), deliveries: annotated(view) };
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
function withoutKeys(j: Outcome, keys: readonly string[]): Outcome {
  if (!keys.length) return j;
  const clean = (s: string | undefined) => s === undefined ? s : keys.reduce((t, k) => t.split(k).join(REDACTED), s);
  return { ...j, message: clean(j.message), ...(j.expected !== undefined ? { expected: clean(j.expected) } : {}),
    ...(j.seen !== undefined ? { seen: clean(j.seen) } : {}) };
}

/** The checks of a run as results only: one CheckResult per webhook check id, in report order. */
export function analyze(attempts: readonly RecordedAttempt[], plan: SinkPlan, opts: AnalysisOptions): CheckResult[] {
  return analyzeRun(attempts, plan, opts).checks;
}
