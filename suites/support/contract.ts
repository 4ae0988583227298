// Records checked against the project's contracts (contracts/, compiled by
// harness/contracts): each violation carries its own level, so one check per
// level takes the violations of that level only (the caller registers it at
// the same level).
import { validateContract, type ContractName, type Violation } from '../../harness/contracts/index.ts';
import type { Level } from '../../harness/report/model.ts';
import type { CheckContext } from './check.ts';
import type { ExchangeResponse } from '../../harness/http/exchange.ts';

/** `at`: the answer an item came in; the failure points at the first broken item's answer. */
export function expectContract(c: CheckContext, name: ContractName, items: { label: string; value: unknown; at?: ExchangeResponse }[], level: Level): void {
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
