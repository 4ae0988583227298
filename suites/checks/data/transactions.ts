// data.transactions: GET transactions and the counterparty fields of spec 2.6.
import type { Check } from '../../support/register.ts';
import { type CheckContext, describeAnswer, Prerequisite, show } from '../../support/check.ts';
import { bicLengthOk } from '../../../harness/contracts/rules.ts';
import { expectContract, recordContract } from '../../support/contract.ts';
import { banksUnderTest, NO_TRANSACTIONS, NO_TRANSACTIONS_REMEDY } from '../../support/banks.ts';
import { isError, obj } from '../../support/api.ts';
import { accountsOf, allAccounts, allTransactions, banksDeclaring, byBank, expectValuesSeen, RETURNED_WHEN_GIVEN, transactionsOf } from './records.ts';

export const list: Check = {
  id: 'data.transactions.list', requirements: ['R4.4-transactions-list'], spec: '4.4', bindsAt: { family: 'bank' },
  title: 'GET transactions lists the transactions of each account, at every bank under test',
  quote: 'GET /transactions | Lists transactions.',
  async run(c) {
    let total = 0, accounts = 0;
    const all = (await allAccounts(c)).filter(a => typeof a.account.id === 'string');
    // A bank that lists no account with an id has no transactions to ask for: it is no place of the rule (as byBank says).
    const banks = (await banksUnderTest()).map(b => b.id);
    const none = banks.filter(b => !all.some(a => a.bankId === b));
    if (none.length) c.note(`no account with an id to read the transactions of at ${none.join(', ')}`);
    await c.everyPlace('bank', banks.filter(b => !none.includes(b)).map(b => ({ name: b, value: b })), async bankId => {
      for (const { account } of all.filter(a => a.bankId === bankId)) {
        const id = String(account.id);
        const { res, list } = await transactionsOf(c, bankId, id);
        c.expect(list, `the transactions of ${id} at ${bankId} were not answered`, 'a 2xx answer with a JSON array', `${describeAnswer(res)}`, res);
        total += list!.length;
        accounts++;
      }
    });
    if (!total) c.skip(`${NO_TRANSACTIONS} (${accounts} account${accounts === 1 ? '' : 's'} read)`, NO_TRANSACTIONS_REMEDY);
    c.summary = `${total} transactions on ${accounts} accounts; ${c.summary}`;
  },
};

const FIELDS = ['counterpartyAccount', 'counterpartyName', 'counterpartyAgent'];

export const counterparty: Check = {
  id: 'data.transactions.counterparty-strings', requirements: ['R2.6-transaction-counterparty'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'counterpartyAccount, counterpartyName and counterpartyAgent are strings, "" when unknown',
  quote: RETURNED_WHEN_GIVEN,
  async run(c) {
    await byBank(c, await allTransactions(c), all => {
      for (const { where, tx, res } of all)
        for (const k of FIELDS)
          c.expect(typeof tx[k] === 'string', `${k} of ${where} is not a string`, 'a string ("" when unknown)',
            tx[k] === undefined ? 'absent' : show(tx[k]), res);
    });
  },
};

export const counterpartySeen: Check = {
  id: 'data.transactions.counterparty-seen', requirements: ['R2.6-transaction-counterparty'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'A bank that returns the counterparty fields shows them on some transaction, not "" everywhere',
  quote: RETURNED_WHEN_GIVEN,
  async run(c) {
    const all = await allTransactions(c);
    await expectValuesSeen(c, FIELDS, all.map(t => ({ bankId: t.bankId, record: t.tx, res: t.res })), 'transaction');
  },
};

export const bic: Check = {
  id: 'data.transactions.bic-length', requirements: ['R2.6-counterparty-agent-bic'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'A counterpartyAgent is a BIC of 8 or 11 characters',
  quote: 'transaction | counterpartyAgent | BIC of the agent or intermediary bank, 8 or 11 characters.',
  async run(c) {
    const agents = (await allTransactions(c)).filter(t => typeof t.tx.counterpartyAgent === 'string' && t.tx.counterpartyAgent !== '');
    // A bank the description says returns agents is a place even when all its agents are "": it is not exercised, never not applicable.
    const declaring = await banksDeclaring(['counterpartyAgent']);
    const bound = (await banksUnderTest()).map(b => b.id).filter(b => declaring.includes(b) || agents.some(t => t.bankId === b));
    // "" is the spec's way of saying the bank gives no agent: nothing to judge, and nothing missing.
    if (!bound.length)
      c.notApplicable('no transaction carries a counterpartyAgent (all are "") and the description declares no bank that returns one (description records)');
    await c.everyPlace('bank', bound.map(b => ({ name: b, value: b })), async bankId => {
      const here = agents.filter(t => t.bankId === bankId);
      if (!here.length)
        throw new Prerequisite(`every counterpartyAgent at ${bankId} is "", though the description says the bank returns them ` +
          '(data.transactions.counterparty-seen judges that; description records names the fields a bank gives)');
      for (const { where, tx, res } of here) {
        const v = tx.counterpartyAgent as string;
        c.expect(bicLengthOk(v), `counterpartyAgent of ${where} is not 8 or 11 characters`, '8 or 11 characters', `${show(v)} (${v.length})`, res);
      }
    });
    c.summary = `${agents.length} counterpartyAgent values checked; ${c.summary}`;
  },
};

/**
 * The ISO 9362 shape of a counterpartyAgent beyond its length: the transaction
 * contract's `should` rule bic.format, at every bank under test.
 */
export const bicFormat: Check = {
  id: 'data.transactions.bic-format', requirements: ['R2.6-counterparty-agent-bic'], spec: '2.6', bindsAt: { family: 'bank' },
  title: 'A counterpartyAgent has the shape of a BIC (ISO 9362: bank, country, location, optional branch)',
  quote: 'transaction | counterpartyAgent | BIC of the agent or intermediary bank, 8 or 11 characters.',
  async run(c) {
    await byBank(c, await allTransactions(c), txs =>
      expectContract(c, 'transaction', txs.map(t => ({ label: t.where, value: t.tx, at: t.res }))));
  },
};

/** An account id no bank has. */
const UNKNOWN_ACCOUNT = 'pis-conformance-no-such-account';

/**
 * The transactions answered are those of the account the path names: two
 * accounts of a bank do not answer the same non-empty list, and an unknown
 * account gets no transaction (an error, or an empty list: the refusal's
 * shape is data.transactions.unknown-account's profile matter).
 */
export const perAccount: Check = {
  id: 'data.transactions.per-account', requirements: ['R4.4-transactions-list'], spec: '4.4', bindsAt: { family: 'bank' },
  title: 'GET transactions answers the account the path names: two accounts differ, an unknown account has none',
  quote: 'GET /transactions | Lists transactions.',
  async run(c) {
    const banks = await banksUnderTest();
    const single: string[] = [];
    await c.everyPlace('bank', banks.map(b => ({ name: b.id, value: b.id })), async bankId => {
      const { res, accounts } = await accountsOf(c, bankId);
      if (!accounts) throw new Prerequisite(`the accounts at ${bankId} could not be read (${res.status}; see data.accounts.list)`);
      const ids = accounts.map(a => a.id).filter((x): x is string => typeof x === 'string' && !!x).slice(0, 2);
      // An unknown account is only told apart from a known one where the bank has one.
      if (!ids.length) throw new Prerequisite(`no account with an id at ${bankId} (see data.accounts.list)`);
      const lists = [];
      for (const id of ids) lists.push({ id, ...await transactionsOf(c, bankId, id) });
      const [a, b] = lists;
      if (a?.list && b?.list && a.list.length && JSON.stringify(a.list) === JSON.stringify(b.list))
        c.fail(`the accounts ${a.id} and ${b.id} at ${bankId} answered the same ${a.list.length} transactions`,
          `the transactions of ${b.id}, not those of ${a.id}`, show(b.list[0]), b.res);
      if (ids.length < 2) single.push(bankId);
      const unknown = await transactionsOf(c, bankId, UNKNOWN_ACCOUNT);
      c.expect(!unknown.list?.length, `an unknown account id at ${bankId} was answered with ${unknown.list?.length} transactions`,
        'an error answer, or no transaction', describeAnswer(unknown.res), unknown.res);
    });
    if (single.length) c.summary = `one account only, so no two lists to compare, at ${single.join(', ')}; ${c.summary}`;
  },
};

/** Every transaction against the transaction contract, at the level the check is registered at (the violations of that level). */
async function againstContract(c: CheckContext): Promise<void> {
  await byBank(c, await allTransactions(c), all =>
    expectContract(c, 'transaction', all.map(t => ({ label: t.where, value: t.tx, at: t.res }))));
}

export const [contract, profileFields] = recordContract(againstContract,
  { id: 'data.transactions.contract', requirements: ['R2.6-transaction-counterparty', 'R2.6-counterparty-agent-bic'], spec: '2.6',
    title: "Transactions follow the spec's rules for transaction records",
    quote: 'transaction | counterpartyAccount | counterpartyName | counterpartyAgent (spec 2.6)' },
  { id: 'data.transactions.profile-fields', requirements: ['P-records-transaction'], spec: '4.4',
    title: "Transactions carry docs/profile.md's transaction fields",
    quote: 'docs/profile.md: transaction: id, transactionReference, transactionAmount {value, currency}, creditDebitIndicator, bookingDate, valueDate, ...' });

export const unknownAccount: Check = {
  id: 'data.transactions.unknown-account', requirements: ['P-error-codes-known'], spec: '4.4',
  title: 'Transactions of an unknown account are refused with error 1003',
  quote: 'docs/profile.md: Known codes: ... 1003 invalid account or payment id.',
  async run(c) {
    const bank = (await banksUnderTest())[0]!;
    const { res } = await transactionsOf(c, bank.id, UNKNOWN_ACCOUNT);
    c.expect(isError(res) && obj(res)?.errorCode === '1003', `transactions of an unknown account at ${bank.id} were not refused with 1003`,
      'an error answer with errorCode "1003"', `${describeAnswer(res)}`, res);
  },
};
