// Reads a YAML input file of these commands (deviations, policy) and checks it
// against its schema of contracts/ with the contracts' ajv: one sentence that
// names the first wrong entry, and the file's SHA-256 for the certificate.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { HarnessError } from '../errors.ts';
import { contracts, ID_BASE } from '../contracts/load.ts';

/** Arbitrary: far more than any list of deviations or policy a person writes, small enough to read at once. */
const MAX_BYTES = 1024 * 1024;

export function readYamlFile<T>(file: string, schema: string, flag: string): { doc: T; sha256: string } {
  let bytes: Buffer;
  try { bytes = readFileSync(file); } catch (e) {
    throw new HarnessError('PIS_BAD_CONFIG', `The ${flag} file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ` +
      'give the path of a YAML file.');
  }
  if (bytes.length > MAX_BYTES) throw new HarnessError('PIS_BAD_CONFIG', `The ${flag} file ${file} is over ${MAX_BYTES} bytes: give the YAML file itself.`);
  let doc: unknown;
  try { doc = parse(bytes.toString('utf8')); } catch (e) {
    throw new HarnessError('PIS_BAD_CONFIG', `The ${flag} file ${file} is not valid YAML (${(e as Error).message.split('\n')[0]}): fix the line it names.`);
  }
  const validate = contracts().ajv.getSchema(ID_BASE + schema);
  if (!validate) throw new HarnessError('PIS_INTERNAL', `contracts/${schema} did not load: restore it from the repository.`);
  if (!validate(doc ?? {})) {
    const e = validate.errors![0]!;
    const detail = e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as string[]).join(', ')})` : '';
    throw new HarnessError('PIS_BAD_CONFIG', `The ${flag} file ${file} does not match contracts/${schema}: ` +
      `${e.instancePath || '/'} ${e.message}${detail}; fix that entry.`);
  }
  return { doc: (doc ?? {}) as T, sha256: createHash('sha256').update(bytes).digest('hex') };
}
