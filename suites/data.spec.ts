// The data suite (spec 2.6, 4.4): banks, accounts, transactions.
// The checks and their levels are listed in catalog/data.ts.
import { registerChecks } from './support/register.ts';
import { DATA_CHECKS } from './catalog/data.ts';

registerChecks(DATA_CHECKS);
