// The webhook analysis: pure, from the recorded attempts and the probe plan to
// one CheckResult per check id. The `webhook` suite and the `sink` command both
// call analyze(), so they judge a sender alike.
import type { CheckResult, DeliveryAttempt } from '../../report/model.ts';
import type { SinkPlan } from '../plan.ts';
import { API_KEY, checkApiKey } from './auth.ts';
import { GROWTH, MIN_DELAY, checkGrowth, checkMinDelay } from './backoff.ts';
import { ADVICE, CURRENT, MATCHES, VALID, checkAdvice, checkCurrentVariant, checkMatches, checkValid } from './body.ts';
import { DUPLICATES, checkDuplicates } from './duplicates.ts';
import { ACK_GATED, checkOrder } from './order.ts';
import { CONCURRENT, NOT_HELD, checkConcurrent, checkNotHeld } from './parallel.ts';
import type { CheckInfo } from './result.ts';
import { RETRY_CHECKS, checkRetries } from './retry.ts';
import { ABORT_REASON, FORBIDDEN, SEQUENCE, checkAbortReason, checkForbiddenRefused, checkSequence } from './states.ts';
import { LATE_NOT_TAKEN, WAITS_5S, checkLateNotTaken, checkWaits5s } from './timeout.ts';
import { annotated, buildView, type AnalysisOptions } from './view.ts';

export type { AnalysisOptions } from './view.ts';
export type { CheckInfo } from './result.ts';

/** Every webhook check, in report order; analyze() returns one result for each, in this order. */
export const WEBHOOK_CHECKS: readonly CheckInfo[] = [
  VALID, CURRENT, ADVICE, MATCHES,
  API_KEY,
  SEQUENCE, ABORT_REASON, FORBIDDEN,
  ...RETRY_CHECKS,
  WAITS_5S, LATE_NOT_TAKEN,
  MIN_DELAY, GROWTH,
  ACK_GATED,
  CONCURRENT, NOT_HELD,
  DUPLICATES,
];

export interface Analysis {
  checks: CheckResult[];
  /** The attempts with event, status and attempt number filled in, for results.json's deliveries. */
  deliveries: DeliveryAttempt[];
}

export function analyzeRun(attempts: readonly DeliveryAttempt[], plan: SinkPlan, opts: AnalysisOptions): Analysis {
  const view = buildView(attempts, plan, opts);
  const checks = [
    checkValid(view), checkCurrentVariant(view), checkAdvice(view), checkMatches(view),
    checkApiKey(view),
    checkSequence(view), checkAbortReason(view), checkForbiddenRefused(view),
    ...checkRetries(view),
    checkWaits5s(view), checkLateNotTaken(view),
    checkMinDelay(view), checkGrowth(view),
    checkOrder(view),
    checkConcurrent(view), checkNotHeld(view),
    checkDuplicates(view),
  ];
  return { checks, deliveries: annotated(view) };
}

/** The agreed entry point: one CheckResult per webhook check id. */
export function analyze(attempts: readonly DeliveryAttempt[], plan: SinkPlan, opts: AnalysisOptions): CheckResult[] {
  return analyzeRun(attempts, plan, opts).checks;
}
