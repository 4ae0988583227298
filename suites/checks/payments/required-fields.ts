// The required fields of a payment request (spec 4.4; docs/profile.md
// "payment request": "A request without a required field is refused with an
// error body"), each on its own: left out, and given as an empty string. The
// answer must be a client's error: a 4xx, or the 510 docs/profile.md names for
// a client's error; a 2xx accepted the payment, and 520, 530 or another 5xx is
// the service (or the bank) failing, not a refusal. The debtor side is judged
// given empty only: a payment request may leave the debtor for the bank to ask.
import type { Check } from '../../support/register.ts';
import { describeAnswer } from '../../support/check.ts';
import { atLeast } from '../../../harness/contracts/api-versions.ts';
import { paymentBody, postPayment, supports, type Product } from '../../support/payments.ts';
import { target } from '../../support/target.ts';
import { flowBanks } from './common.ts';

type Rec = Record<string, unknown>;

/** A client's error: any 4xx, or 510, the production service's status for it (docs/profile.md "Errors"). */
const isClientError = (status: number) => (status >= 400 && status < 500) || status === 510;

/** One way to get a field wrong: its place name and the edit of a valid body. */
interface FieldCase { name: string; edit: (body: Rec) => void }

/** The keys that number an account in a body of `product`: accountScheme and identifier, or the iban or bban the body carries. */
function numberKeys(product: Product, account: unknown): string[] {
  if (product === 'domestic-scheduled-transfer') return ['accountScheme', 'identifier'];
  const a = (account ?? {}) as Rec;
  return ['iban', 'bban'].filter(k => a[k] !== undefined);
}

/** The required fields of `product` at the run's API version, each left out and given as "", and the debtor's given as "". */
function fieldCases(product: Product, sample: Rec): FieldCase[] {
  const out: FieldCase[] = [];
  const both = (field: string, edit: (body: Rec, v?: '') => void) => {
    out.push({ name: `${field} left out`, edit: b => edit(b) }, { name: `${field} as ""`, edit: b => edit(b, '') });
  };
  const top = (k: string) => (b: Rec, v?: '') => { if (v === undefined) delete b[k]; else b[k] = v; };
  const inAccount = (side: string, keys: string[]) => (b: Rec, v?: '') => {
    const acc = { ...(b[side] as Rec) };
    for (const k of keys) { if (v === undefined) delete acc[k]; else acc[k] = v; }
    b[side] = acc;
  };
  both('creditorAccount', top('creditorAccount'));
  for (const k of numberKeys(product, sample.creditorAccount)) both(`creditorAccount.${k}`, inAccount('creditorAccount', [k]));
  out.push({ name: 'debtorAccount as ""', edit: b => { b.debtorAccount = ''; } });
  for (const k of numberKeys(product, sample.debtorAccount))
    out.push({ name: `debtorAccount.${k} as ""`, edit: b => inAccount('debtorAccount', [k])(b, '') });
  for (const k of ['instrumentedAmount', 'currency']) both(k, top(k));
  // Spec 4.4: "Body requires endToEndIdentification" on domestic payments (spec 9 3.0.0); SEPA's "may require" it.
  if (product === 'domestic-transfer' && atLeast(target().apiVersion, '3.0.0')) both('endToEndIdentification', top('endToEndIdentification'));
  if (product.includes('scheduled')) both('requestedExecutionDate', top('requestedExecutionDate'));
  return out;
}

function requiredFields(area: string, products: Product[], quote: string): Check {
  return {
    id: `payments.${area}.required-fields`, requirements: ['P-records-payment-required-fields'], spec: '4.4', quote,
    title: `A ${products.join(' / ')} payment with a required field left out or empty is refused as a client's error (4xx or 510)`,
    bindsAt: { family: 'field' },
    async run(c) {
      const places: { name: string; value: { bankId: string; product: Product; edit: (b: Rec) => void } }[] = [];
      const banks = await flowBanks(c);
      for (const product of products) {
        const bank = banks.find(b => supports(b, product));
        if (!bank) continue;
        const sample = await paymentBody(bank.id, product);
        for (const f of fieldCases(product, sample))
          places.push({ name: products.length > 1 ? `${product}: ${f.name}` : f.name, value: { bankId: bank.id, product, edit: f.edit } });
      }
      if (!places.length) c.notApplicable(`no bank under test offers ${products.join(' or ')}`);
      await c.everyPlace('field', places, async ({ bankId, product, edit }, name) => {
        const body = await paymentBody(bankId, product);
        edit(body);
        const what = name.replace(`${product}: `, '');
        const a = await postPayment(c, bankId, product, body, `${product} with ${what}`);
        c.expect(a.kind === 'refused' && isClientError(a.res.status), `a ${product} payment at ${bankId} with ${what} was not refused as a client's error`,
          'a 4xx or 510 error answer (the request is the client\'s mistake; docs/profile.md)', describeAnswer(a.res), a.res);
      });
    },
  };
}

const QUOTE = 'docs/profile.md: payment request | debtorAccount and creditorAccount, instrumentedAmount, currency, endToEndIdentification ' +
  '(required on domestic and SEPA payments since spec 3.0.0), requestedExecutionDate on the scheduled products. ' +
  'A request without a required field is refused with an error body.';

export const domesticFields = requiredFields('domestic', ['domestic-transfer'], QUOTE);
export const sepaFields = requiredFields('sepa', ['sepa-credit'], QUOTE);
export const scheduledFields = requiredFields('scheduled', ['domestic-scheduled-transfer', 'sepa-scheduled-credit'], QUOTE);
