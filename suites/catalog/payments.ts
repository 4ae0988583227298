// The payments suite (spec 3.3, 4.4, 7, 8): each product the banks under test
// offer, strong customer authentication, status by id, confirm-funds.
// Every check of the suite in run order, each with the level it is registered at
// (the caller decides severity): the suite file registers them as tests, and
// the catalog lists them without running anything.
import { must, profile, should, type Registered } from '../../harness/check/def.ts';
import * as initiate from '../checks/payments/initiate.ts';
import * as authorize from '../checks/payments/authorize.ts';
import * as optional from '../checks/payments/optional.ts';
import * as products from '../checks/payments/products.ts';
import * as status from '../checks/payments/status.ts';
import * as funds from '../checks/payments/confirm-funds.ts';
import * as codes from '../checks/payments/error-codes.ts';
import * as fields from '../checks/payments/required-fields.ts';
import * as dates from '../checks/payments/execution-date.ts';
import type { Check } from '../support/check.ts';

// The domestic initiation runs first: it visits every bank under test and
// learns where strong customer authentication is asked for, which decides the
// banks the other payment flows run at (support/payment-banks.ts).
export const PAYMENTS_CHECKS: readonly Registered<Check>[] = [
  must(initiate.domesticInitiate),
  must(initiate.domesticRequiresE2e),
  profile(fields.domesticFields),
  must(optional.domesticMetadata),
  must(optional.psuIpOptional),
  must(authorize.withoutRedirect),
  must(authorize.domesticAuthorize),
  must(authorize.scaRedirect),
  profile(products.instant),
  should(optional.amountLimit),
  profile(codes.errorCodes),
  must(initiate.sepaInitiate),
  must(optional.sepaMetadata),
  profile(fields.sepaFields),
  must(authorize.sepaAuthorize),
  must(initiate.scheduledRequiresDate),
  must(initiate.scheduledRequiresScheme),
  profile(fields.scheduledFields),
  must(initiate.scheduledInitiate),
  must(authorize.scheduledAuthorize),
  must(dates.executionDateKept),
  profile(products.unsupportedProduct),

  must(status.byId),
  must(status.nordicCodes),
  profile(status.contract),

  must(funds.answers),
  must(funds.notImplemented),
  should(funds.followsBalance),
  profile(funds.errorBody),
];
