// data.accounts: GET /accounts at every bank under test and the names of spec 2.6.
import type { Check } from '../../support/register.ts';
import { type CheckContext, describeAnswer, show } from '../../support/check.ts';
import { banksUnderTest } from '../../support/banks.ts';
import { expectContract, recordContract } from '../../support/contract.ts';
import { NO_ACCOUNTS, NO_ACCOUNTS_REMEDY } from '../../support/banks.ts';
import { accountsOf, allAccounts, byBank, expectValuesSeen, RETURNED_WHEN_GIVEN } from './records.ts';

export const list: Check = {
  id: 'data.accounts.list', requirements: ['R4.4-accounts-list'], spec: '4.4', bindsAt: { family: 'bank' },
  title: 'GET /accounts lists the accounts of a consented session, at every bank under test',
  quote: 'GET /accounts | Lists accounts.',
  async run(c) {
    const counts: string[] = [];
    let total = 0;
    await c.everyPlace('bank', (await banksUnderTest()).map(b => ({ name: b.id, value: b.id })), async bankId => {
      const { res, accounts } = await accountsOf(c, bankId);
      c.expect(accounts, `the accounts at ${bankId} were not answered`, 'a 2xx answer with a JSON array', `${describeAnswer(res)}`, res);
      counts.push(`${bankId} ${accounts!.length}`);
      total += accounts!.length;
    });
    // Empty lists everywhere prove nothing about the account calls: the check could not run.
    if (!total) c.skip(`${NO_ACCOUNTS} (${counts.join(', ')})`, NO_ACCOUNTS_REMEDY);
    c.summary = `accounts per bank: ${counts.join(', ')}; ${c.summary}`;
  },
};

export const names: Check = {
  id: 'data.accounts.names-are-strings', requirements: ['R2.6-account-names'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'ownerName and displayName are strings, "" when the bank gives none',
  quote: RETURNED_WHEN_GIVEN,
  async run(c) {
    await byBank(c, await allAccounts(c), all => {
      for (const { bankId, account } of all) {
        for (const k of ['ownerName', 'displayName']) {
          c.expect(typeof account[k] === 'string', `${k} of account ${show(account.id)} at ${bankId} is not a string`, 'a string ("" when unknown)',
            account[k] === undefined ? 'absent' : show(account[k]));
        }
      }
    });
  },
};

export const namesSeen: Check = {
  id: 'data.accounts.names-seen', requirements: ['R2.6-account-names'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'A bank that returns ownerName and displayName shows them on some account, not "" everywhere',
  quote: RETURNED_WHEN_GIVEN,
  async run(c) {
    const all = await allAccounts(c);
    await expectValuesSeen(c, ['ownerName', 'displayName'], all.map(a => ({ bankId: a.bankId, record: a.account })), 'account');
  },
};

/** Every account against the account contract, at the level the check is registered at (the violations of that level). */
async function againstContract(c: CheckContext): Promise<void> {
  await byBank(c, await allAccounts(c), all =>
    expectContract(c, 'account', all.map(a => ({ label: `account ${show(a.account.id)} at ${a.bankId}`, value: a.account }))));
}

export const [contract, profileFields] = recordContract(againstContract,
  { id: 'data.accounts.contract', requirements: ['R2.6-account-names'], spec: '2.6', title: "Accounts follow the spec's rules for account records",
    quote: 'account (GET /accounts) | ownerName | displayName (spec 2.6)' },
  { id: 'data.accounts.profile-fields', requirements: ['P-records-account'], spec: '4.4', title: "Accounts carry docs/profile.md's account fields",
    quote: 'docs/profile.md: account: id, iban, bban, accountName, accountType, ownerName, displayName, balances' });
