// payments.domestic / payments.sepa / payments.scheduled: initiation of each
// product the banks under test offer and its required fields (spec 4.4; 9
// 1.0.1 "payment initiation responses differ by whether authentication is
// required", 3.0.0 endToEndIdentification, 3.1.0, 3.2.0).
import type { Check } from '../../support/register.ts';
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { bankSelection } from '../../support/banks.ts';
import { accepted, initiate, offered, paymentBody, postPayment, SCHEDULED, type BodyOptions, type Product } from '../../support/payments.ts';
import { atEachBank, cases} from './common.ts';
import { describeAnswer } from '../../support/check.ts';
import { where } from '../../support/describe.ts';

function expectInitiated(c: CheckContext, a: Awaited<ReturnType<typeof initiate>>, product: Product, bankId: string): void {
  c.expect(accepted(a), `the ${product} payment at ${bankId} was not accepted`,
    'a 2xx answer with paymentId, or an error whose link leads to authorize (strong customer authentication)', describeAnswer(a.res), a.res);
  if (a.kind === 'created')
    c.expect(a.paymentId, `the ${product} payment at ${bankId} has no paymentId`, `a non-empty string at ${where('payment.id')}`, describeAnswer(a.res), a.res);
}

/**
 * Domestic payments at every bank under test: this also learns which banks ask
 * for strong customer authentication. The spec does not say every bank offers
 * domestic payments: a bank that refuses a plain one is judged only where the
 * target description names the product for it (offered), else noted.
 */
export const domesticInitiate: Check = {
  id: 'payments.domestic.initiate', requirements: ['R4.4-domestic-payment', 'R9-sca-redirect'], spec: '4.4',
  title: 'A domestic payment is created, or sent to strong customer authentication, at every bank under test',
  quote: 'POST /payments/domestic-transfer | Domestic payment. Body requires endToEndIdentification; optional object paymentMetadata.',
  async run(c) {
    const seen: Record<'created' | 'sca', string[]> = { created: [], sca: [] };
    const { banks, summary } = await bankSelection();
    c.note(`banks under test: ${summary}`);
    await atEachBank(c, banks, b => b.id, async bank => {
      const { yes, why } = await offered(c, bank, 'domestic-transfer');
      if (!yes) throw new Prerequisite(why ?? `${bank.id} does not offer domestic payments`);
      const a = await initiate(c, bank.id, 'domestic-transfer');
      expectInitiated(c, a, 'domestic-transfer', bank.id);
      seen[a.kind as 'created' | 'sca'].push(bank.id);
    });
    c.summary = `created at ${seen.created.join(', ') || 'no bank'}; strong customer authentication at ${seen.sca.join(', ') || 'no bank'}`;
  },
};

function initiateCheck(area: string, products: Product[], quote: string, requirements: string[], addedLater: string[]): Check {
  return {
    id: `payments.${area}.initiate`, requirements, addedLater, spec: '4.4', quote,
    title: `A ${products.join(' / ')} payment is created, or sent to strong customer authentication`,
    async run(c) {
      for (const { bankId, product } of await cases(c, products)) expectInitiated(c, await initiate(c, bankId, product), product, bankId);
    },
  };
}

export const sepaInitiate = initiateCheck('sepa', ['sepa-credit'],
  'POST /payments/sepa-credit | SEPA payment. Body may require endToEndIdentification; optional paymentMetadata.',
  ['R4.4-sepa-payment', 'R9-sca-redirect'], ['R9-sca-redirect']);
export const scheduledInitiate = initiateCheck('scheduled', SCHEDULED,
  'POST /payments/sepa-scheduled-credit | Like SEPA payments plus requestedExecutionDate. ' +
    'Domestic scheduled payment: body like SEPA and domestic payments plus requestedExecutionDate, accountScheme and identifier.',
  ['R2.6-supported-services-meaning', 'R4.4-sepa-scheduled-payment', 'R4.4-domestic-scheduled-payment'], ['R4.4-sepa-scheduled-payment']);

interface Omission { what: string; body: BodyOptions }

function refusedWithout(id: string, products: Product[], omissions: Omission[], quote: string, requirements: string[], addedLater?: string[]): Check {
  return {
    id, requirements, ...(addedLater ? { addedLater } : {}), spec: '4.4', quote,
    title: `A ${products.join(' / ')} payment without ${omissions.map(o => o.what).join(' or without ')} is refused`,
    async run(c) {
      for (const { bankId, product } of await cases(c, products)) {
        for (const o of omissions) {
          const a = await postPayment(c, bankId, product, await paymentBody(bankId, product, o.body), `${product} without ${o.what}`);
          // An error status with errorCode 1428 is no refusal: the payment was created and waits for strong customer authentication.
          const seen = a.kind === 'sca' ? 'errorCode 1428, which means the payment was created and sent to strong customer authentication ' +
            `(docs/profile.md), so it was accepted: ${describeAnswer(a.res)}` : describeAnswer(a.res);
          c.expect(a.kind === 'refused', `a ${product} payment at ${bankId} without ${o.what} was accepted`, 'an error answer (4xx or 5xx), not a payment',
            seen, a.res);
        }
      }
    },
  };
}

export const domesticRequiresE2e = refusedWithout('payments.domestic.requires-e2e', ['domestic-transfer'],
  [{ what: 'endToEndIdentification', body: { omit: ['endToEndIdentification'] } }],
  'POST /payments/domestic-transfer | Domestic payment. Body requires endToEndIdentification (unique reference by the initiating party).',
  ['R4.4-domestic-e2e-required', 'P-records-payment-required-fields']);
export const scheduledRequiresDate = refusedWithout('payments.scheduled.requires-execution-date', SCHEDULED,
  [{ what: 'requestedExecutionDate', body: { omit: ['requestedExecutionDate'] } }],
  'sepa-scheduled-credit: like SEPA payments plus requestedExecutionDate; ' +
    'domestic-scheduled-transfer: plus requestedExecutionDate, accountScheme and identifier.',
  ['R4.4-sepa-scheduled-payment', 'R4.4-domestic-scheduled-payment', 'P-records-payment-required-fields'], ['R4.4-sepa-scheduled-payment']);
export const scheduledRequiresScheme = refusedWithout('payments.scheduled.requires-account-scheme', ['domestic-scheduled-transfer'],
  [{ what: 'accountScheme', body: { omitAccount: ['accountScheme'] } }, { what: 'identifier', body: { omitAccount: ['identifier'] } }],
  'Domestic scheduled payment (product domestic-scheduled-transfer) | Body like SEPA and domestic payments plus requestedExecutionDate, ' +
    'accountScheme (account type, for example a giro number scheme) and identifier (assigned by the bank, in the format given by accountScheme).',
  ['R4.4-domestic-scheduled-payment', 'P-records-payment-required-fields']);
