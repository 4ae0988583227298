// The data suite (spec 2.6, 4.4): banks, accounts, transactions.
// Every check of the suite in run order, each with the level it is registered at
// (the caller decides severity): the suite file registers them as tests, and
// the catalog lists them without running anything.
import { must, profile, should, type Registered } from '../../harness/check/def.ts';
import * as banks from '../checks/data/banks.ts';
import * as accounts from '../checks/data/accounts.ts';
import * as transactions from '../checks/data/transactions.ts';
import * as psuIp from '../checks/data/psu-ip.ts';
import type { Check } from '../support/check.ts';

export const DATA_CHECKS: readonly Registered<Check>[] = [
  must(banks.listBanks),
  must(banks.supportedServices),
  must(banks.filterCountry),
  must(banks.filterName),
  should(banks.filterNameNarrows),
  must(banks.byId),
  must(banks.unknownId),
  must(banks.contract),
  profile(banks.profileFields),
  profile(banks.errorBody),
  profile(banks.requestId),
  profile(banks.jsonContentType),
  profile(banks.deviceHeader),

  must(accounts.list),
  must(accounts.names),
  must(accounts.namesSeen),
  must(psuIp.psuIpOptional),
  must(accounts.contract),
  profile(accounts.profileFields),

  must(transactions.list),
  must(transactions.counterparty),
  must(transactions.counterpartySeen),
  must(transactions.bic),
  should(transactions.bicFormat),
  must(transactions.perAccount),
  must(transactions.contract),
  profile(transactions.profileFields),
  profile(transactions.unknownAccount),
];
