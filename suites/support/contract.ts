// Records checked against the project's contracts (contracts/, compiled by
// harness/contracts): each violation carries its rule's level, and a check
// takes the violations of the level it is registered at (suites/catalog/), so
// a record's must rules and its profile fields are two checks whose level is
// written once, at their registration.
import { validateContract, type ContractName, type Violation } from '../../harness/contracts/index.ts';
import type { Check, CheckContext } from './check.ts';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';

/** `at`: the answer an item came in; the failure points at the first broken item's answer. */
export function expectContract(c: CheckContext, name: ContractName, items: { label: string; value: unknown; at?: ExchangeResponse }[]): void {
  const level = c.def.level;
  if (!level) throw new Error(`${c.def.id} judges the ${name} contract but was not registered with a level (suites/catalog/)`);
  const found: { label: string; v: Violation; at?: ExchangeResponse }[] = [];
  for (const item of items) for (const v of validateContract(name, item.value)) if (v.level === level) found.push({ label: item.label, v, at: item.at });
  if (!found.length) return;
  for (const f of found.slice(0, 20))
    c.note(`${f.label}${f.v.pointer ? ' ' + f.v.pointer : ''}: expected ${f.v.expected}, found ${f.v.found} (spec ${f.v.spec}, ${f.v.rule})`);
  const first = found[0]!;
  c.fail(`${found.length} ${level} rule${found.length === 1 ? '' : 's'} of the ${name} contract broken, ` +
    `first at ${first.label}${first.v.pointer ? ' ' + first.v.pointer : ''} (spec ${first.v.spec})`,
    first.v.expected, first.v.found, first.at);
}

/** What a check says of itself, without its body. */
type CheckText = Pick<Check, 'id' | 'requirements' | 'spec' | 'title' | 'quote'>;

/**
 * The two checks of one record's contract at every bank, with one body: the
 * spec's rules (registered must) and docs/profile.md's fields (registered
 * profile); each takes the violations of the level it is registered at.
 */
export function recordContract(run: (c: CheckContext) => Promise<void>, rules: CheckText, fields: CheckText): [Check, Check] {
  return [{ ...rules, bindsAt: { family: 'bank' }, run }, { ...fields, bindsAt: { family: 'bank' }, run }];
}
