// Where the payment flows run. What a flow depends on is per bank and not in
// the bank record: whether it asks for strong customer authentication (spec 9
// 1.0.1) and whether it confirms funds (spec 7). Both are learned cheaply at
// every bank under test (one domestic payment, not authorised, and one
// confirm-funds request; before API version 2.0.0 a SEPA payment); the flows then run at one bank per distinct
// behaviour (country, authentication, confirm-funds), plus a bank for each
// supportedServices value no chosen bank lists (bank-sample.ts).
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { isError, obj, ok } from './api.ts';
import { Prerequisite, type CheckContext } from './check.ts';
import { oneBankPerBehaviour, type Behaviour } from './bank-sample.ts';
import { banksUnderTest, NO_ACCOUNTS, NO_ACCOUNTS_REMEDY, type Bank } from './banks.ts';
import { Memo } from './memo.ts';
import { currencyOf, everyBankProduct, initiate, offered, ownAccounts } from './payments.ts';
import { sessionCall } from './sessions.ts';
import { confirmFundsRequest, fundsAvailableOf, type OwnAccount } from './describe.ts';
import { perPart } from './part.ts';

/**
 * Spec 7: "Unsupported providers return a Not Implemented error". HTTP 501
 * is that error's name; an error answer whose body says "not implemented" is
 * accepted too, since how the service words its errors is not shown.
 */
export function isNotImplemented(res: ExchangeResponse): boolean {
  if (res.status === 501) return true;
  const b = obj(res);
  return isError(res) && !!b && /not[\s_-]*implemented/i.test(`${String(b.message ?? '')} ${String(b.type ?? '')} ${String(b.error ?? '')}`);
}

/** The yes or no of a 2xx confirm-funds answer (description confirm-funds.available). */
export const fundsAnswer = (res: ExchangeResponse): boolean | undefined => (ok(res) ? fundsAvailableOf(res.json) : undefined);

const funds = perPart(() => new Memo<{ res: ExchangeResponse; account: OwnAccount }>());

/** POST /confirm-funds for `amount` from the bank's first account, once per bank and amount per part of the run. */
export function confirmFunds(c: CheckContext | null, bankId: string, amount: string): Promise<{ res: ExchangeResponse; account: OwnAccount }> {
  return funds().get(c, `${bankId} ${amount}`, async ctx => {
    const account = (await ownAccounts(bankId))[0]!;
    const res = await sessionCall(ctx, bankId, 'payments', 'POST', 'confirmFunds', {}, {
      body: confirmFundsRequest({ iban: account.iban ?? account.bban, amount, currency: currencyOf(account) }),
      label: `confirm funds of ${amount} at ${bankId}`,
    });
    return { res, account };
  });
}

/**
 * What the domestic payment and the confirm-funds probe showed about a bank;
 * undefined where no payment could be made, or where the bank refuses the
 * plain payment of a product the spec does not say it must offer (offered):
 * the flows, which pay with that product, run at the other banks.
 */
async function behaviourOf(bank: Bank): Promise<Behaviour | undefined> {
  try {
    if (!(await offered(null, bank, everyBankProduct())).yes) return undefined;
    const a = await initiate(null, bank.id, everyBankProduct());
    const { res } = await confirmFunds(null, bank.id, '1.00');
    const sca = a.kind === 'sca' ? true : a.kind === 'created' ? false : undefined;
    const f = fundsAnswer(res) !== undefined ? true : isNotImplemented(res) ? false : undefined;
    return { sca, funds: f };
  } catch (e) {
    if (e instanceof Prerequisite) return undefined;
    throw e;
  }
}

export interface PaymentBank { bank: Bank; key: string }

const chosen = perPart(() => ({ value: undefined as Promise<{ banks: PaymentBank[]; summary: string }> | undefined }));

/** The banks the payment flows run at, once per part of the run; none is a Prerequisite naming why. */
export function paymentBanks(): Promise<{ banks: PaymentBank[]; summary: string }> {
  return chosen().value ??= (async () => {
    const all = await banksUnderTest();
    const candidates: { bank: Bank; behaviour: Behaviour }[] = [];
    for (const bank of all) {
      const behaviour = await behaviourOf(bank);
      if (behaviour) candidates.push({ bank, behaviour });
    }
    if (!candidates.length) {
      const accounts = await Promise.all(all.map(b => ownAccounts(b.id).then(() => true, () => false)));
      if (!accounts.some(Boolean)) throw new Prerequisite(`${NO_ACCOUNTS}, so no payment could be made`, NO_ACCOUNTS_REMEDY);
      throw new Prerequisite(`no payment could be made at any of the ${all.length} banks under test (see payments.domestic.initiate)`);
    }
    const banks = oneBankPerBehaviour(candidates);
    const summary = `payment flows at ${banks.length} of ${all.length} banks, one per behaviour: ${banks.map(b => `${b.bank.id} (${b.key})`).join('; ')}`;
    return { banks, summary };
  })();
}
