// The error codes docs/profile.md names, on the payment calls that answer
// them: 1002 missing parameter, 1003 unknown payment id, 1004 malformed
// x-psu-ip-address, 1005 invalid x-redirect-url, 1428 strong customer
// authentication needed. Level profile: the spec names four-digit codes (7)
// but not what they mean.
import type { Check } from '../../support/register.ts';
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { isError, obj } from '../../support/api.ts';
import { describeAnswer } from '../../support/check.ts';
import { target } from '../../support/target.ts';
import { getPayment, initiate, paymentBody, postPayment } from '../../support/payments.ts';
import { flowBanks } from './common.ts';

export const errorCodes: Check = {
  id: 'payments.domestic.error-codes', requirements: ['P-error-codes-known'], spec: '7',
  title: 'Payment refusals carry the error codes of docs/profile.md (1002, 1003, 1004, 1005, 1428)',
  quote: 'docs/profile.md: Known codes: 1002 missing required parameter, 1003 invalid account or payment id, ' +
    '1004 invalid x-psu-ip-address, 1005 invalid redirect URL, 1428 payment needs strong customer authentication.',
  async run(c) {
    const t = target();
    const banks = await flowBanks(c);
    const bank = banks[0]!;
    const expectCode = (res: ExchangeResponse, code: string, what: string) =>
      c.expect(isError(res) && obj(res)?.errorCode === code, `${what} at ${bank.id} was not refused with ${code}`,
        `an error answer with errorCode "${code}"`, `${describeAnswer(res)}`, res);
    const body = await paymentBody(bank.id, 'domestic-transfer');
    expectCode((await postPayment(c, bank.id, 'domestic-transfer', await paymentBody(bank.id, 'domestic-transfer', { omit: ['endToEndIdentification'] }),
        'domestic-transfer without endToEndIdentification')).res,
      '1002', 'a payment without endToEndIdentification');
    expectCode(await getPayment(c, bank.id, 'domestic-transfer', 'pis-conformance-no-such-payment'), '1003', 'an unknown payment id');
    expectCode((await postPayment(c, bank.id, 'domestic-transfer', body, `domestic-transfer with ${t.headers.psuIpAddress} not-an-ip`,
        { [t.headers.psuIpAddress]: 'not-an-ip' })).res,
      '1004', `a payment with ${t.headers.psuIpAddress} "not-an-ip"`);
    expectCode((await postPayment(c, bank.id, 'domestic-transfer', body, `domestic-transfer with ${t.headers.redirectUrl} relative/path`,
        { [t.headers.redirectUrl]: 'relative/path' })).res,
      '1005', `a payment with ${t.headers.redirectUrl} "relative/path"`);
    for (const b of banks) {
      const a = await initiate(c, b.id, 'domestic-transfer');
      if (a.kind === 'sca') c.expect(obj(a.res)?.errorCode === '1428', `the strong-customer-authentication answer at ${b.id} is not 1428`,
        'errorCode "1428"', `${describeAnswer(a.res)}`, a.res);
    }
  },
};
