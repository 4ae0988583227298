// The contracts as the rest of the harness uses them: validate any item
// against a named contract (schema and code rules), classify and check webhook
// bodies. Schemas are compiled once per process (load.ts).
import { contracts, CONTRACT_FILES, ID_BASE, type ContractName, type SchemaNode } from './load.ts';
import { toViolations, type Violation } from './violations.ts';
import { codeRules } from './body-rules.ts';
import { classifyWebhook, type WebhookKind } from './classify.ts';
import type { ContractTypes } from './types.ts';

export { CONTRACT_NAMES,  type ContractName } from './load.ts';
export type { Violation } from './violations.ts';
export type * from './types.ts';
export { classifyWebhook, classifyItem, type WebhookKind,  } from './classify.ts';

const LEVEL_ORDER = { must: 0, should: 1, profile: 2 } as const;

/** Every violation of `data` against contract `name`, `must` first; [] when it conforms fully. */
export function validateContract(name: ContractName, data: unknown): Violation[] {
  const { validators, documents } = contracts();
  const validate = validators[name];
  if (!validate) throw new Error(`unknown contract ${name}`);
  const rootId = ID_BASE + CONTRACT_FILES[name];
  const schema = validate(data) ? [] : toViolations(validate.errors ?? [], documents.get(rootId) as SchemaNode, rootId, documents);
  return [...schema, ...codeRules(name, data)].sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level]);
}

/** True when no violation is of level `must` (`should` warns, `profile` never decides). */
export function isConformant(violations: readonly Violation[]): boolean {
  return !violations.some(v => v.level === 'must');
}

/** A typed validator: true (and `data` narrowed to the contract's type) when no `must` rule is broken. */
export function conforms<N extends ContractName>(name: N, data: unknown): data is ContractTypes[N] {
  return isConformant(validateContract(name, data));
}

/** Classifies a webhook body and validates it against its kind's contract and the code rules. */
export function checkWebhookBody(body: unknown): { kind: WebhookKind | 'unknown'; violations: Violation[] } {
  const kind = classifyWebhook(body);
  if (kind === 'unknown') {
    return { kind, violations: [{ pointer: '', expected: 'a webhook body (spec 2.2, 2.3 or 2.5): an object with id, status, payment or payments',
      found: Array.isArray(body) ? 'an array' : body === null ? 'null' :
        typeof body === 'object' ? 'an object with none of the webhook fields' : `a ${typeof body}`,
      spec: '2.2', level: 'must', rule: 'webhook.kind' }] };
  }
  return { kind, violations: validateContract(`webhook-${kind}`, body) };
}
