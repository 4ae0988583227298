// The YAML config file of `run --config FILE` (docs/cli.md, "The config
// file"): checked against contracts/target-config.yaml, which is generated
// from the options table, then read by the table like flags and variables.
// An unknown key is an error, so a typo never silently tests the wrong thing.
import type { ErrorObject } from 'ajv';
import { HarnessError } from '../errors.ts';
import { nearest } from '../flag-values.ts';
import { contracts, ID_BASE, type SchemaNode } from '../contracts/load.ts';
import { toViolations } from '../contracts/violations.ts';
import { fromFile, type PartialConfig } from './config.ts';
import { shown, spellings } from './kinds.ts';
import { CONFIG_KEYS, TARGET_OPTIONS } from './options.ts';
import { badConfig, readYaml } from './yaml.ts';

/** The config file's schema under contracts/. */
export const CONFIG_SCHEMA = 'target-config.yaml';

/** Reads and checks a config file; `suites` comes back separately because it is not part of the target. */
export function loadConfigFile(file: string): { config: PartialConfig; suites?: string } {
  const data = readYaml(file, 'config file');
  if (data === null || data === undefined) return { config: {} };
  if (typeof data !== 'object' || Array.isArray(data)) throw badConfig(file, 'the top level must be a mapping of keys such as base-url and auth-url');
  // A key with no value leaves the setting to the other sources, as an empty variable does.
  const given = Object.fromEntries(Object.entries(data).filter(([k, v]) => v !== null || !(CONFIG_KEYS.has(k) || k === 'suites')));
  // docs/cli.md: secrets belong in the environment; a file is read by whoever reads the folder, and gets committed.
  for (const o of TARGET_OPTIONS.filter(x => x.secret)) {
    const key = spellings(o.name).find(k => given[k] !== undefined && given[k] !== null);
    if (key) throw badConfig(file, `holds the secret '${key}', which does not go in a file: remove it and set ${o.env} in the environment`);
  }
  const problem = schemaProblem(given);
  if (problem) throw badConfig(file, problem);
  const { suites, ...settings } = given;
  return { config: fromFile(settings, file), suites: suites === undefined ? undefined : Array.isArray(suites) ? suites.join(',') : String(suites) };
}

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The first problem of the file against the schema, in file order, as the part of a sentence after the file's name. */
function schemaProblem(data: Record<string, unknown>): string | undefined {
  const { ajv, documents } = contracts();
  const id = ID_BASE + CONFIG_SCHEMA;
  const validate = ajv.getSchema(id);
  if (!validate) throw new HarnessError('PIS_INTERNAL', `contracts/${CONFIG_SCHEMA} did not load: restore it from the repository.`);
  if (validate(data)) return undefined;
  const keys = Object.keys(data);
  const keyOf = (e: ErrorObject) => e.keyword === 'additionalProperties' && !e.instancePath
    ? String(e.params.additionalProperty) : unescape(e.instancePath.split('/')[1] ?? '');
  const e = [...validate.errors ?? []].sort((a, b) => keys.indexOf(keyOf(a)) - keys.indexOf(keyOf(b)))[0]!;
  const path = e.instancePath.split('/').slice(1).map(unescape);
  if (e.keyword === 'additionalProperties') {
    const key = String(e.params.additionalProperty);
    const names = Object.keys((e.parentSchema as SchemaNode).properties as SchemaNode);
    const near = nearest(key, names);
    // Each name is offered in kebab-case; camelCase is accepted too.
    const fix = near ? `did you mean '${near}'?` : `use one of ${names.filter(n => !/[A-Z]/.test(n)).join(', ')}`;
    return `unknown ${path.length ? `${path.join('.')} entry` : 'key'} '${key}': ${fix}`;
  }
  const [v] = toViolations([e], documents.get(id)!, id, documents);
  return `'${path.join('.')}' must be ${v!.expected}, not ${shown(e.data)}`;
}
