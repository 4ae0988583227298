// The token suite (spec 2.1, 4.1, 4.2, 5, 8): token endpoint and lifecycle.
// Every check of the suite in run order, each with the level it is registered at
// (the caller decides severity): the suite file registers them as tests, and
// the catalog lists them without running anything.
import { must, profile, should, type Registered } from '../../harness/check/def.ts';
import * as issue from '../checks/token/issue.ts';
import * as refresh from '../checks/token/refresh.ts';
import * as errors from '../checks/token/errors.ts';
import * as use from '../checks/token/use.ts';
import * as expiry from '../checks/token/expiry.ts';
import type { Check } from '../support/check.ts';

export const TOKEN_CHECKS: readonly Registered<Check>[] = [
  must(issue.accessToken),
  must(issue.expiresIn),
  must(issue.refreshToken),
  must(issue.tokenType),
  must(issue.optionalFields),
  should(issue.noStore),

  must(refresh.answers),
  must(refresh.renews),
  must(refresh.chain),
  profile(refresh.reuse),

  ...errors.REFUSED.map(k => must(k)),
  ...errors.ANSWERS.map(k => profile(k)),

  must(use.accepted),
  must(use.wrongRefused),
  must(use.missingRefused),
  must(use.tamperedRefused),
  must(use.refreshedAccepted),
  profile(use.wrong401),

  // Last: these read the watches of checks/token/lifetimes.ts, which started with the worker.
  must(use.untilExpiresIn),
  must(refresh.untilRefreshExpiresIn),
  must(refresh.resetsLifetimes),
  must(expiry.oldTokenRefused),
  must(expiry.oldRefreshRefused),
];
