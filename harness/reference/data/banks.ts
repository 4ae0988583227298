// Seed banks: the four Nordic countries and one SEPA country (DE), with
// different supportedServices (spec 2.6) and behaviours, so every branch of
// docs/profile.md can be reached: strong customer authentication or not,
// confirm-funds supported or not (spec 7), x-psu-ip-address required or not
// (spec 4.4: "required for Swedish banks and one Norwegian bank"). The second
// DE bank behaves like the first and lists no service at all: a suite that
// samples banks by behaviour needs no payment at it, and a bank without any
// supportedServices entry is a case of its own.

/** The bank record of docs/profile.md "Records". */
export interface BankRecord {
  id: string;
  countryCode: string;
  bankDisplayName: string;
  bankOfficialName: string;
  bankingGroupName: string;
  bic: string;
  status: string;
  personalIdentificationRequired: boolean;
  supportedServices: string[];
}

/** How the bank behaves; never sent to clients. */
interface BankBehaviour {
  /** Payments answer the 1428 error and wait for authorize (spec 9, 1.0.1). */
  sca: boolean;
  /** POST /confirm-funds works; otherwise 501 (spec 7). */
  confirmFunds: boolean;
  /** GET /consent needs x-psu-ip-address (spec 4.4). */
  psuIpRequired: boolean;
  currency: string;
}

export interface SeedBank { record: BankRecord; behaviour: BankBehaviour }

/** Spec 3.3: banks in these countries answer only the nine Nordic status codes. */
export const NORDIC = new Set(['NO', 'SE', 'FI', 'DK']);

const bank = (record: Omit<BankRecord, 'status'>, behaviour: BankBehaviour): SeedBank =>
  ({ record: { ...record, status: 'ACTIVE' }, behaviour });

export const BANKS: readonly SeedBank[] = [
  bank({ id: 'dnb-no', countryCode: 'NO', bankDisplayName: 'DNB', bankOfficialName: 'DNB Bank ASA', bankingGroupName: 'DNB',
    bic: 'DNBANOKK', personalIdentificationRequired: true, supportedServices: ['instant-domestic-transfer', 'domestic-scheduled-transfer'] },
  { sca: true, confirmFunds: true, psuIpRequired: true, currency: 'NOK' }),
  bank({ id: 'sparebank1-no', countryCode: 'NO', bankDisplayName: 'SpareBank 1 SR-Bank', bankOfficialName: 'SpareBank 1 SR-Bank ASA',
    bankingGroupName: 'SpareBank 1', bic: 'SPRONO22', personalIdentificationRequired: false, supportedServices: ['domestic-scheduled-transfer'] },
  { sca: false, confirmFunds: true, psuIpRequired: false, currency: 'NOK' }),
  bank({ id: 'swedbank-se', countryCode: 'SE', bankDisplayName: 'Swedbank', bankOfficialName: 'Swedbank AB', bankingGroupName: 'Swedbank',
    bic: 'SWEDSESS', personalIdentificationRequired: true, supportedServices: ['instant-domestic-transfer', 'sepa-scheduled-credit'] },
  { sca: true, confirmFunds: true, psuIpRequired: true, currency: 'SEK' }),
  bank({ id: 'handelsbanken-se', countryCode: 'SE', bankDisplayName: 'Handelsbanken', bankOfficialName: 'Svenska Handelsbanken AB',
    bankingGroupName: 'Handelsbanken', bic: 'HANDSESS', personalIdentificationRequired: false, supportedServices: ['domestic-scheduled-transfer'] },
  { sca: false, confirmFunds: true, psuIpRequired: true, currency: 'SEK' }),
  bank({ id: 'nordea-fi', countryCode: 'FI', bankDisplayName: 'Nordea', bankOfficialName: 'Nordea Bank Abp', bankingGroupName: 'Nordea',
    bic: 'NDEAFIHH', personalIdentificationRequired: false, supportedServices: ['sepa-scheduled-credit', 'instant-domestic-transfer'] },
  { sca: false, confirmFunds: true, psuIpRequired: false, currency: 'EUR' }),
  bank({ id: 'danske-dk', countryCode: 'DK', bankDisplayName: 'Danske Bank', bankOfficialName: 'Danske Bank A/S', bankingGroupName: 'Danske Bank',
    bic: 'DABADKKK', personalIdentificationRequired: false, supportedServices: ['domestic-scheduled-transfer'] },
  { sca: true, confirmFunds: false, psuIpRequired: false, currency: 'DKK' }),
  bank({ id: 'deutsche-de', countryCode: 'DE', bankDisplayName: 'Deutsche Bank', bankOfficialName: 'Deutsche Bank AG', bankingGroupName: 'Deutsche Bank',
    bic: 'DEUTDEFF', personalIdentificationRequired: false, supportedServices: ['sepa-scheduled-credit'] },
  { sca: false, confirmFunds: true, psuIpRequired: false, currency: 'EUR' }),
  bank({ id: 'commerzbank-de', countryCode: 'DE', bankDisplayName: 'Commerzbank', bankOfficialName: 'Commerzbank AG', bankingGroupName: 'Commerzbank',
    bic: 'COBADEFF', personalIdentificationRequired: false, supportedServices: [] },
  { sca: false, confirmFunds: true, psuIpRequired: false, currency: 'EUR' }),
];

export function findBank(id: string): SeedBank | undefined {
  return BANKS.find(b => b.record.id === id);
}
