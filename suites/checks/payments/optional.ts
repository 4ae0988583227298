// What a payment request may leave out or add (spec 4.4: "x-psu-ip-address |
// Optional on account and payment endpoints; required for some banks";
// "optional object paymentMetadata" on domestic and SEPA payments), and the
// payment amount limit of spec 8.
import type { Check } from '../../support/register.ts';
import { target } from '../../support/target.ts';
import { getPayment, accepted, paymentBody, postPayment, type Product } from '../../support/payments.ts';
import { paymentStatusOf } from '../../support/describe.ts';
import { describeAnswer, show } from '../../support/check.ts';
import { psuIpVerdict } from '../data/psu-ip.ts';
import { cases, flowBanks } from './common.ts';

export const psuIpOptional: Check = {
  id: 'payments.domestic.psu-ip-optional', requirements: ['R4.4-psu-ip-address-optional'], spec: '4.4',
  title: 'Payment initiation works without x-psu-ip-address, except at banks that require it',
  quote: 'x-psu-ip-address | Optional on account and payment endpoints; required for some banks.',
  async run(c) {
    const name = target().headers.psuIpAddress;
    const answers: { bankId: string; served: boolean; seen: string }[] = [];
    for (const bank of await flowBanks(c)) {
      const a = await postPayment(c, bank.id, 'domestic-transfer', await paymentBody(bank.id, 'domestic-transfer'), `domestic-transfer without ${name}`,
        { [name]: '' });
      c.expect(accepted(a) || a.kind === 'refused', `a domestic payment at ${bank.id} without ${name} got neither an answer nor an error`,
        'a payment or an error answer', describeAnswer(a.res), a.res);
      answers.push({ bankId: bank.id, served: accepted(a), seen: describeAnswer(a.res) });
    }
    psuIpVerdict(c, name, 'payment initiation', answers);
  },
};

function metadataCheck(area: string, product: Product): Check {
  return {
    id: `payments.${area}.metadata`, requirements: ['R4.4-payment-metadata-optional'], spec: '4.4',
    title: `A ${product} payment with paymentMetadata is accepted`,
    quote: `POST /payments/${product} | ... optional object paymentMetadata (risk analysis data for banks). ` +
      '(9 3.0.0: endToEndIdentification and paymentMetadata on domestic and SEPA payments.)',
    async run(c) {
      for (const { bankId } of await cases(c, [product])) {
        // Its fields are not shown; the empty object is the one value every bank must take.
        const body = await paymentBody(bankId, product, { extra: { paymentMetadata: {} } });
        const a = await postPayment(c, bankId, product, body, `${product} with paymentMetadata {}`);
        c.expect(accepted(a), `a ${product} payment at ${bankId} with paymentMetadata was not accepted`,
          'a 2xx answer with paymentId, or the strong-customer-authentication error', describeAnswer(a.res), a.res);
      }
    },
  };
}

export const domesticMetadata = metadataCheck('domestic', 'domestic-transfer');
export const sepaMetadata = metadataCheck('sepa', 'sepa-credit');

/** Arbitrary: beyond any account's limit and balance, within the 13 integer digits amounts allow. */
export const HUGE = '9999999999.00';
const REJECTED = ['RJCT', 'CANC'];

export const amountLimit: Check = {
  id: 'payments.domestic.amount-limit', requirements: ['R8-amount-limit'], needs: ['R4.4-domestic-payment'], spec: '8',
  title: `A payment of ${HUGE} is refused or rejected, not accepted as it is`,
  quote: 'A payment amount limit of a bank account exists (an error code relates to exceeding it; abortReason LIMIT_EXCEEDED).',
  async run(c) {
    let judged = 0;
    for (const bank of await flowBanks(c)) {
      const a = await postPayment(c, bank.id, 'domestic-transfer', await paymentBody(bank.id, 'domestic-transfer', { amount: HUGE }),
        `domestic-transfer of ${HUGE}`);
      // With strong customer authentication the bank may refuse it only when the person authorises: not judged here.
      if (a.kind === 'sca') { c.note(`${bank.id} asked for strong customer authentication first; its limit would show at authorisation`); continue; }
      judged++;
      if (a.kind !== 'created') {
        c.expect(a.kind === 'refused', `the payment of ${HUGE} at ${bank.id} got no usable answer`, 'an error answer', describeAnswer(a.res), a.res);
        continue;
      }
      const status = a.paymentId ? paymentStatusOf((await getPayment(c, bank.id, 'domestic-transfer', a.paymentId)).json) : a.status;
      c.expect(REJECTED.includes(String(status)), `${bank.id} accepted a payment of ${HUGE} with status ${show(status)}`,
        `an error answer, or status ${REJECTED.join(' or ')}`, describeAnswer(a.res), a.res);
    }
    if (!judged) c.skip('every bank under test asks for strong customer authentication first, so the limit would show only when a person authorises');
  },
};
