// Strong customer authentication of a payment and x-redirect-url (spec 4.4:
// "POST /authorize | Optional header x-redirect-url"; "x-redirect-url |
// Optional on consent initiation and payment initiation; redirects control to
// a custom address after the bank's strong customer authentication redirect";
// 9 1.0.1 "Payment strong customer authentication with redirect").
import type { Check } from '../../support/register.ts';
import { obj, ok } from '../../support/api.ts';
import { authorizeLinks, paymentIdOf, where } from '../../support/describe.ts';
import { type CheckContext, describeAnswer, show } from '../../support/check.ts';
import { target } from '../../support/target.ts';
import { accepted, authorize, getPayment, paymentBody, postPayment, SCHEDULED, settledPayment, type Product, type Settled } from '../../support/payments.ts';
import { cases, flowBanks } from './common.ts';

/**
 * Authorisation binds every product a payment can be made in: each product of
 * `products` is a place of the family product, judged at every payment bank
 * where its payment asked for strong customer authentication. A product no
 * bank asked to authenticate has no authorisation to judge and is not bound.
 */
function authorizeCheck(area: string, products: Product[], needs?: string[]): Check {
  return {
    id: `payments.${area}.authorize`, requirements: ['R4.4-authorize', 'R9-sca-redirect'], ...(needs ? { needs } : {}), spec: '4.4',
    bindsAt: { family: 'product', only: products },
    title: `A ${products.join(' / ')} payment that needs authentication is authorised through POST /authorize with x-redirect-url, and read after it`,
    quote: 'POST /authorize | Optional header x-redirect-url.',
    async run(c) {
      const asked = new Map<Product, { bankId: string; settled: Settled }[]>();
      for (const { bankId, product } of await cases(c, products)) {
        const settled = await settledPayment(c, bankId, product);
        if (settled.answer.kind === 'sca' && settled.auth) asked.set(product, [...asked.get(product) ?? [], { bankId, settled }]);
      }
      if (!asked.size) c.notApplicable(`no ${products.join(' / ')} payment asked for strong customer authentication`);
      const unasked = products.filter(p => !asked.has(p));
      if (unasked.length) c.note(`not bound: no ${unasked.join(' / ')} payment asked for strong customer authentication at the payment banks`);
      await c.everyPlace('product', [...asked].map(([name, value]) => ({ name, value })), async (list, product) => {
        for (const { bankId, settled } of list) await judgeAuthorize(c, bankId, product as Product, settled);
      });
    },
  };
}

/** One authorisation: a 2xx with the bank's link, and the payment still there to read once the link was followed. */
async function judgeAuthorize(c: CheckContext, bankId: string, product: Product, { answer, auth }: Settled): Promise<void> {
  if (!auth || answer.kind !== 'sca') return;
  c.expect(ok(auth.res), `authorize of the ${product} payment at ${bankId} was refused`, 'a 2xx answer', `${describeAnswer(auth.res)}`, auth.res);
  c.expect(authorizeLinks(auth.res.json).length > 0, `authorize of the ${product} payment at ${bankId} gives no link`,
    `the bank's authentication URL at ${where('payment.authorize-link')}`, show(auth.res.json ?? auth.res.text), auth.res);
  // The link was followed to its end (support/payments.ts); the payment is still there to read.
  if (!auth.outcome || !answer.paymentId) return;
  const after = await getPayment(c, bankId, product, answer.paymentId);
  c.expect(ok(after), `the ${product} payment at ${bankId} could not be read after its authorisation`,
    `a 2xx answer with payment ${answer.paymentId}`, `${describeAnswer(after)}`, after);
  // Which payment the read answers is payments.status.by-id's rule: one fault, one failed check.
  const readId = paymentIdOf(obj(after));
  if (readId !== undefined && readId !== answer.paymentId)
    c.note(`the read after the authorisation answered payment ${String(readId)}, not ${answer.paymentId} (payments.status.by-id judges that)`);
}

export const domesticAuthorize = authorizeCheck('domestic', ['domestic-transfer'], ['R4.4-domestic-payment']);
export const sepaAuthorize = authorizeCheck('sepa', ['sepa-credit']);
export const scheduledAuthorize = authorizeCheck('scheduled', SCHEDULED, ['R4.4-domestic-scheduled-payment']);

export const scaRedirect: Check = {
  id: 'payments.domestic.sca-redirect', requirements: ['R4.4-redirect-url', 'R9-sca-redirect'], spec: '4.4',
  title: 'After strong customer authentication the bank sends the end user to the x-redirect-url given',
  quote: 'x-redirect-url | Optional on consent initiation and payment initiation; ' +
    'redirects control to a custom address after the bank\'s strong customer authentication redirect.',
  async run(c) {
    const t = target();
    let tried = 0;
    for (const { bankId, product } of await cases(c, ['domestic-transfer'])) {
      const { answer, auth } = await settledPayment(c, bankId, product);
      if (answer.kind !== 'sca' || !auth?.outcome) continue;
      if (auth.outcome.redirectedBack === undefined)
        c.skip(`the ${t.consentDriver} consent driver cannot see where the bank sends the person`, 'use --consent-driver follow or browser');
      tried++;
      c.expect(auth.outcome.redirectedBack, `after authorising the ${product} payment at ${bankId} the bank did not send the end user to ${t.redirectUrl}`,
        `a redirect to ${t.redirectUrl} (given in ${t.headers.redirectUrl})`, `the flow ended at ${auth.outcome.finalUrl ?? 'an unknown page'}`);
    }
    if (!tried) c.notApplicable('no domestic payment asked for strong customer authentication');
  },
};

export const withoutRedirect: Check = {
  id: 'payments.domestic.without-redirect-url', requirements: ['R4.4-authorize', 'R4.4-redirect-url'], spec: '4.4',
  title: 'A domestic payment and its authorisation need no x-redirect-url',
  quote: 'x-redirect-url | Optional on consent initiation and payment initiation. POST /authorize | Optional header x-redirect-url.',
  async run(c) {
    const name = target().headers.redirectUrl;
    for (const bank of await flowBanks(c)) {
      const body = await paymentBody(bank.id, 'domestic-transfer');
      const a = await postPayment(c, bank.id, 'domestic-transfer', body, `domestic-transfer without ${name}`, { [name]: '' });
      c.expect(accepted(a), `a domestic payment at ${bank.id} without ${name} was not accepted`,
        'a 2xx answer with paymentId, or the strong-customer-authentication error', describeAnswer(a.res), a.res);
      if (a.kind !== 'sca') continue;
      const { res } = await authorize(c, bank.id, 'domestic-transfer', a, false);
      c.expect(ok(res) && authorizeLinks(res.json).length > 0, `authorize at ${bank.id} without ${name} gave no authentication link`,
        `a 2xx answer with a URL at ${where('payment.authorize-link')}`, `${describeAnswer(res)}`, res);
    }
  },
};
