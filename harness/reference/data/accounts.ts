// Seed accounts, two per bank: one whose bank gives ownerName and displayName,
// one whose bank gives neither, so the empty-string rule of spec 2.6 is visible
// ("returned when the bank returns them; otherwise they are empty strings").
import { BANKS } from './banks.ts';
import { iban } from './iban.ts';

export interface AccountRecord {
  id: string;
  iban: string;
  bban: string;
  accountName: string;
  accountType: string;
  ownerName: string;
  displayName: string;
  balances: { amount: string; currency: string; type: string }[];
}

export interface SeedAccount { bankId: string; record: AccountRecord }

/** Per country: two BBANs of the national length, an owner name and a display name in the local language. */
const LOCAL: Record<string, { bbans: [string, string]; owner: string; display: string; name: string; savings: string }> = {
  NO: { bbans: ['86011117947', '12345678903'], owner: 'Kari Nordmann', display: 'Brukskonto', name: 'Brukskonto', savings: 'Sparekonto' },
  SE: { bbans: ['50000000058398257466', '60000000000123456789'], owner: 'Anna Svensson', display: 'Lönekonto', name: 'Privatkonto', savings: 'Sparkonto' },
  FI: { bbans: ['12345600000785', '40050012345678'], owner: 'Matti Meikäläinen', display: 'Käyttötili', name: 'Käyttötili', savings: 'Säästötili' },
  DK: { bbans: ['00400440116243', '30000012345678'], owner: 'Jens Hansen', display: 'Budgetkonto', name: 'Lønkonto', savings: 'Opsparingskonto' },
  DE: { bbans: ['370400440532013000', '500105175407324931'], owner: 'Erika Mustermann', display: 'Girokonto', name: 'Girokonto', savings: 'Sparkonto' },
};

/** Balances as decimal strings, like the payment request's instrumentedAmount (docs/profile.md). */
const BALANCES: [string, string] = ['15230.50', '310.00'];

const ACCOUNTS: readonly SeedAccount[] = BANKS.flatMap(({ record: bank, behaviour }) => {
  const local = LOCAL[bank.countryCode];
  return local.bbans.map((bban, i): SeedAccount => ({
    bankId: bank.id,
    record: {
      id: `${bank.id}-acc-${i + 1}`,
      iban: iban(bank.countryCode, bban),
      bban,
      accountName: i === 0 ? local.name : local.savings,
      accountType: i === 0 ? 'CACC' : 'SVGS',
      // The second account's bank gives neither name: spec 2.6 wants "".
      ownerName: i === 0 ? local.owner : '',
      displayName: i === 0 ? local.display : '',
      balances: [{ amount: BALANCES[i], currency: behaviour.currency, type: 'interimAvailable' }],
    },
  }));
});

export function accountsOf(bankId: string): SeedAccount[] {
  return ACCOUNTS.filter(a => a.bankId === bankId);
}

export function findAccount(bankId: string, accountId: string): SeedAccount | undefined {
  return ACCOUNTS.find(a => a.bankId === bankId && a.record.id === accountId);
}

export function findAccountByIban(bankId: string, value: string): SeedAccount | undefined {
  const wanted = value.replace(/\s+/g, '').toUpperCase();
  return ACCOUNTS.find(a => a.bankId === bankId && a.record.iban === wanted);
}
