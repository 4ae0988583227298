// payments.domestic / payments.sepa / payments.scheduled: initiation of each
// product the banks under test offer, its required fields, and authorisation
// (spec 4.4; 9 1.0.1 "payment initiation responses differ by whether
// authentication is required", 3.0.0 endToEndIdentification, 3.1.0, 3.2.0).
import type { Check } from '../../support/register.ts';
import type { CheckContext } from '../../support/check.ts';
import { isAbsoluteUrl, links, ok } from '../../support/api.ts';
import { banksUnderTest } from '../../support/banks.ts';
import { authorize, initiate, paymentBody, postPayment, SCHEDULED, supports, type Product } from '../../support/payments.ts';
import { banksFor, describe } from './common.ts';

/** Every bank and product of `area`; none is a skip with the reason. */
async function cases(c: CheckContext, products: Product[]): Promise<{ bankId: string; product: Product }[]> {
  const out: { bankId: string; product: Product }[] = [];
  for (const product of products) for (const b of await banksFor(product)) out.push({ bankId: b.id, product });
  if (!out.length) c.skip(`no bank under test lists ${products.join(' or ')} in supportedServices`);
  return out;
}

function initiateCheck(area: string, products: Product[], spec: string, quote: string, requirements: string[]): Check {
  return {
    id: `payments.${area}.initiate`, requirements, spec, quote,
    title: `A ${products.join(' / ')} payment is created, or sent to strong customer authentication`,
    async run(c) {
      for (const { bankId, product } of await cases(c, products)) {
        const a = await initiate(c, bankId, product);
        c.expect(a.kind === 'created' || a.kind === 'sca', `the ${product} payment at ${bankId} was not accepted`,
          'a 2xx answer with paymentId, or an error whose link leads to authorize (strong customer authentication)', describe(a));
        if (a.kind === 'created') c.expect(a.paymentId, `the ${product} payment at ${bankId} has no paymentId`, 'paymentId: a non-empty string', describe(a));
      }
    },
  };
}

export const domesticInitiate = initiateCheck('domestic', ['domestic-transfer'], '4.4',
  'POST /payments/domestic-transfer | Domestic payment. Body requires endToEndIdentification; optional object paymentMetadata.',
  ['R4.4-domestic-payment', 'R4.4-psu-ip-address-optional', 'R9-sca-redirect']);
export const sepaInitiate = initiateCheck('sepa', ['sepa-credit'], '4.4',
  'POST /payments/sepa-credit | SEPA payment. Body may require endToEndIdentification; optional paymentMetadata.',
  ['R4.4-sepa-payment', 'R9-sca-redirect']);
export const scheduledInitiate = initiateCheck('scheduled', SCHEDULED, '4.4',
  'POST /payments/sepa-scheduled-credit | Like SEPA payments plus requestedExecutionDate. Domestic scheduled payment: body like SEPA and domestic payments plus requestedExecutionDate, accountScheme and identifier.',
  ['R2.6-supported-services-meaning', 'R4.4-sepa-scheduled-payment', 'R4.4-domestic-scheduled-payment']);

function refusedWithout(area: string, products: Product[], field: string, spec: string, quote: string, requirements: string[]): Check {
  return {
    id: `payments.${area}.requires-${field === 'endToEndIdentification' ? 'e2e' : 'execution-date'}`, requirements, spec, quote,
    title: `A ${products.join(' / ')} payment without ${field} is refused`,
    async run(c) {
      for (const { bankId, product } of await cases(c, products)) {
        const a = await postPayment(c, bankId, product, await paymentBody(bankId, product, [field]), `${product} without ${field}`);
        c.expect(a.kind === 'refused', `a ${product} payment at ${bankId} without ${field} was accepted`, 'an error answer (4xx or 5xx), not a payment', describe(a));
      }
    },
  };
}

export const domesticRequiresE2e = refusedWithout('domestic', ['domestic-transfer'], 'endToEndIdentification', '4.4',
  'POST /payments/domestic-transfer | Domestic payment. Body requires endToEndIdentification (unique reference by the initiating party).',
  ['R4.4-domestic-e2e-required', 'P-records-payment-required-fields']);
export const scheduledRequiresDate = refusedWithout('scheduled', SCHEDULED, 'requestedExecutionDate', '4.4',
  'sepa-scheduled-credit: like SEPA payments plus requestedExecutionDate; domestic-scheduled-transfer: plus requestedExecutionDate, accountScheme and identifier.',
  ['R4.4-sepa-scheduled-payment', 'R4.4-domestic-scheduled-payment', 'P-records-payment-required-fields']);

export const unsupportedProduct: Check = {
  id: 'payments.scheduled.unsupported-product', requirements: ['R2.6-supported-services-meaning', 'P-records-unsupported-product'], spec: '2.6',
  title: 'A scheduled product the bank does not list in supportedServices is refused',
  quote: 'supportedServices | A value present means the bank supports that feature. (profile.md: a product the bank does not list is refused with an error body.)',
  async run(c) {
    let tried = 0;
    for (const bank of await banksUnderTest()) {
      for (const product of SCHEDULED.filter(p => !supports(bank, p))) {
        tried++;
        const a = await postPayment(c, bank.id, product, await paymentBody(bank.id, product), `${product}, not offered by ${bank.id}`);
        c.expect(a.kind === 'refused', `${bank.id} accepted ${product}, which its supportedServices does not list`, 'an error answer', describe(a));
      }
    }
    if (!tried) c.skip('every bank under test lists both scheduled products');
  },
};

function authorizeCheck(area: string, products: Product[]): Check {
  return {
    id: `payments.${area}.authorize`, requirements: ['R4.4-authorize', 'R4.4-redirect-url', 'R9-sca-redirect'], spec: '4.4',
    title: `A ${products.join(' / ')} payment that needs authentication is authorised through POST /authorize with x-redirect-url`,
    quote: 'POST /authorize | Optional header x-redirect-url. x-redirect-url: redirects control to a custom address after the bank\'s strong customer authentication redirect.',
    async run(c) {
      let tried = 0;
      for (const { bankId, product } of await cases(c, products)) {
        const a = await initiate(null, bankId, product);
        if (a.kind !== 'sca') continue;
        tried++;
        const res = await authorize(c, bankId, product, a);
        c.expect(ok(res), `authorize of the ${product} payment at ${bankId} was refused`, 'a 2xx answer', `${res.status}`);
        c.expect(links(res.json).some(l => isAbsoluteUrl(l.href)), `authorize of the ${product} payment at ${bankId} gives no link`,
          'links[].href: the bank\'s authentication URL', JSON.stringify(res.json ?? res.text).slice(0, 160));
      }
      if (!tried) c.skip(`no ${products.join(' / ')} payment asked for strong customer authentication`);
    },
  };
}

export const domesticAuthorize = authorizeCheck('domestic', ['domestic-transfer']);
export const sepaAuthorize = authorizeCheck('sepa', ['sepa-credit']);
