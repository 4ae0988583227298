// GET /accounts and GET /accounts/{accountId}/transactions (spec 4.4, 2.6;
// docs/profile.md "Records"): session-bound, so a session without valid consent
// answers the consent-link error first.
import { accountsOf, findAccount, type AccountRecord } from '../data/accounts.ts';
import { transactionsOf } from '../data/transactions.ts';
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { invalidId, missingParameter } from './errors.ts';
import { psuIp, requireSession } from './guards.ts';
import { has } from './versions.ts';

/**
 * The bank at which faults data-names-blank and data-counterparty-blank break
 * spec 2.6's rule (the second bank listed), and at which, under quirk
 * records-not-given, the bank itself gives none of the five fields, so that
 * they are "" as the rule says (the target description names the bank with []).
 */
const BLANK_BANK = 'sparebank1-no';

function present(call: Call, a: AccountRecord, bankId: string): Record<string, unknown> {
  const faults = call.ctx.faults;
  // Fault data-owner-null: a bank that gives no owner name yields null instead of spec 2.6's "".
  const { ownerName: owner, displayName, ...rest } = a;
  const record = { ...rest, balances: a.balances.map(b => ({ ...b })) };
  // ownerName and displayName are a later change of spec 9 without a number: at the latest version only.
  if (!has(call.ctx, 'later-changes')) return withExtras(faults, record, { status: 'enabled', usage: 'PRIV' });
  // Fault data-names-blank: one bank's mapping answers "" for both names, whatever the bank gives.
  const blank = (faults.has('data-names-blank') || faults.has('records-not-given')) && bankId === BLANK_BANK;
  const ownerName = blank ? '' : owner === '' && faults.has('data-owner-null') ? null : owner;
  return withExtras(faults, { ...record, ownerName, displayName: blank ? '' : displayName }, { status: 'enabled', usage: 'PRIV' });
}

export function listAccounts(call: Call): Answer {
  const { bank } = requireSession(call, 'accounts');
  psuIp(call, false);
  // Quirk one-account: the test user has only the first account at each bank.
  const accounts = accountsOf(bank.record.id);
  return ok((call.ctx.faults.has('one-account') ? accounts.slice(0, 1) : accounts).map(a => present(call, a.record, a.bankId)));
}

function transactionsFor(call: Call, accountId: string | undefined): Answer {
  const { bank } = requireSession(call, 'accounts');
  psuIp(call, false);
  if (!accountId) throw missingParameter('accountId');
  const account = findAccount(bank.record.id, accountId);
  if (!account) throw invalidId('account', accountId);
  // The counterparty fields are a later change of spec 9 without a number: at the latest version only.
  const later = has(call.ctx, 'later-changes');
  // Fault data-counterparty-blank: one bank's mapping answers "" for every counterparty field.
  const blank = (call.ctx.faults.has('data-counterparty-blank') || call.ctx.faults.has('records-not-given')) && bank.record.id === BLANK_BANK;
  const list = transactionsOf(account, call.ctx.clock.date(), later ? call.ctx.faults : new Set())
    .map(t => blank ? { ...t, counterpartyAccount: '', counterpartyName: '', counterpartyAgent: '' } : t)
    .map(t => later ? t : (({ counterpartyAccount: _a, counterpartyName: _n, counterpartyAgent: _g, ...rest }) => rest)(t));
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
