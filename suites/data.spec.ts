// The data suite (spec 2.6, 4.4): banks, accounts, transactions.
// Levels are decided here, where each check is registered (STYLE.md 2).
import { must, profile, should } from './support/register.ts';
import * as banks from './checks/data/banks.ts';
import * as accounts from './checks/data/accounts.ts';
import * as transactions from './checks/data/transactions.ts';

must(banks.listBanks);
must(banks.supportedServices);
must(banks.filterCountry);
must(banks.filterName);
should(banks.filterNameNarrows);
must(banks.byId);
must(banks.unknownId);
must(banks.contract('must'));
profile(banks.contract('profile'));
profile(banks.errorBody);
profile(banks.requestId);
profile(banks.deviceHeader);

must(accounts.list);
must(accounts.names);
must(accounts.contract('must'));
profile(accounts.contract('profile'));

must(transactions.list);
must(transactions.counterparty);
must(transactions.bic);
must(transactions.contract('must'));
profile(transactions.contract('profile'));
