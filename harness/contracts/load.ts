// Loads every schema of contracts/ (YAML, JSON Schema 2020-12) once and
// compiles it with ajv in strict mode. Schemas reference each other by
// relative $ref resolved against their $id, so the same files work for ajv and
// for OpenAPI tools that resolve by file path.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOwnYaml } from '../own-yaml.ts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CURRENCIES } from './enums.ts';

export const CONTRACTS_DIR = fileURLToPath(new URL('../../contracts/', import.meta.url));
export const ID_BASE = 'https://pis-conformance.dev/contracts/';

/** Contract name -> schema file under contracts/. */
export const CONTRACT_FILES = {
  'token-response': 'token-response.yaml',
  'token-error': 'token-error.yaml',
  'webhook-normal': 'webhook-normal.yaml',
  'webhook-batch': 'webhook-batch.yaml',
  'webhook-older': 'webhook-older.yaml',
  'bank': 'records/bank.yaml',
  'account': 'records/account.yaml',
  'transaction': 'records/transaction.yaml',
  'session-created': 'records/session-created.yaml',
  'consent-status': 'records/consent-status.yaml',
  'consent-url': 'records/consent-url.yaml',
  'payment-request': 'records/payment-request.yaml',
  'payment-answer': 'records/payment-answer.yaml',
  'payment-status': 'records/payment-status.yaml',
  'error-body': 'records/error-body.yaml',
  'control-request': 'control-request.yaml',
  'results': 'results.yaml',
} as const;

export type ContractName = keyof typeof CONTRACT_FILES;
export const CONTRACT_NAMES = Object.keys(CONTRACT_FILES) as ContractName[];

export type SchemaNode = Record<string, unknown>;

export interface LoadedContracts {
  ajv: Ajv2020;
  /** Every schema document by $id, as written (plus the currency enum). */
  documents: Map<string, SchemaNode>;
  validators: Record<ContractName, ValidateFunction>;
}

/** The annotation keywords the contracts use: spec section, level, and a reader's wording of what is expected. */
const ANNOTATIONS = ['x-spec', 'x-level', 'x-expected'];

/** YAML files of contracts/ that are data, not JSON Schemas (each has its own schema, *.schema.yaml). */
const DATA_FILES = new Set(['openapi.yaml', 'requirements.yaml', 'proofs.yaml']);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith('.yaml') && !DATA_FILES.has(e.name) ? [join(dir, e.name)] : []);
}

function compile(): LoadedContracts {
  // strictRequired is off: a `required` inside an allOf branch (used to give a
  // group of fields its own level) names properties declared by the parent,
  // which that check cannot see. Union types ([string, 'null']) are deliberate.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true, verbose: true });
  const addFormats = addFormatsModule as unknown as (a: Ajv2020) => void;
  addFormats(ajv);
  for (const keyword of ANNOTATIONS)
    ajv.addKeyword({ keyword, schemaType: 'string', ...(keyword === 'x-level' ? { metaSchema: { enum: ['must', 'should', 'profile'] } } : {}) });

  const documents = new Map<string, SchemaNode>();
  for (const file of yamlFiles(CONTRACTS_DIR)) {
    const doc = readOwnYaml(file) as SchemaNode;
    const expectedId = ID_BASE + relative(CONTRACTS_DIR, file).split('\\').join('/');
    if (doc.$id !== expectedId) throw new Error(`contracts/${relative(CONTRACTS_DIR, file)} must have $id ${expectedId}`);
    // ISO 4217 from the currency-codes package (see contracts/enums/currency.yaml).
    if (expectedId.endsWith('/enums/currency.yaml')) doc.enum = [...CURRENCIES];
    documents.set(expectedId, doc);
    ajv.addSchema(doc);
  }
  // Each validator is compiled when it is first used: a process needs a few of the
  // contracts (the sink the webhook bodies, a suite its records), and compiling
  // all of them cost every process a seventh of a second of CPU at its start.
  const validators = {} as Record<ContractName, ValidateFunction>;
  for (const name of CONTRACT_NAMES) {
    let compiled: ValidateFunction | undefined;
    Object.defineProperty(validators, name, {
      enumerable: true,
      get: () => {
        compiled ??= ajv.getSchema(ID_BASE + CONTRACT_FILES[name]);
        if (!compiled) throw new Error(`contract ${name} (contracts/${CONTRACT_FILES[name]}) did not load`);
        return compiled;
      },
    });
  }
  return { ajv, documents, validators };
}

let loaded: LoadedContracts | undefined;

/** The contracts, loaded on first use, once per process; each validator compiled on its first use. */
export function contracts(): LoadedContracts {
  return (loaded ??= compile());
}
