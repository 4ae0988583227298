// The webhook analysis: pure, from the recorded attempts and the probe plan to
// one CheckResult per check id. The `webhook` suite and the `sink` command both
// call analyze(), so they judge a sender alike.
import type { CheckResult, DeliveryAttempt } from '../../report/model.ts';
import type { SinkPlan } from '../plan.ts';
import { checkApiKey } from './auth.ts';
import { checkGrowth, checkMinDelay } from './backoff.ts';
import { checkAdvice, checkCurrentVariant, checkMatches, checkValid } from './body.ts';
import { checkDuplicates } from './duplicates.ts';
import { checkOrder } from './order.ts';
import { checkConcurrent, checkNotHeld } from './parallel.ts';
import { checkRetries } from './retry.ts';
import { checkAbortReason, checkForbiddenRefused, checkSequence } from './states.ts';
import { checkLateNotTaken, checkWaits5s } from './timeout.ts';
import { annotated, buildView, type AnalysisOptions } from './view.ts';

export type { AnalysisOptions } from './view.ts';

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
