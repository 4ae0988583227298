// POST /confirm-funds {"iban", "amount", "currency"} (spec 4.4, 9 1.0.2 and
// 3.0.0). Spec 7: "providers that do not support it return a Not Implemented
// error": 501 with an error body, checked before the body so that any request
// to such a bank shows it.
import { accountsOf, findAccountByIban } from '../data/accounts.ts';
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { invalidId, missingParameter, notImplemented } from './errors.ts';
import { psuIp, requireSession } from './guards.ts';

export function confirmFunds(call: Call): Answer {
  const { bank } = requireSession(call);
  psuIp(call, false);
  if (!bank.behaviour.confirmFunds) {
    // Fault payments-confirm-funds-unsupported-200: the unsupporting bank answers 200 as if it worked.
    if (call.ctx.faults.has('payments-confirm-funds-unsupported-200')) return ok({ fundsAvailable: true });
    // Fault payments-confirm-funds-unsupported-false: it answers 200 "no funds" to every amount instead.
    if (call.ctx.faults.has('payments-confirm-funds-unsupported-false')) return ok({ fundsAvailable: false });
    throw notImplemented(`${bank.record.bankDisplayName} does not support confirm-funds`);
  }
  const { iban, amount, currency } = call.body;
  if (typeof iban !== 'string' || !iban) throw missingParameter('iban');
  const value = typeof amount === 'number' ? amount : typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : NaN;
  if (amount === undefined) throw missingParameter('amount');
  if (!Number.isFinite(value) || value <= 0) throw missingParameter('amount', 'must be a positive number');
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw missingParameter('currency');
  // Fault payments-confirm-funds-first-account: the bank's first account answers, whatever iban was asked about.
  const account = call.ctx.faults.has('payments-confirm-funds-first-account') ? accountsOf(bank.record.id)[0] : findAccountByIban(bank.record.id, iban);
  if (!account) throw invalidId('account', iban);
  const balance = Number(account.record.balances[0].amount);
  return ok(withExtras(call.ctx.faults, { fundsAvailable: value <= balance }, { checkedAt: call.ctx.clock.date().toISOString() }));
}
