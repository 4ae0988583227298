// Signs a report folder: the statement of its files and results, in a DSSE
// envelope, written beside them as attestation.intoto.json (or where asked).
import type { KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTESTATION_FILE } from '../report/folder.ts';
import { signEnvelope } from './dsse.ts';
import { judgeDeviations, type DeviationsFile, type DeviationStatus } from './deviations.ts';
import { readResults } from './results-file.ts';
import { buildStatement, type Statement } from './statement.ts';

export interface AttestOptions {
  dir: string;
  key: KeyObject;
  deviations?: DeviationsFile;
  targetConfig?: { file: string; sha256: string };
  url?: string;
  name?: string;
  out?: string;
}

export function attestFolder(o: AttestOptions): { file: string; statement: Statement; deviations: DeviationStatus[] } {
  const results = readResults(o.dir);
  const statuses = o.deviations ? judgeDeviations(o.deviations.deviations, results) : [];
  const statement = buildStatement({
    dir: o.dir, results, ...(o.deviations ? { deviations: { file: o.deviations, statuses } } : {}),
    ...(o.targetConfig ? { targetConfig: o.targetConfig } : {}), ...(o.url ? { url: o.url } : {}), ...(o.name ? { name: o.name } : {}),
  });
  const file = o.out ?? join(o.dir, ATTESTATION_FILE);
  writeFileSync(file, JSON.stringify(signEnvelope(Buffer.from(JSON.stringify(statement)), o.key), null, 2) + '\n');
  return { file, statement, deviations: statuses };
}
