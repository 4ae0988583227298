// The payments suite (spec 3.3, 4.4, 7): each product the banks under test
// offer, strong customer authentication, status by id, confirm-funds.
// Levels are decided here, where each check is registered (STYLE.md 2).
import { must, profile, should } from './support/register.ts';
import * as initiate from './checks/payments/initiate.ts';
import * as status from './checks/payments/status.ts';
import * as funds from './checks/payments/confirm-funds.ts';

must(initiate.domesticRequiresE2e);
must(initiate.domesticInitiate);
must(initiate.domesticAuthorize);
must(initiate.sepaInitiate);
must(initiate.sepaAuthorize);
must(initiate.scheduledRequiresDate);
must(initiate.scheduledInitiate);
should(initiate.unsupportedProduct);

must(status.byId);
must(status.nordicCodes);
profile(status.contract);

must(funds.answers);
must(funds.notImplemented);
profile(funds.errorBody);
