// The enumerations of the spec, loaded from contracts/enums/*.yaml so that the
// schemas and the code read one list (the YAML files are the source of truth).
// Currency is the exception: ISO 4217 comes from the maintained currency-codes
// package rather than a typed list.
import { readOwnYaml } from '../own-yaml.ts';
import currencyCodes from 'currency-codes';

const ENUMS_DIR = new URL('../../contracts/enums/', import.meta.url);

interface EnumFile { enum?: string[]; examples?: string[]; $defs?: Record<string, { enum?: string[] }> }

function load(file: string): EnumFile {
  return readOwnYaml(new URL(file, ENUMS_DIR)) as EnumFile;
}

function list(file: string, def?: string): readonly string[] {
  const doc = load(file);
  const values = def ? doc.$defs?.[def]?.enum : doc.enum;
  if (!values?.length) throw new Error(`contracts/enums/${file} has no ${def ? `$defs.${def}.enum` : 'enum'} list`);
  return Object.freeze([...values]);
}

/** CheckoutStatus, spec 3.1. */
export const CHECKOUT_STATUSES = list('checkout-status.yaml');
/** The statuses spec 3.1 marks "Final": nothing may follow them. */
export const FINAL_CHECKOUT_STATUSES = list('checkout-status.yaml', 'final');
/** Statuses a payment poller reports; reachable only after PAYMENT_INITIATED (spec 3.1 rule). */
export const POLLER_STATUSES = list('checkout-status.yaml', 'poller');
/** TransactionStatus, spec 3.2. */
export const TRANSACTION_STATUSES = list('transaction-status.yaml');
/** abortReason values, spec 2.4. */
export const ABORT_REASONS = list('abort-reason.yaml');
/** The checkout statuses with which abortReason may be populated (spec 2.4). */
export const ABORT_REASON_STATUSES = list('checkout-status.yaml', 'abortable');
/** Payment status codes of Nordic banks, spec 3.3. */
export const NORDIC_PAYMENT_CODES = list('bank-payment-status.yaml');
/** Countries whose banks return only NORDIC_PAYMENT_CODES (spec 3.3). */
export const NORDIC_COUNTRIES = list('nordic-country.yaml');
/** supportedServices values the spec names (2.6); other values are allowed. */
export const KNOWN_SUPPORTED_SERVICES = list('supported-service.yaml', 'known');
/** ISO 4217 alphabetic codes, from the currency-codes package. */
export const CURRENCIES: readonly string[] = Object.freeze([...currencyCodes.codes()]);

