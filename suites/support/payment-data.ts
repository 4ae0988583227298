// Test data a real bank accepts in a payment request: SEPA credits in EUR (a
// SEPA credit transfer is a euro payment), a creditor other than the debtor,
// and an execution date on a business day.
import type { OwnAccount } from './describe.ts';

/** The currency of SEPA credit transfers (the SEPA credit transfer scheme is a euro scheme). */
export const SEPA_CURRENCY = 'EUR';

/**
 * A creditor outside the test user's accounts, per country, for a user with
 * one account at a bank: account numbers with valid national check digits
 * (NO mod 11, FI Luhn) and IBAN check digits (ISO 13616), held by nobody the
 * suites know. A target whose user has one account at a bank of another
 * country names its own creditor in the description.
 */
const EXTERNAL_CREDITORS: Record<string, OwnAccount> = {
  NO: { iban: 'NO5015032080119', bban: '15032080119' },
  SE: { iban: 'SE6850000000055555555555', bban: '50000000055555555555' },
  FI: { iban: 'FI0412345600012343', bban: '12345600012343' },
  DK: { iban: 'DK4500400449998887', bban: '00400449998887' },
  DE: { iban: 'DE82370400440123456789', bban: '370400440123456789' },
};

/** The account's country: its IBAN's first two letters, else the bank's country code. */
function countryOf(account: OwnAccount, bankCountry: unknown): string | undefined {
  const iban = account.iban?.replace(/\s+/g, '').toUpperCase() ?? '';
  if (/^[A-Z]{2}\d{2}/.test(iban)) return iban.slice(0, 2);
  return typeof bankCountry === 'string' && bankCountry ? bankCountry.toUpperCase() : undefined;
}

/** A creditor account that is not the debtor's: the user's second account, else the fixed external creditor of the debtor's country. */
export function creditorAccount(accounts: OwnAccount[], bankCountry: unknown): OwnAccount | undefined {
  if (accounts[1]) return accounts[1];
  const country = countryOf(accounts[0]!, bankCountry);
  const external = country ? EXTERNAL_CREDITORS[country] : undefined;
  return external ? { ...external } : undefined;
}

/** `daysAhead` days from `now`, moved on to the next Monday when it falls on a Saturday or Sunday (UTC); public holidays are not known. */
export function businessDate(daysAhead: number, now = Date.now()): string {
  const d = new Date(now + daysAhead * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
