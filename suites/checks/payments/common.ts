// What the payment checks share: the banks under test with the products they
// offer, and the words for an answer.
import { show } from '../../support/check.ts';
import { banksUnderTest, type Bank } from '../../support/banks.ts';
import { supports, type Answer, type Product } from '../../support/payments.ts';

export async function banksFor(product: Product): Promise<Bank[]> {
  return (await banksUnderTest()).filter(b => supports(b, product));
}

export function describe(a: Answer): string {
  return `${a.res.status} ${show(a.res.json ?? a.res.text)}`;
}
