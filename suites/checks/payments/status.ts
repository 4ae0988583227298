// payments.status: the latest status of a payment by its id, and the nine
// codes of the Nordic banks (spec 3.3).
import type { Check } from '../../support/register.ts';
import { NORDIC_PAYMENT_CODES } from '../../../harness/contracts/enums.ts';
import { obj, ok } from '../../support/api.ts';
import { type CheckContext, describeAnswer, Prerequisite, show } from '../../support/check.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { banksUnderTest, isNordic, type Bank } from '../../support/banks.ts';
import { expectContract } from '../../support/contract.ts';
import { everyBankProduct, getPayment, PRODUCTS, settledPayment, supports, type Product } from '../../support/payments.ts';
import { flowBanks } from './common.ts';
import { bankCountry, paymentIdOf, paymentStatusOf, where } from '../../support/describe.ts';

/** Payments of every payment bank and product whose id is known, after authorisation where the bank asked for it. */
async function payments(c: CheckContext, only?: (b: Bank) => boolean): Promise<Paid[]> {
  const out = [];
  for (const bank of (await flowBanks(c)).filter(only ?? (() => true)))
    for (const product of PRODUCTS.filter(p => supports(bank, p))) out.push(...await paid(c, bank, product));
  if (!out.length) c.skip('not checked: no payment with a known paymentId could be made (see payments.*.initiate)');
  return out;
}

interface Paid { bank: Bank; product: Product; paymentId: string; initial?: unknown; created?: ExchangeResponse; authorised: boolean }

/** The settled payment of `product` at `bank`, when its id is known. */
async function paid(c: CheckContext, bank: Bank, product: Product): Promise<Paid[]> {
  const { answer: a, created, auth } = await settledPayment(c, bank.id, product);
  if ((a.kind !== 'created' && a.kind !== 'sca') || !a.paymentId) return [];
  return [{ bank, product, paymentId: a.paymentId, initial: a.kind === 'created' ? a.status : undefined, created, authorised: !!auth?.outcome }];
}

/** The answer of Get Payment by ID is the payment asked for, with a status. */
function expectPayment(c: CheckContext, p: Paid, res: ExchangeResponse, when: string): void {
  const body = obj(res);
  const what = `payment ${p.paymentId} (${p.product} at ${p.bank.id}), ${when}`;
  c.expect(ok(res) && body, `${what} was not answered`, 'a 2xx answer with the payment', `${describeAnswer(res)}`, res);
  const id = paymentIdOf(body);
  c.expect(id === undefined || id === p.paymentId, `${what} was answered with another payment`,
    `${where('payment.id')} ${show(p.paymentId)}`, show(id), res);
  const status = paymentStatusOf(body);
  c.expect(typeof status === 'string' && status, `${what} has no status`, `a string at ${where('payment.status')}`, show(status), res);
}

export const byId: Check = {
  id: 'payments.status.by-id', requirements: ['R3.3-payment-by-id'], spec: '3.3',
  title: 'Get Payment by ID answers the payment asked for and its status, once created and again after authorisation, for every product',
  quote: 'The latest status of a payment is available by payment identifier through the Get Payment by ID operation.',
  bindsAt: { family: 'product' },
  async run(c) {
    const banks = await flowBanks(c);
    const offered = PRODUCTS.filter(p => banks.some(b => supports(b, p)));
    if (!offered.length) c.skip('not checked: no bank under test offers a payment product');
    const seen: string[] = [];
    await c.everyPlace('product', offered.map(p => ({ name: p, value: p })), async product => {
      const list = (await Promise.all(banks.filter(b => supports(b, product)).map(b => paid(c, b, product)))).flat();
      if (!list.length) throw new Prerequisite(`no ${product} payment with a known paymentId could be made (see payments.*.initiate)`);
      for (const p of list) {
        if (p.created) expectPayment(c, p, p.created, 'read once created');
        const res = await getPayment(c, p.bank.id, p.product, p.paymentId);
        expectPayment(c, p, res, p.authorised ? 'read after its authorisation' : 'read again');
        seen.push(`${p.product} at ${p.bank.id}: ${show(paymentStatusOf(obj(p.created ?? res)))} -> ${show(paymentStatusOf(obj(res)))}`);
      }
    });
    c.summary = [c.summary, `statuses read (once created -> later): ${seen.join('; ')}`].filter(Boolean).join('; ');
  },
};

/** The domestic payment (a SEPA credit before 2.0.0) at every Nordic bank under test, and every product at the payment banks. */
export const nordicCodes: Check = {
  id: 'payments.status.nordic-codes', requirements: ['R3.3-nordic-codes'], spec: '3.3',
  title: 'Payments at every bank in NO, SE, FI and DK carry only the nine Nordic status codes',
  quote: 'Banks in Norway, Sweden, Finland and Denmark return only: RCVD, ACCP, ACSP, ACSC, RJCT, CANC, PDNG, NAUT, PRSY.',
  bindsAt: { family: 'bank' },
  async run(c) {
    const nordic = (await banksUnderTest()).filter(isNordic);
    if (!nordic.length) c.notApplicable('no bank under test is in NO, SE, FI or DK');
    const flow = new Set((await flowBanks(c)).map(b => b.id));
    await c.everyPlace('bank', nordic.map(b => ({ name: b.id, value: b })), async bank => {
      const products = flow.has(bank.id) ? PRODUCTS.filter(p => supports(bank, p)) : [everyBankProduct()];
      const list = (await Promise.all(products.map(p => paid(c, bank, p)))).flat();
      if (!list.length) throw new Prerequisite(`no payment with a known paymentId could be made at ${bank.id} (see payments.*.initiate)`);
      const expectNordic = (status: unknown, what: string, res?: ExchangeResponse) =>
        c.expect(NORDIC_PAYMENT_CODES.includes(String(status)), `${what} (${bank.id}, ${bankCountry(bank)}) has a status outside the nine codes`,
          NORDIC_PAYMENT_CODES.join(', '), show(status), res);
      for (const p of list) {
        if (p.initial !== undefined) expectNordic(p.initial, `the initiation answer of ${p.product}`);
        if (p.created && ok(p.created)) expectNordic(paymentStatusOf(obj(p.created)), `payment ${p.paymentId} (${p.product}) once created`, p.created);
        const res = await getPayment(c, bank.id, p.product, p.paymentId);
        if (ok(res)) expectNordic(paymentStatusOf(obj(res)), `payment ${p.paymentId} (${p.product})${p.authorised ? ' after its authorisation' : ''}`, res);
      }
    });
  },
};

export const contract: Check = {
  id: 'payments.status.profile-fields', requirements: ['P-ops-payment-answer'], spec: '3.3',
  title: "Payment answers carry docs/profile.md's payment status fields",
  quote: 'docs/profile.md: payment by id | GET /payments/{product}/{paymentId} | 200 {"paymentId", "status", ...}',
  async run(c) {
    const items = [];
    for (const p of await payments(c)) {
      const res = await getPayment(c, p.bank.id, p.product, p.paymentId);
      if (ok(res)) items.push({ label: `payment ${p.paymentId}`, value: res.json });
    }
    expectContract(c, 'payment-status', items);
  },
};
