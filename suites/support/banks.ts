// The banks the data and payments suites visit. Behaviour in this API is per
// bank (spec 2.6 "returned when the bank returns them", 4.4 "required for some
// banks"), so the read-only checks visit every bank the target lists, up to
// --banks (default 20; a longer list is sampled so that every country and
// every distinct supportedServices set is met). With a person in the loop
// (manual or browser consent) and no --banks, only the first bank is used:
// each bank would cost the person a consent.
import { DEFAULT_BANKS, describeBanks, type BankChoice } from '../../harness/config/banks.ts';
import { call, obj, ok } from './api.ts';
import { Prerequisite } from './check.ts';
import { sampleBanks, type Bank } from './bank-sample.ts';
import { target } from './target.ts';
import { bankCountry, bankId } from './describe.ts';
import { perPart } from './part.ts';

export type { Bank } from './bank-sample.ts';

const NORDIC = ['NO', 'SE', 'FI', 'DK'];

/** Why the record and payment checks could not run on a target without data, and what to do: one remedy, so the verdict line says it once. */
export const NO_ACCOUNTS = 'the target listed no accounts at any bank';
export const NO_ACCOUNTS_REMEDY = 'the target listed no accounts at any bank under test: ' +
  'give the test user an account at one bank at least, or name banks that have some with --banks,';
export const NO_TRANSACTIONS = 'the target listed no transactions on any account';
export const NO_TRANSACTIONS_REMEDY = 'the target listed no transactions on any account: give the test user an account with transactions,';

export interface BankSelection {
  /** The banks under test, in the target's order. */
  banks: Bank[];
  /** One sentence for the report: how many banks the target lists, which were chosen and why. */
  summary: string;
}

const list = perPart(() => ({ value: undefined as Promise<Bank[]> | undefined }));

/** GET /banks, once per part of the run. */
function allBanks(): Promise<Bank[]> {
  return list().value ??= (async () => {
    const res = await call(null, 'GET', 'banks', {}, { label: 'bank list' });
    if (!ok(res) || !Array.isArray(res.json)) throw new Prerequisite(`GET /banks answered ${res.status} without a list (see data.banks.list)`);
    // Each bank keyed by the id at the description's bank.id.
    return (res.json as unknown[]).flatMap(b => {
      const id = bankId(b);
      return b && typeof b === 'object' && id ? [{ ...b as Record<string, unknown>, id }] : [];
    });
  })();
}

/** The banks named by --banks ID,ID: from the list, else read by id. */
async function named(ids: string[]): Promise<Bank[]> {
  const listed = await allBanks().catch(() => [] as Bank[]);
  const out: Bank[] = [];
  for (const id of ids) {
    const known = listed.find(b => b.id === id);
    if (known) { out.push(known); continue; }
    const res = await call(null, 'GET', 'bank', { bankId: id }, { label: `the bank ${id} named by --banks` });
    const b = obj(res);
    if (!ok(res) || !b)
      throw new Prerequisite(`the bank ${id} named by --banks could not be read (${res.status})`, `give --banks ids that GET /banks lists (not ${id})`);
    out.push({ ...b, id } as Bank);
  }
  return out;
}

const ids = (banks: Bank[]) => banks.map(b => b.id).join(', ');

async function choose(choice: BankChoice, personInLoop: boolean): Promise<BankSelection> {
  if (choice.kind === 'ids') {
    const banks = await named(choice.ids);
    return { banks, summary: `${banks.length} bank${banks.length === 1 ? '' : 's'} named by --banks: ${ids(banks)}` };
  }
  const banks = await allBanks();
  if (!banks.length) throw new Prerequisite('GET /banks lists no bank');
  if (personInLoop)
    return { banks: banks.slice(0, 1), summary: `the first of ${banks.length} listed banks (${banks[0]!.id}): ` +
      'with manual or browser consent each bank costs a consent; give --banks to visit more' };
  if (choice.kind === 'all' || banks.length <= choice.n)
    return { banks, summary: `all ${banks.length} listed banks: ${ids(banks)}` };
  const s = sampleBanks(banks, choice.n);
  const gap = s.uncovered.length ? `; ${s.uncovered.length} not met within the cap: ${s.uncovered.join(', ')}`
    : '; every country and supportedServices set is met';
  return { banks: s.banks, summary: `a sample of ${s.banks.length} of ${banks.length} listed banks (${describeBanks(choice)}): ${ids(s.banks)}${gap}` };
}

const chosen = perPart(() => ({ value: undefined as Promise<BankSelection> | undefined }));

/** The banks under test and how they were chosen, once per part of the run. */
export function bankSelection(): Promise<BankSelection> {
  const t = target();
  return chosen().value ??= choose(t.banks ?? DEFAULT_BANKS, !t.banks && t.consentDriver !== 'follow');
}

export async function banksUnderTest(): Promise<Bank[]> {
  return (await bankSelection()).banks;
}

export const isNordic = (b: Bank) => NORDIC.includes(String(bankCountry(b)));

/** The bank's supportedServices; a check that needs them cannot go on when they are not an array of strings. */
export function services(b: Bank): string[] {
  if (!Array.isArray(b.supportedServices) || b.supportedServices.some(s => typeof s !== 'string'))
    throw new Prerequisite(`supportedServices of ${b.id} is not an array of strings (see data.banks.supported-services)`);
  return b.supportedServices as string[];
}
