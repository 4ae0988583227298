// What the payment checks share: the banks the flows run at with the products
// they offer, and the words for an answer.
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { NO_ACCOUNTS, NO_ACCOUNTS_REMEDY, type Bank } from '../../support/banks.ts';
import { paymentBanks } from '../../support/payment-banks.ts';
import { NoAccounts, offered, type Product } from '../../support/payments.ts';


/** The payment banks (one per behaviour), named in the check's evidence. */
export async function flowBanks(c: CheckContext): Promise<Bank[]> {
  const { banks, summary } = await paymentBanks();
  c.note(summary);
  return banks.map(b => b.bank);
}

/**
 * Every payment bank and product of `products` it offers (offered()); none is
 * not-applicable with the reason, or not-run when banks refused a product the
 * spec does not say they must offer (their refusal cannot be judged).
 */
export async function cases(c: CheckContext, products: Product[]): Promise<{ bankId: string; product: Product }[]> {
  const out: { bankId: string; product: Product }[] = [];
  const refusals: string[] = [];
  const banks = await flowBanks(c);
  for (const product of products) {
    for (const b of banks) {
      const { yes, why } = await offered(c, b, product);
      if (yes) out.push({ bankId: b.id, product });
      else if (why) refusals.push(why);
    }
  }
  for (const why of refusals) c.note(`not judged: ${why}`);
  if (!out.length && refusals.length)
    c.skip(`no bank under test offers ${products.join(' or ')}: ${refusals.join('; ')}`, 'name the products each bank offers in the description (products:),');
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
