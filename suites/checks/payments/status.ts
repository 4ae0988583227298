// payments.status: the latest status of a payment by its id, and the nine
// codes of the Nordic banks (spec 3.3).
import type { Check } from '../../support/register.ts';
import { NORDIC_PAYMENT_CODES } from '../../../harness/contracts/enums.ts';
import { obj, ok } from '../../support/api.ts';
import { type CheckContext, describeAnswer, show } from '../../support/check.ts';
import { isNordic, type Bank } from '../../support/banks.ts';
import { expectContract } from '../../support/contract.ts';
import { getPayment, PRODUCTS, settledPayment, supports, type Product } from '../../support/payments.ts';
import { flowBanks } from './common.ts';
import { bankCountry, paymentStatusOf, where } from '../../support/describe.ts';

/** Payments of every payment bank and product whose id is known, after authorisation where the bank asked for it. */
async function payments(c: CheckContext, only?: (b: Bank) => boolean): Promise<{ bank: Bank; product: Product; paymentId: string; initial?: unknown }[]> {
  const out = [];
  for (const bank of (await flowBanks(c)).filter(only ?? (() => true))) {
    for (const product of PRODUCTS.filter(p => supports(bank, p))) {
      const { answer: a } = await settledPayment(c, bank.id, product);
      if ((a.kind === 'created' || a.kind === 'sca') && a.paymentId)
        out.push({ bank, product, paymentId: a.paymentId, initial: a.kind === 'created' ? a.status : undefined });
    }
  }
  if (!out.length) c.skip('not checked: no payment with a known paymentId could be made (see payments.*.initiate)');
  return out;
}

export const byId: Check = {
  id: 'payments.status.by-id', requirements: ['R3.3-payment-by-id'], spec: '3.3',
  title: 'Get Payment by ID answers the payment and its status',
  quote: 'The latest status of a payment is available by payment identifier through the Get Payment by ID operation.',
  async run(c) {
    for (const p of await payments(c)) {
      const res = await getPayment(c, p.bank.id, p.product, p.paymentId);
      const body = obj(res);
      c.expect(ok(res) && body, `payment ${p.paymentId} (${p.product} at ${p.bank.id}) was not answered`, 'a 2xx answer with the payment',
        `${describeAnswer(res)}`, res);
      const status = paymentStatusOf(body);
      c.expect(typeof status === 'string' && status, `payment ${p.paymentId} has no status`, `a string at ${where('payment.status')}`, show(body), res);
    }
  },
};

export const nordicCodes: Check = {
  id: 'payments.status.nordic-codes', requirements: ['R3.3-nordic-codes'], spec: '3.3',
  title: 'Payments at banks in NO, SE, FI and DK carry only the nine Nordic status codes',
  quote: 'Banks in Norway, Sweden, Finland and Denmark return only: RCVD, ACCP, ACSP, ACSC, RJCT, CANC, PDNG, NAUT, PRSY.',
  async run(c) {
    if (!(await flowBanks(c)).some(isNordic)) c.notApplicable('no bank under test is in NO, SE, FI or DK');
    for (const p of await payments(c, isNordic)) {
      if (p.initial !== undefined)
        c.expect(NORDIC_PAYMENT_CODES.includes(String(p.initial)),
          `the initiation answer of ${p.product} at ${p.bank.id} (${bankCountry(p.bank)}) has a status outside the nine codes`,
          NORDIC_PAYMENT_CODES.join(', '), show(p.initial));
      const res = await getPayment(c, p.bank.id, p.product, p.paymentId);
      const status = paymentStatusOf(res.json);
      if (!ok(res)) continue; // payments.status.by-id reports it
      c.expect(NORDIC_PAYMENT_CODES.includes(String(status)),
        `payment ${p.paymentId} (${p.product} at ${p.bank.id}, ${bankCountry(p.bank)}) has a status outside the nine codes`,
        NORDIC_PAYMENT_CODES.join(', '), show(status), res);
    }
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
    expectContract(c, 'payment-status', items, 'profile');
  },
};
