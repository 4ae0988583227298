// Every check of certify-receiver with the level it is registered at (the
// caller decides severity; the checks are defined beside their phases). The
// catalog lists these; certify() completes each emitted result from here.
import { CheckRegistry, must, profile, should, type Registered } from '../check/def.ts';
import { ACCEPTS } from './accepts.ts';
import { AUTH_CHECKS, REFUSED_WITH_4XX } from './auth.ts';
import { CONCURRENCY } from './concurrency.ts';
import { OVER_HTTPS } from './https.ts';
import { IDEMPOTENCY } from './idempotency.ts';
import { LATENCY } from './latency.ts';
import { GARBAGE } from './plan.ts';
import { ROBUSTNESS, STAYS_UP } from './robustness.ts';
import { TRACKS_BY_ID } from './tracking.ts';

export const RECEIVER_CHECKS: readonly Registered[] = [
  must(ACCEPTS['normal-statuses']),
  must(ACCEPTS['batch-statuses']),
  must(ACCEPTS['abort-reasons']),
  must(ACCEPTS['scheduled-date']),
  must(ACCEPTS['payment-scheduled-date']),
  // Spec 2.5: "Receivers should accept it."
  should(ACCEPTS['older-variant']),
  must(ACCEPTS['unknown-fields']),
  must(ACCEPTS['transaction-statuses']),
  must(ACCEPTS['card-payment']),
  must(ACCEPTS['optional-values']),
  profile(ACCEPTS['null-values']),
  must(ACCEPTS['decimal-amount']),
  must(ACCEPTS.transitions),
  must(ACCEPTS['late-event']),
  // Spec 4.3 says how the service calls; a certification over plain HTTP is a fair step while building.
  should(OVER_HTTPS),

  ...AUTH_CHECKS.map(k => must(k)),
  // How a refusal is made: a 5xx or a dropped connection invites a retry, a 4xx does not.
  should(REFUSED_WITH_4XX),

  must(IDEMPOTENCY.twice),
  must(IDEMPOTENCY.threeTimes),
  must(IDEMPOTENCY.afterPause),
  must(IDEMPOTENCY.stateAfterDuplicates),
  // The spec calls id unique per checkout but not referenceId: a merchant whose referenceIds are unique never meets two.
  should(TRACKS_BY_ID),

  must(CONCURRENCY.allSuccess),
  must(CONCURRENCY.withinLimit),
  must(CONCURRENCY.stateAfterBurst),

  must(LATENCY.underLimit),
  // The 1 s p99 is advice of this tool, not a sentence of the spec.
  should(LATENCY.p99),

  // The valid delivery after garbage is a request the receiver must answer 200
  // (spec 6.4); refusing the garbage itself with a 4xx is advice.
  ...GARBAGE.flatMap(g => [must(ROBUSTNESS[g].keeps), should(ROBUSTNESS[g].refused)]),
  must(STAYS_UP),
];

export const RECEIVER_REGISTRY = new CheckRegistry(RECEIVER_CHECKS);
