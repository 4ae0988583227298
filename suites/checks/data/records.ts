// Accounts and transactions of the banks under test, read in a consented
// session per bank (support/sessions.ts renews consent when it runs out).
// A target that lists no account at any bank, or no transaction on any
// account, gives the record checks nothing to judge: that is not a pass but a
// check that could not run (the run is then Incomplete).
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { ok } from '../../support/api.ts';
import { Prerequisite, show, type CheckContext } from '../../support/check.ts';
import { banksUnderTest, NO_ACCOUNTS, NO_ACCOUNTS_REMEDY, NO_TRANSACTIONS, NO_TRANSACTIONS_REMEDY } from '../../support/banks.ts';
import { sessionCall } from '../../support/sessions.ts';
import { describedRecordFields } from '../../support/describe.ts';

export type Rec = Record<string, unknown>;


/** GET /accounts at `bankId`; `headers` adds or (with '') leaves out headers. */
export async function accountsOf(c: CheckContext, bankId: string, headers: Record<string, string> = {},
  label = `accounts at ${bankId}`): Promise<{ res: ExchangeResponse; accounts?: Rec[] }> {
  const res = await sessionCall(c, bankId, 'accounts', 'GET', 'accounts', {}, { label, headers });
  const accounts = ok(res) && Array.isArray(res.json) ? (res.json as unknown[]).filter((a): a is Rec => !!a && typeof a === 'object') : undefined;
  return { res, accounts };
}

/**
 * Every account of every bank under test. A bank whose accounts cannot be
 * read makes the check skip (data.accounts.list reports it); no account at
 * any bank is the NO_ACCOUNTS skip.
 */
export async function allAccounts(c: CheckContext): Promise<{ bankId: string; account: Rec }[]> {
  const out: { bankId: string; account: Rec }[] = [];
  const banks = await banksUnderTest();
  for (const bank of banks) {
    const { res, accounts } = await accountsOf(c, bank.id);
    if (!accounts) throw new Prerequisite(`the accounts at ${bank.id} could not be read (${res.status}; see data.accounts.list)`);
    out.push(...accounts.map(account => ({ bankId: bank.id, account })));
  }
  if (!out.length)
    c.skip(`${NO_ACCOUNTS} (${banks.length} bank${banks.length === 1 ? '' : 's'} under test: ${banks.map(b => b.id).join(', ')})`, NO_ACCOUNTS_REMEDY);
  return out;
}

export async function transactionsOf(c: CheckContext, bankId: string, accountId: string): Promise<{ res: ExchangeResponse; list?: Rec[] }> {
  const res = await sessionCall(c, bankId, 'accounts', 'GET', 'transactions', { accountId }, { label: `transactions of ${accountId} at ${bankId}` });
  const list = ok(res) && Array.isArray(res.json) ? (res.json as unknown[]).filter((t): t is Rec => !!t && typeof t === 'object') : undefined;
  return { res, list };
}

/** Every transaction of every account, with the answer it came in (a failure points at that exchange); none at all is the NO_TRANSACTIONS skip. */
export async function allTransactions(c: CheckContext): Promise<{ where: string; bankId: string; tx: Rec; res: ExchangeResponse }[]> {
  const out: { where: string; bankId: string; tx: Rec; res: ExchangeResponse }[] = [];
  const accounts = await allAccounts(c);
  for (const { bankId, account } of accounts) {
    if (typeof account.id !== 'string') continue;
    const { res, list } = await transactionsOf(c, bankId, account.id);
    if (!list) throw new Prerequisite(`the transactions of ${account.id} at ${bankId} could not be read (${res.status}; see data.transactions.list)`);
    out.push(...list.map(tx => ({ where: `transaction ${show(tx.id)} of ${account.id} at ${bankId}`, bankId, tx, res })));
  }
  if (!out.length) c.skip(`${NO_TRANSACTIONS} (${accounts.length} account${accounts.length === 1 ? '' : 's'} read)`, NO_TRANSACTIONS_REMEDY);
  return out;
}

/**
 * Judges records bank by bank: each bank under test that answered records is
 * a place (family 'bank'), so a rule broken at one bank fails naming it and
 * the tally says how many banks were judged; banks with no record are named
 * in a note.
 */
export async function byBank<R extends { bankId: string }>(c: CheckContext, records: R[], judge: (rs: R[], bankId: string) => void,
  only?: (bankId: string) => boolean): Promise<void> {
  const banks = (await banksUnderTest()).map(b => b.id).filter(b => !only || only(b));
  const empty = banks.filter(b => !records.some(r => r.bankId === b));
  if (empty.length) c.note(`no record to judge at ${empty.join(', ')}`);
  await c.everyPlace('bank', banks.filter(b => !empty.includes(b)).map(b => ({ name: b, value: b })),
    async b => judge(records.filter(r => r.bankId === b), b));
}

/** Spec 2.6's rule for the names and counterparty fields, which the string and the value checks quote. */
export const RETURNED_WHEN_GIVEN = 'ownerName, displayName, counterpartyAccount, counterpartyName and counterpartyAgent are returned ' +
  'when the bank returns them; otherwise they are empty strings.';

/** The banks under test at which the description says some of `fields` are returned with values (description records). */
export async function banksDeclaring(fields: readonly string[]): Promise<string[]> {
  return (await banksUnderTest()).map(b => b.id).filter(id => describedRecordFields(id).some(f => fields.includes(f)));
}

/**
 * Spec 2.6's "returned when the bank returns them": at a bank the description
 * says returns a field, some record shows it with a value other than "" (a
 * mapping that always answers "" breaks it). Banks that declare none of
 * `fields` are no place of the rule; with none at all the check is not applicable.
 */
export async function expectValuesSeen<R extends { bankId: string; record: Rec; res?: ExchangeResponse }>(
  c: CheckContext, fields: readonly string[], records: R[], kind: string): Promise<void> {
  const declaring = await banksDeclaring(fields);
  if (!declaring.length)
    c.notApplicable(`the description declares no bank under test that returns ${fields.join(', ')} (description records)`);
  await byBank(c, records, (rs, bankId) => {
    const missing = describedRecordFields(bankId).filter(f => fields.includes(f))
      .filter(f => !rs.some(r => typeof r.record[f] === 'string' && r.record[f] !== ''));
    if (!missing.length) return;
    c.fail(`no ${kind} at ${bankId} shows ${missing.join(', ')} with a value (${rs.length} ${kind}s read), ` +
      `though the description says the bank returns ${missing.length === 1 ? 'it' : 'them'} (description records: name the fields ${bankId} does give)`,
    `${missing.join(', ')} other than "" on some ${kind}`, `"" or absent on all ${rs.length}`, rs[0]?.res);
  }, b => declaring.includes(b));
}
