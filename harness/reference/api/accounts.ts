// GET /accounts and GET /accounts/{accountId}/transactions (spec 4.4, 2.6;
// docs/profile.md "Records"): session-bound, so a session without valid consent
// answers the consent-link error first.
import { accountsOf, findAccount, type AccountRecord } from '../data/accounts.ts';
import { transactionsOf } from '../data/transactions.ts';
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { invalidId, missingParameter } from './errors.ts';
import { psuIp, requireSession } from './guards.ts';

function present(call: Call, a: AccountRecord): Record<string, unknown> {
  const faults = call.ctx.faults;
  // Fault data-owner-null: a bank that gives no owner name yields null instead of spec 2.6's "".
  const ownerName = a.ownerName === '' && faults.has('data-owner-null') ? null : a.ownerName;
  return withExtras(faults, { ...a, ownerName, balances: a.balances.map(b => ({ ...b })) }, { status: 'enabled', usage: 'PRIV' });
}

export function listAccounts(call: Call): Answer {
  const { bank } = requireSession(call, 'accounts');
  psuIp(call, false);
  return ok(accountsOf(bank.record.id).map(a => present(call, a.record)));
}

function transactionsFor(call: Call, accountId: string | undefined): Answer {
  const { bank } = requireSession(call, 'accounts');
  psuIp(call, false);
  if (!accountId) throw missingParameter('accountId');
  const account = findAccount(bank.record.id, accountId);
  if (!account) throw invalidId('account', accountId);
  const list = transactionsOf(account, call.ctx.clock.date(), call.ctx.faults);
  return ok(list.map(t => withExtras(call.ctx.faults, t, { entryReference: `E2E-${t.id}`, bankTransactionCode: 'PMNT-RCDT-ESCT' })));
}

/** GET /accounts/{accountId}/transactions (docs/profile.md). */
export function listTransactions(call: Call): Answer {
  return transactionsFor(call, call.params.accountId);
}

/** GET /transactions?accountId=... : the spelling of spec 4.4, same answer. */
export function listTransactionsByQuery(call: Call): Answer {
  return transactionsFor(call, call.query.get('accountId') ?? undefined);
}
