// Accounts and transactions of the banks under test, read once per check in a
// consented session (support/sessions.ts renews consent when it runs out).
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { ok } from '../../support/api.ts';
import { Prerequisite, show, type CheckContext } from '../../support/check.ts';
import { banksUnderTest } from '../../support/banks.ts';
import { sessionCall } from '../../support/sessions.ts';

export type Rec = Record<string, unknown>;

export async function accountsOf(c: CheckContext, bankId: string): Promise<{ res: ExchangeResponse; accounts?: Rec[] }> {
  const res = await sessionCall(c, bankId, 'accounts', 'GET', 'accounts', {}, { label: `accounts at ${bankId}` });
  const accounts = ok(res) && Array.isArray(res.json) ? (res.json as unknown[]).filter((a): a is Rec => !!a && typeof a === 'object') : undefined;
  return { res, accounts };
}

/** Every account of every bank under test; a bank whose accounts cannot be read makes the check skip (data.accounts.list reports it). */
export async function allAccounts(c: CheckContext): Promise<{ bankId: string; account: Rec }[]> {
  const out: { bankId: string; account: Rec }[] = [];
  for (const bank of await banksUnderTest()) {
    const { res, accounts } = await accountsOf(c, bank.id);
    if (!accounts) throw new Prerequisite(`the accounts at ${bank.id} could not be read (${res.status}; see data.accounts.list)`);
    out.push(...accounts.map(account => ({ bankId: bank.id, account })));
  }
  return out;
}

export async function transactionsOf(c: CheckContext, bankId: string, accountId: string): Promise<{ res: ExchangeResponse; list?: Rec[] }> {
  const res = await sessionCall(c, bankId, 'accounts', 'GET', 'transactions', { accountId }, { label: `transactions of ${accountId}` });
  const list = ok(res) && Array.isArray(res.json) ? (res.json as unknown[]).filter((t): t is Rec => !!t && typeof t === 'object') : undefined;
  return { res, list };
}

/** Every transaction of every account, with the answer it came in (a failure points at that exchange). */
export async function allTransactions(c: CheckContext): Promise<{ where: string; tx: Rec; res: ExchangeResponse }[]> {
  const out: { where: string; tx: Rec; res: ExchangeResponse }[] = [];
  for (const { bankId, account } of await allAccounts(c)) {
    if (typeof account.id !== 'string') continue;
    const { res, list } = await transactionsOf(c, bankId, account.id);
    if (!list) throw new Prerequisite(`the transactions of ${account.id} could not be read (${res.status}; see data.transactions.list)`);
    out.push(...list.map(tx => ({ where: `${account.id} transaction ${show(tx.id)}`, tx, res })));
  }
  return out;
}
