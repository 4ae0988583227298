// The static registry of every check the tool has, with its level and suite:
// the API suites' lists (one file per suite here), the webhook checks (judged by
// harness/sink/checks, registered there) and the receiver checks of
// certify-receiver (registered in harness/certify/checks.ts). Importing it runs
// nothing and needs no target, so `run --list`, the requirement and proof
// tests, coverage and the not-selected listing all read the same list.
import type { Registered } from '../../harness/check/def.ts';
import type { Suite } from '../../harness/results/model.ts';
import { WEBHOOK_CHECKS } from '../../harness/sink/checks/index.ts';
import { RECEIVER_CHECKS } from '../../harness/certify/checks.ts';
import { DATA_CHECKS } from './data.ts';
import { PAYMENTS_CHECKS } from './payments.ts';
import { SESSION_CHECKS } from './session.ts';
import { TOKEN_CHECKS } from './token.ts';

/** The checks of each suite, in run order. `run` runs token to webhook; certify-receiver runs receiver. */
export const SUITE_CHECKS: Readonly<Record<Suite, readonly Registered[]>> = {
  token: TOKEN_CHECKS,
  session: SESSION_CHECKS,
  data: DATA_CHECKS,
  payments: PAYMENTS_CHECKS,
  webhook: WEBHOOK_CHECKS,
  receiver: RECEIVER_CHECKS,
};

/** Every check, suite by suite. */
export const CATALOG: readonly Registered[] = Object.values(SUITE_CHECKS).flat();
