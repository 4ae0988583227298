// GET /banks (filters countryCode and name, spec 4.4 and 9 2.0.0) and GET
// /banks/{bankId} ("Get bank by id"). Records per docs/profile.md; supportedServices
// is an array of strings (spec 2.6).
import { BANKS, findBank, type BankRecord } from '../data/banks.ts';
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { invalidId } from './errors.ts';
import { has, servicesAt } from './versions.ts';
import type { CatalogName } from '../catalog-names.ts';

function present(call: Call, bank: BankRecord): Record<string, unknown> {
  const faults = call.ctx.faults;
  // Fault data-services-not-array: the array becomes "a,b" (every bank, so any bank a suite reads shows it).
  // Only the values the version knows (spec 9: 3.1.0, 3.2.0 and a later change added the named ones).
  const services = servicesAt(call.ctx, bank.supportedServices);
  const record: Record<string, unknown> = faults.has('data-services-not-array')
    ? { ...bank, supportedServices: services.join(',') }
    : { ...bank, supportedServices: services };
  return withExtras(faults, record, { logoUrl: `${call.origin}/bank/logo/${bank.id}.svg`, paymentMethods: ['ACCOUNT_TRANSFER'] });
}

/** How a name query matches: the bank's display or official name contains it. Fault data-banks-name-filter-ignored: every bank matches. */
function nameMatches(faults: ReadonlySet<CatalogName>, bank: BankRecord, query: string): boolean {
  if (faults.has('data-banks-name-filter-ignored')) return true;
  return [bank.bankDisplayName, bank.bankOfficialName].some(n => n.toLowerCase().includes(query.toLowerCase()));
}

export function listBanks(call: Call): Answer {
  // Spec 9 2.0.0: the filters arrived then; before, the whole list whatever the query.
  const filters = has(call.ctx, 'bank-filters');
  const country = filters ? call.query.get('countryCode')?.trim().toUpperCase() : undefined;
  const name = filters ? call.query.get('name')?.trim() : undefined;
  // Fault data-banks-filter-ignored: the countryCode filter is not applied (the name filter still is).
  const byCountry = country && !call.ctx.faults.has('data-banks-filter-ignored');
  const banks = BANKS.map(b => b.record)
    .filter(b => !byCountry || b.countryCode === country)
    .filter(b => !name || nameMatches(call.ctx.faults, b, name));
  return ok(banks.map(b => present(call, b)));
}

export function getBank(call: Call): Answer {
  const bank = findBank(call.params.bankId);
  if (!bank) throw invalidId('bank', call.params.bankId);
  return ok(present(call, bank.record));
}
