// The token suite (spec 2.1, 4.1, 4.2, 5, 8): token endpoint and lifecycle.
// Levels are decided here, where each check is registered (STYLE.md 2).
import { must, profile, should } from './support/register.ts';
import * as issue from './checks/token/issue.ts';
import * as refresh from './checks/token/refresh.ts';
import * as errors from './checks/token/errors.ts';
import * as use from './checks/token/use.ts';
import * as expiry from './checks/token/expiry.ts';

must(issue.accessToken);
must(issue.expiresIn);
must(issue.refreshToken);
must(issue.tokenType);
must(issue.optionalFields);
should(issue.noStore);

must(refresh.answers);
must(refresh.renews);
must(refresh.resetsLifetimes);
profile(refresh.reuse);

errors.REFUSED.forEach(must);
errors.ANSWERS.forEach(profile);

must(use.accepted);
must(use.wrongRefused);
must(use.missingRefused);
must(use.refreshedAccepted);
profile(use.wrong401);

must(expiry.oldTokenRefused);
