// What the payment checks share: the banks the flows run at with the products
// they offer, and the words for an answer.
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { NO_ACCOUNTS, NO_ACCOUNTS_REMEDY, type Bank } from '../../support/banks.ts';
import { paymentBanks } from '../../support/payment-banks.ts';
import { NoAccounts, supports, type Product } from '../../support/payments.ts';


/** The payment banks (one per behaviour), named in the check's evidence. */
export async function flowBanks(c: CheckContext): Promise<Bank[]> {
  const { banks, summary } = await paymentBanks();
  c.note(summary);
  return banks.map(b => b.bank);
}

/** Every payment bank and product of `products` it offers; none is not-applicable with the reason. */
export async function cases(c: CheckContext, products: Product[]): Promise<{ bankId: string; product: Product }[]> {
  const out: { bankId: string; product: Product }[] = [];
  const banks = await flowBanks(c);
  for (const product of products) for (const b of banks) if (supports(b, product)) out.push({ bankId: b.id, product });
  if (!out.length) c.notApplicable(`no bank under test lists ${products.join(' or ')} in supportedServices`);
  return out;
}

/** Runs `each` per bank; a bank whose setup cannot be made (no account to pay from) is noted and left out; none left is a Prerequisite. */
export async function atEachBank<T>(c: CheckContext, banks: T[], name: (b: T) => string, each: (b: T) => Promise<void>): Promise<number> {
  let done = 0;
  const gaps: Prerequisite[] = [];
  for (const b of banks) {
    try {
      await each(b);
      done++;
    } catch (e) {
      if (!(e instanceof Prerequisite)) throw e;
      gaps.push(e);
      c.note(`not checked at ${name(b)}: ${e.message}`);
    }
  }
  if (done) return done;
  if (gaps.length && gaps.every(g => g instanceof NoAccounts)) throw new Prerequisite(`${NO_ACCOUNTS}, so no payment could be made`, NO_ACCOUNTS_REMEDY);
  throw new Prerequisite(gaps.length ? gaps.map(g => g.message).join('; ') : 'no bank under test');
}
