// The token suite (spec 2.1, 4.1, 4.2, 5, 8): token endpoint and lifecycle.
// The checks and their levels are listed in catalog/token.ts. The checks that
// wait for a token's end come last and read watches that start with the
// worker, so their waits run beside every other check.
import { registerChecks } from './support/register.ts';
import { startFirst } from './support/start-first.ts';
import { target } from './support/target.ts';
import { TOKEN_CHECKS } from './catalog/token.ts';
import * as use from './checks/token/use.ts';
import * as refresh from './checks/token/refresh.ts';
import * as expiry from './checks/token/expiry.ts';
import { accessWatch, chainWatch, refreshWatch } from './checks/token/lifetimes.ts';

startFirst([
  // Without a base URL the checks that read the access token's watch skip at once: nothing to wait for.
  { readers: [use.untilExpiresIn, expiry.oldTokenRefused], start: () => target().baseUrl && accessWatch() },
  { readers: [refresh.untilRefreshExpiresIn, expiry.oldRefreshRefused], start: refreshWatch },
  { readers: [refresh.resetsLifetimes, expiry.oldRefreshRefused], start: chainWatch },
]);
registerChecks(TOKEN_CHECKS);
