// The payments suite (spec 3.3, 4.4, 7): each product the banks under test
// offer, strong customer authentication, status by id, confirm-funds.
// The checks and their levels are listed in catalog/payments.ts.
import { registerChecks } from './support/register.ts';
import { PAYMENTS_CHECKS } from './catalog/payments.ts';

registerChecks(PAYMENTS_CHECKS);
