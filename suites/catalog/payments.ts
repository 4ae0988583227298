// The payments suite (spec 3.3, 4.4, 7): each product the banks under test
// offer, strong customer authentication, status by id, confirm-funds.
// Every check of the suite in run order, each with the level it is registered at
// (the caller decides severity): the suite file registers them as tests, and
// the catalog lists them without running anything.
import { must, profile, should, type Registered } from '../../harness/report/check.ts';
import * as initiate from '../checks/payments/initiate.ts';
import * as status from '../checks/payments/status.ts';
import * as funds from '../checks/payments/confirm-funds.ts';
import type { Check } from '../support/check.ts';

export const PAYMENTS_CHECKS: readonly Registered<Check>[] = [
  must(initiate.domesticRequiresE2e),
  must(initiate.domesticInitiate),
  must(initiate.domesticAuthorize),
  must(initiate.sepaInitiate),
  must(initiate.sepaAuthorize),
  must(initiate.scheduledRequiresDate),
  must(initiate.scheduledInitiate),
  should(initiate.unsupportedProduct),

  must(status.byId),
  must(status.nordicCodes),
  profile(status.contract),

  must(funds.answers),
  must(funds.notImplemented),
  profile(funds.errorBody),
];
