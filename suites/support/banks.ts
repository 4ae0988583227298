// The banks the data and payments suites work with. The config's bank-id wins;
// otherwise one bank per country (Nordic countries first, at most five), so the
// Nordic status codes of spec 3.3 and several bank behaviours (strong customer
// authentication or not, confirm-funds or not) are met without walking a
// sandbox's whole list. With a person in the loop (manual or browser consent)
// only the first is used.
import { call, obj, ok } from './api.ts';
import { Prerequisite } from './check.ts';
import { target } from './target.ts';

export type Bank = Record<string, unknown> & { id: string; countryCode?: string; supportedServices?: unknown };

export const NORDIC = ['NO', 'SE', 'FI', 'DK'];
/** Arbitrary: enough countries to meet the behaviours above, few enough to keep a run short. */
const MAX_BANKS = 5;

let list: Promise<Bank[]> | undefined;

/** GET /banks, once per worker. */
export function allBanks(): Promise<Bank[]> {
  list ??= (async () => {
    const res = await call(null, 'GET', 'banks', {}, { label: 'bank list' });
    if (!ok(res) || !Array.isArray(res.json)) throw new Prerequisite(`GET /banks answered ${res.status} without a list (see data.banks.list)`);
    return (res.json as unknown[]).filter((b): b is Bank => !!b && typeof b === 'object' && typeof (b as Bank).id === 'string');
  })();
  return list;
}

export async function banksUnderTest(): Promise<Bank[]> {
  const t = target();
  if (t.bankId) {
    const res = await call(null, 'GET', 'bank', { bankId: t.bankId }, { label: 'the configured bank' });
    const b = obj(res);
    if (!ok(res) || !b) throw new Prerequisite(`the configured bank ${t.bankId} could not be read (${res.status})`);
    return [{ ...b, id: t.bankId } as Bank];
  }
  const banks = await allBanks();
  if (!banks.length) throw new Prerequisite('GET /banks lists no bank');
  const byCountry = new Map<string, Bank>();
  const rank = (b: Bank) => { const i = NORDIC.indexOf(String(b.countryCode)); return i < 0 ? NORDIC.length : i; };
  for (const b of [...banks].sort((a, b) => rank(a) - rank(b))) {
    const cc = String(b.countryCode ?? '?');
    if (!byCountry.has(cc)) byCountry.set(cc, b);
  }
  const chosen = [...byCountry.values()].slice(0, MAX_BANKS);
  return t.consentDriver === 'follow' ? chosen : chosen.slice(0, 1);
}

export const isNordic = (b: Bank) => NORDIC.includes(String(b.countryCode));

/** The bank's supportedServices; a check that needs them cannot go on when they are not an array of strings. */
export function services(b: Bank): string[] {
  if (!Array.isArray(b.supportedServices) || b.supportedServices.some(s => typeof s !== 'string'))
    throw new Prerequisite(`supportedServices of ${b.id} is not an array of strings (see data.banks.supported-services)`);
  return b.supportedServices as string[];
}
