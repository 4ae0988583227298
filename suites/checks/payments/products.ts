// Products that depend on supportedServices (spec 2.6 "A value present means
// the bank supports that feature"): instant domestic payments through the
// domestic endpoint (spec 4.4), and the refusal of a product a bank does not
// list. How a client asks for an instant payment is not shown; docs/profile.md
// decides it ("instantPayment": true), so these checks are level profile.
import type { Check } from '../../support/register.ts';
import { services } from '../../support/banks.ts';
import { accepted, INSTANT, paymentBody, postPayment, SCHEDULED } from '../../support/payments.ts';
import { flowBanks } from './common.ts';
import { describeAnswer } from '../../support/check.ts';

export const instant: Check = {
  id: 'payments.domestic.instant',
  requirements: ['R4.4-domestic-instant', 'R2.6-supported-services-meaning', 'P-ops-instant-payment', 'P-records-unsupported-product'], spec: '4.4',
  title: 'An instant domestic payment goes through domestic-transfer where supportedServices lists instant-domestic-transfer, and is refused elsewhere',
  quote: 'POST /payments/domestic-transfer | Also used for instant domestic payments for banks whose supportedServices has instant-domestic-transfer. ' +
    '(docs/profile.md: the request carries "instantPayment": true.)',
  async run(c) {
    const seen: string[] = [];
    for (const bank of await flowBanks(c)) {
      const listed = services(bank).includes(INSTANT);
      const body = await paymentBody(bank.id, 'domestic-transfer', { extra: { instantPayment: true } });
      const a = await postPayment(c, bank.id, 'domestic-transfer', body, 'an instant domestic-transfer');
      if (listed) c.expect(accepted(a), `the instant payment at ${bank.id}, which lists ${INSTANT}, was not accepted`,
        'a 2xx answer with paymentId, or the strong-customer-authentication error', describeAnswer(a.res), a.res);
      else c.expect(a.kind === 'refused', `${bank.id} accepted an instant payment, but its supportedServices does not list ${INSTANT}`,
        'an error answer', describeAnswer(a.res), a.res);
      seen.push(`${bank.id} ${listed ? 'accepted' : 'refused'}`);
    }
    c.summary = seen.join('; ');
  },
};

export const unsupportedProduct: Check = {
  id: 'payments.scheduled.unsupported-product', requirements: ['R2.6-supported-services-meaning', 'P-records-unsupported-product'], spec: '2.6',
  title: 'A scheduled product the bank does not list in supportedServices is refused',
  quote: 'supportedServices | A value present means the bank supports that feature. ' +
    '(docs/profile.md: a product the bank does not list is refused with an error body.)',
  async run(c) {
    let tried = 0;
    for (const bank of await flowBanks(c)) {
      for (const product of SCHEDULED.filter(p => !services(bank).includes(p))) {
        tried++;
        const a = await postPayment(c, bank.id, product, await paymentBody(bank.id, product), `${product}, not listed by ${bank.id}`);
        c.expect(a.kind === 'refused', `${bank.id} accepted ${product}, which its supportedServices does not list`, 'an error answer',
          describeAnswer(a.res), a.res);
      }
    }
    if (!tried) c.notApplicable('every bank under test lists both scheduled products');
  },
};
