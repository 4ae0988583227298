// payments.confirm-funds (spec 4.4, 7; 9 1.0.2): a bank that supports it
// answers whether the funds are there; one that does not answers Not
// Implemented. Which banks support it is not listed anywhere, so the checks
// ask every bank under test twice, for 1.00 and for far more than any account
// holds, and read the answers against the balance the account reports: a bank
// whose answers do not follow the balance is not confirming funds, and such a
// bank must say Not Implemented.
import type { Check } from '../../support/register.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { describeAnswer, Prerequisite, type CheckContext } from '../../support/check.ts';
import { currencyOf, NoAccounts, ownAccounts } from '../../support/payments.ts';
import { sessionCall } from '../../support/sessions.ts';
import { banksUnderTest, NO_ACCOUNTS, NO_ACCOUNTS_REMEDY } from '../../support/banks.ts';
import { expectContract } from '../../support/contract.ts';
import { confirmFunds, fundsAnswer, isNotImplemented } from '../../support/payment-banks.ts';
import { atEachBank } from './common.ts';
import { HUGE } from './optional.ts';
import { confirmFundsRequest, where, type OwnAccount } from '../../support/describe.ts';

const seen = (r: { res: ExchangeResponse }) => describeAnswer(r.res);

export const answers: Check = {
  id: 'payments.confirm-funds.answers', requirements: ['R4.4-confirm-funds', 'P-ops-confirm-funds-501'], spec: '4.4',
  title: 'POST /confirm-funds answers fundsAvailable, or Not Implemented',
  quote: 'POST /confirm-funds | Confirms available funds. Part of payment initiation. Unsupported providers return a Not Implemented error.',
  async run(c) {
    await atEachBank(c, await banksUnderTest(), b => b.id, async bank => {
      const r = await confirmFunds(c, bank.id, '1.00');
      c.expect(fundsAnswer(r.res) !== undefined || isNotImplemented(r.res), `confirm-funds at ${bank.id} answered neither`,
        `2xx with true or false at ${where('confirm-funds.available')}, or a Not Implemented error (501)`, seen(r), r.res);
    });
  },
};

/** The balance of the account the request names (description account.balance), when it says one. */
function balanceOf(account: OwnAccount): number | undefined {
  const n = Number(account.balance);
  return account.balance !== undefined && account.balance !== '' && account.balance !== null && Number.isFinite(n) ? n : undefined;
}

async function judge(c: CheckContext, bankId: string): Promise<'supported' | 'not-implemented'> {
  const small = await confirmFunds(c, bankId, '1.00');
  const huge = await confirmFunds(c, bankId, HUGE);
  if (isNotImplemented(small.res)) {
    c.expect(isNotImplemented(huge.res), `${bankId} answered Not Implemented for 1.00 but not for ${HUGE}`, 'Not Implemented for every amount',
      seen(huge), huge.res);
    return 'not-implemented';
  }
  const yesSmall = fundsAnswer(small.res), yesHuge = fundsAnswer(huge.res);
  const cannot = 'a bank that cannot confirm funds must answer Not Implemented';
  c.expect(yesHuge !== true, `${bankId} confirmed ${HUGE} as available, more than the account holds: ${cannot}`,
    `false at ${where('confirm-funds.available')}, or Not Implemented`, seen(huge), huge.res);
  const balance = balanceOf(small.account);
  if (yesSmall === false && balance !== undefined && balance >= 1)
    c.fail(`${bankId} said 1.00 is not available from an account whose balance is ${balance}: ${cannot}`,
      `true at ${where('confirm-funds.available')}, or Not Implemented`, seen(small), small.res);
  c.expect(yesHuge !== undefined, `${bankId} answered ${HUGE} with neither a yes or no nor Not Implemented`, `false at ${where('confirm-funds.available')}`,
    seen(huge), huge.res);
  return 'supported';
}

export const notImplemented: Check = {
  id: 'payments.confirm-funds.not-implemented', requirements: ['R7-confirm-funds-not-implemented'], spec: '7',
  title: 'A bank that cannot confirm funds answers Not Implemented, not a made-up yes or no',
  quote: 'Confirm funds: providers that do not support it return a Not Implemented error.',
  async run(c) {
    const found: Record<string, string[]> = { supported: [], 'not-implemented': [] };
    await atEachBank(c, await banksUnderTest(), b => b.id, async bank => {
      const small = await confirmFunds(c, bank.id, '1.00');
      // An answer that is neither fundsAvailable nor Not Implemented is payments.confirm-funds.answers' finding.
      if (fundsAnswer(small.res) === undefined && !isNotImplemented(small.res)) { c.note(`${bank.id}: see payments.confirm-funds.answers`); return; }
      found[await judge(c, bank.id)]!.push(bank.id);
    });
    c.summary = `confirms funds at ${found.supported!.join(', ') || 'no bank'}; Not Implemented at ${found['not-implemented']!.join(', ') || 'no bank'}`;
  },
};

export const errorBody: Check = {
  id: 'payments.confirm-funds.error-body', requirements: ['P-error-body-shape', 'P-ops-confirm-funds-501'], spec: '7',
  title: 'The Not Implemented answer is 501 with the error body of docs/profile.md',
  quote: 'docs/profile.md: confirm funds | unsupported bank -> 501 with an error body',
  async run(c) {
    const items = [];
    for (const bank of await banksUnderTest()) {
      const r = await confirmFunds(c, bank.id, '1.00').catch(() => undefined);
      if (!r || !isNotImplemented(r.res)) continue;
      c.expect(r.res.status === 501, `the Not Implemented answer of ${bank.id} is not 501`, '501', seen(r), r.res);
      items.push({ label: `Not Implemented of ${bank.id}`, value: r.res.json ?? r.res.text });
    }
    if (!items.length) c.notApplicable('every bank under test confirms funds');
    expectContract(c, 'error-body', items);
  },
};

/** An amount as the API writes one: two decimals. */
const money = (n: number) => (Math.floor(n * 100) / 100).toFixed(2);

export const followsBalance: Check = {
  id: 'payments.confirm-funds.follows-balance', requirements: ['R4.4-confirm-funds'], spec: '4.4',
  title: 'confirm-funds answers for the account asked about: yes below its balance, no above it, on two accounts of each bank',
  quote: 'POST /confirm-funds | Confirms available funds. Part of payment initiation.',
  bindsAt: { family: 'bank' },
  async run(c) {
    const banks = [];
    const gaps: Prerequisite[] = [];
    for (const bank of await banksUnderTest()) {
      try {
        if (fundsAnswer((await confirmFunds(c, bank.id, '1.00')).res) !== undefined) banks.push(bank);
      } catch (e) {
        if (!(e instanceof Prerequisite)) throw e;
        gaps.push(e);
      }
    }
    if (!banks.length && gaps.length && gaps.every(g => g instanceof NoAccounts))
      throw new Prerequisite(`${NO_ACCOUNTS}, so no funds could be asked about`, NO_ACCOUNTS_REMEDY);
    if (!banks.length && gaps.length) throw new Prerequisite(gaps.map(g => g.message).join('; '));
    if (!banks.length) c.notApplicable('no bank under test confirms funds');
    await c.everyPlace('bank', banks.map(b => ({ name: b.id, value: b })), async bank => {
      const accounts = (await ownAccounts(bank.id)).filter(a => (balanceOf(a) ?? 0) >= 0.02 && (a.iban ?? a.bban)).slice(0, 2);
      if (!accounts.length) throw new Prerequisite(`no account at ${bank.id} states a balance above 0.01 to ask about`);
      if (accounts.length < 2) c.note(`${bank.id} lists one account with a balance; it is asked about alone`);
      for (const account of accounts) {
        const balance = balanceOf(account)!;
        // Below: half the balance. Above: twice the balance and one more, beyond the balance though within the range of the other accounts'.
        for (const [amount, yes] of [[money(balance / 2), true], [money(balance * 2 + 1), false]] as const) {
          const res = await sessionCall(c, bank.id, 'payments', 'POST', 'confirmFunds', {}, {
            body: confirmFundsRequest({ iban: account.iban ?? account.bban, amount, currency: currencyOf(account) }),
            label: `confirm funds of ${amount} from ${String(account.iban ?? account.bban)} (balance ${balance}) at ${bank.id}`,
          });
          c.expect(fundsAnswer(res) === yes, `${bank.id} answered ${amount} from an account whose balance is ${balance} wrongly`,
            `{"fundsAvailable": ${yes}}`, seen({ res }), res);
        }
      }
    });
  },
};
