// A scheduled payment keeps the date it was asked for (spec 4.4: the scheduled
// products are "like SEPA payments plus requestedExecutionDate"): read back by
// its id, it names the date asked for when it names one, and it is not
// settled (ACSC) before that date.
import type { Check } from '../../support/register.ts';
import { obj, ok } from '../../support/api.ts';
import { describeAnswer, Prerequisite, show } from '../../support/check.ts';
import { accepted, getPayment, paymentBody, postPayment, SCHEDULED, supports } from '../../support/payments.ts';
import { flowBanks } from './common.ts';

export const executionDateKept: Check = {
  id: 'payments.scheduled.execution-date-kept', requirements: ['R4.4-sepa-scheduled-payment', 'R4.4-domestic-scheduled-payment'], spec: '4.4',
  addedLater: ['R4.4-sepa-scheduled-payment'],
  title: 'A scheduled payment read back by its id keeps the requestedExecutionDate asked for and is not settled before it',
  quote: 'sepa-scheduled-credit: like SEPA payments plus requestedExecutionDate; ' +
    'domestic-scheduled-transfer: plus requestedExecutionDate, accountScheme and identifier.',
  bindsAt: { family: 'product', only: SCHEDULED },
  async run(c) {
    const banks = await flowBanks(c);
    const offered = SCHEDULED.filter(p => banks.some(b => supports(b, p)));
    if (!offered.length) c.notApplicable('no bank under test lists a scheduled product in supportedServices');
    await c.everyPlace('product', offered.map(p => ({ name: p, value: p })), async product => {
      const bank = banks.find(b => supports(b, product))!;
      const body = await paymentBody(bank.id, product);
      const a = await postPayment(c, bank.id, product, body, `${product} to read back`);
      if (!accepted(a) || !a.paymentId)
        throw new Prerequisite(`the ${product} payment at ${bank.id} was not accepted with a paymentId (see payments.scheduled.initiate)`);
      const res = await getPayment(c, bank.id, product, a.paymentId);
      const got = obj(res);
      if (!ok(res) || !got) throw new Prerequisite(`payment ${a.paymentId} could not be read back (${res.status}; see payments.status.by-id)`);
      if (got.requestedExecutionDate !== undefined)
        c.expect(got.requestedExecutionDate === body.requestedExecutionDate, `the ${product} payment at ${bank.id} names another execution date`,
          `requestedExecutionDate ${show(body.requestedExecutionDate)}`, show(got.requestedExecutionDate), res);
      else c.note(`payment ${a.paymentId} read back names no requestedExecutionDate; its status is judged alone`);
      c.expect(got.status !== 'ACSC', `the ${product} payment at ${bank.id}, asked for ${String(body.requestedExecutionDate)}, was settled at once`,
        `a status before settlement (the payment is due ${String(body.requestedExecutionDate)})`, `${describeAnswer(res)}`, res);
    });
  },
};
