// payments.confirm-funds (spec 4.4, 7; 9 1.0.2): a bank that supports it
// answers whether the funds are there; one that does not answers Not
// Implemented. Which banks support it is not listed anywhere, so the checks
// tell them apart by their answers: a bank that says yes to an amount far
// beyond the account's balance is not really confirming funds.
import type { Check } from '../../support/register.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { obj, ok } from '../../support/api.ts';
import { show, type CheckContext } from '../../support/check.ts';
import { banksUnderTest } from '../../support/banks.ts';
import { expectContract } from '../../support/contract.ts';
import { currencyOf, ownAccounts } from '../../support/payments.ts';
import { sessionCall } from '../../support/sessions.ts';

/** Arbitrary: more than any test account holds, within the 13 integer digits amounts allow. */
const HUGE = '9999999999.00';

async function ask(c: CheckContext, bankId: string, amount: string): Promise<ExchangeResponse> {
  const account = (await ownAccounts(bankId))[0]!;
  return sessionCall(c, bankId, 'payments', 'POST', 'confirmFunds', {}, {
    body: { iban: account.iban ?? account.bban, amount, currency: currencyOf(account) }, label: `confirm funds of ${amount} at ${bankId}`,
  });
}

const answered = (res: ExchangeResponse) => ok(res) && typeof obj(res)?.fundsAvailable === 'boolean';

export const answers: Check = {
  id: 'payments.confirm-funds.answers', requirements: ['R4.4-confirm-funds', 'P-ops-confirm-funds-501'], spec: '4.4',
  title: 'POST /confirm-funds answers fundsAvailable, or 501 Not Implemented',
  quote: 'POST /confirm-funds | Confirms available funds. Part of payment initiation. Unsupported providers return a Not Implemented error.',
  async run(c) {
    for (const bank of await banksUnderTest()) {
      const res = await ask(c, bank.id, '1.00');
      c.expect(answered(res) || res.status === 501, `confirm-funds at ${bank.id} answered neither`, '2xx {"fundsAvailable": true|false} or 501 Not Implemented', `${res.status} ${show(res.json ?? res.text)}`);
    }
  },
};

export const notImplemented: Check = {
  id: 'payments.confirm-funds.not-implemented', requirements: ['R7-confirm-funds-not-implemented', 'P-ops-confirm-funds-501'], spec: '7',
  title: 'A bank that cannot confirm funds answers 501, not a made-up yes',
  quote: 'Confirm funds: providers that do not support it return a Not Implemented error.',
  async run(c) {
    for (const bank of await banksUnderTest()) {
      const res = await ask(c, bank.id, HUGE);
      const yes = ok(res) && obj(res)?.fundsAvailable === true;
      c.expect(!yes, `${bank.id} confirmed ${HUGE} as available, more than the account holds: a bank that cannot check funds must answer 501 Not Implemented`,
        '{"fundsAvailable": false}, or 501 Not Implemented', `${res.status} ${show(res.json ?? res.text)}`);
    }
  },
};

export const errorBody: Check = {
  id: 'payments.confirm-funds.error-body', requirements: ['P-error-body-shape'], spec: '7',
  title: 'The Not Implemented answer carries the error body of profile.md',
  quote: 'profile.md: confirm funds | unsupported bank -> 501 with an error body',
  async run(c) {
    const items = [];
    for (const bank of await banksUnderTest()) {
      const res = await ask(c, bank.id, '1.00');
      if (res.status === 501) items.push({ label: `501 of ${bank.id}`, value: res.json ?? res.text });
    }
    if (!items.length) c.skip('no bank under test answered 501');
    expectContract(c, 'error-body', items, 'profile');
  },
};
