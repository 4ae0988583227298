// Seed transactions, four per account, covering spec 2.6's counterparty rules:
// an 8-character BIC, an 11-character BIC, a transaction whose bank gives no
// counterparty at all (all three fields ""), and one with a name but no account
// or agent. Dates are relative to the reference clock, so they stay recent.
import type { SeedAccount } from './accounts.ts';
import { iban } from './iban.ts';
import type { CatalogName } from '../catalog-names.ts';

export interface TransactionRecord {
  id: string;
  transactionReference: string;
  transactionAmount: { value: string; currency: string };
  creditDebitIndicator: 'CRDT' | 'DBIT';
  bookingDate: string;
  valueDate: string;
  counterpartyAccount: string;
  counterpartyName: string;
  counterpartyAgent: string;
}

interface Template {
  amount: string;
  indicator: 'CRDT' | 'DBIT';
  daysAgo: number;
  counterparty: (country: string) => { account: string; name: string; agent: string };
}

/** An 8-character and an 11-character BIC per country (spec 2.6: "8 or 11 characters"). */
const BICS: Record<string, [string, string]> = {
  NO: ['DNBANOKK', 'NDEANOKKXXX'],
  SE: ['HANDSESS', 'ESSESESSXXX'],
  FI: ['OKOYFIHH', 'NDEAFIHHXXX'],
  DK: ['NYKBDKKK', 'DABADKKKXXX'],
  DE: ['COBADEFF', 'DEUTDEFFXXX'],
};

const BBAN: Record<string, string> = { NO: '15036912347', SE: '80000000012345678912', FI: '15903000000123', DK: '00400440116111', DE: '100100100987654321' };

/** The counterparty IBAN of each country, computed once rather than at every request for transactions. */
const IBAN: Record<string, string> = Object.fromEntries(Object.entries(BBAN).map(([c, bban]) => [c, iban(c, bban)]));

const TEMPLATES: Template[] = [
  { amount: '25000.00', indicator: 'CRDT', daysAgo: 2, counterparty: c => ({ account: IBAN[c], name: 'Acme Employer AS', agent: BICS[c][0] }) },
  { amount: '899.00', indicator: 'DBIT', daysAgo: 3, counterparty: c => ({ account: IBAN[c], name: 'Nordic Power Ltd', agent: BICS[c][1] }) },
  // A card purchase: the bank gives no counterparty, so all three fields are "".
  { amount: '54.90', indicator: 'DBIT', daysAgo: 5, counterparty: () => ({ account: '', name: '', agent: '' }) },
  { amount: '120.00', indicator: 'CRDT', daysAgo: 8, counterparty: () => ({ account: '', name: 'Ola Friend', agent: '' }) },
];

/** Fault data-bic-9 corrupts this template's 8-character BIC into a 9-character one. */
const BIC_FAULT_TEMPLATE = 0;

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function transactionsOf(account: SeedAccount, today: Date, faults: ReadonlySet<CatalogName>): TransactionRecord[] {
  const country = account.record.iban.slice(0, 2);
  const currency = account.record.balances[0].currency;
  return TEMPLATES.map((t, i) => {
    const cp = t.counterparty(country);
    const agent = i === BIC_FAULT_TEMPLATE && faults.has('data-bic-9') ? `${cp.agent}X` : cp.agent;
    const booked = new Date(today.getTime() - t.daysAgo * 86_400_000);
    const valued = new Date(booked.getTime() + (t.indicator === 'CRDT' ? 0 : 86_400_000));
    return {
      id: `${account.record.id}-tx-${i + 1}`,
      transactionReference: `REF${account.record.bban.slice(-4)}${String(i + 1).padStart(4, '0')}`,
      transactionAmount: { value: t.amount, currency },
      creditDebitIndicator: t.indicator,
      bookingDate: isoDate(booked),
      valueDate: isoDate(valued),
      counterpartyAccount: cp.account,
      counterpartyName: cp.name,
      counterpartyAgent: agent,
    };
  });
}
