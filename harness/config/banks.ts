// --banks: which of the target's banks the data and payments suites visit.
// Behaviour in this API is per bank (spec 2.6 "returned when the bank returns
// them", 4.4 "required for some banks"), so by default every listed bank is
// visited, up to a cap; `all` lifts the cap, a number sets it, a comma list
// names the banks. --bank-id ID is the same as --banks ID.
import { HarnessError } from '../errors.ts';

export type BankChoice =
  | { kind: 'all' }
  | { kind: 'max'; n: number }
  | { kind: 'ids'; ids: string[] };

/** Arbitrary: enough banks to meet every country and service set of a sandbox, few enough to keep a run to minutes. */
const DEFAULT_BANK_CAP = 20;

export const DEFAULT_BANKS: BankChoice = { kind: 'max', n: DEFAULT_BANK_CAP };

/** Parses `all`, a positive whole number, or a comma list of bank ids; `where` names the flag or key in the error. */
export function parseBanks(value: string, where: string, code: 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG' = 'PIS_BAD_FLAG'): BankChoice {
  const v = value.trim();
  if (v.toLowerCase() === 'all') return { kind: 'all' };
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (n < 1) throw new HarnessError(code, `${where} must be all, a number of banks of at least 1, or bank ids separated by commas, not '${value}'.`);
    return { kind: 'max', n };
  }
  const ids = [...new Set(v.split(',').map(s => s.trim()).filter(Boolean))];
  if (!ids.length) throw new HarnessError(code, `${where} is empty: give all, a number of banks, or bank ids separated by commas.`);
  return { kind: 'ids', ids };
}

/** The choice in words, for the report: "all banks", "at most 20 banks", "the banks dnb-no, nordea-fi". */
export function describeBanks(choice: BankChoice): string {
  switch (choice.kind) {
    case 'all': return 'every listed bank';
    case 'max': return `at most ${choice.n} bank${choice.n === 1 ? '' : 's'}`;
    case 'ids': return `the bank${choice.ids.length === 1 ? '' : 's'} ${choice.ids.join(', ')}`;
  }
}
