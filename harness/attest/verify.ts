// Verifying a certificate: the DSSE signature with the given public keys, the
// statement's types, every subject against the report folder's files, the
// judgement recomputed from results.json, and a policy. Each problem is one
// sentence; a certificate with none is accepted.
import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envelopeProblem, PAYLOAD_TYPE, verifiedPayload, type Envelope } from './dsse.ts';
import { PREDICATE_TYPE, sha256, STATEMENT_TYPE, testLists, type Statement, type TestLists } from './statement.ts';
import { ATTESTATION_FILE, REPORT_FILES } from '../report/folder.ts';
import { readResults } from './results-file.ts';
import { HarnessError, isHarnessError } from '../errors.ts';

/** The statement of an envelope whose signature verifies, or why there is none. */
export function openEnvelope(env: unknown, keys: readonly KeyObject[]): { statement: Statement } | { refused: string } {
  const bad = envelopeProblem(env);
  if (bad) return { refused: `The envelope is not a DSSE envelope: ${bad}.` };
  const e = env as Envelope;
  if (e.payloadType !== PAYLOAD_TYPE) return { refused: `The envelope's payloadType is ${JSON.stringify(e.payloadType).slice(0, 80)}, not ${PAYLOAD_TYPE}.` };
  const payload = verifiedPayload(e, keys);
  if (!payload) return { refused: 'No signature of the envelope verifies with the given public key: it was signed by another key, or changed after signing.' };
  let s: Statement;
  try { s = JSON.parse(payload.toString('utf8')) as Statement; } catch { return { refused: 'The signed payload is not JSON.' }; }
  if (s?._type !== STATEMENT_TYPE) return { refused: `The signed payload is not an in-toto Statement v1 (_type is not ${STATEMENT_TYPE}).` };
  if (s.predicateType !== PREDICATE_TYPE) return { refused: `The statement's predicateType is not ${PREDICATE_TYPE}.` };
  const p = s.predicate;
  const strings = (v: unknown) => Array.isArray(v) && v.every(x => typeof x === 'string');
  if (!Array.isArray(s.subject) || !p || typeof p !== 'object' || !['PASSED', 'WARNED', 'FAILED'].includes(p.result) || !Array.isArray(p.configuration)
    || !strings(p.passedTests) || !strings(p.warnedTests) || !strings(p.failedTests))
    return { refused: 'The statement has no subject list or no test-result predicate (result, configuration, passedTests, warnedTests, failedTests).' };
  return { statement: s };
}

/** The subjects against the files of `dir`: a file changed, missing, or a report file the statement does not name. */
export function subjectFindings(s: Statement, dir: string): string[] {
  const out: string[] = [];
  const named = new Set<string>();
  for (const sub of s.subject) {
    const name = String(sub?.name ?? '');
    named.add(name);
    if (!(REPORT_FILES as readonly string[]).includes(name) || name === ATTESTATION_FILE) {
      out.push(`The statement names ${JSON.stringify(name).slice(0, 80)}, which is not a file of a report folder.`);
      continue;
    }
    const file = join(dir, name);
    if (!existsSync(file)) out.push(`${file} is missing, but the statement names it.`);
    else if (sha256(readFileSync(file)) !== sub.digest?.sha256) out.push(`${file} is not the file that was signed: its sha256 differs from the statement's.`);
  }
  for (const f of REPORT_FILES)
    if (f !== ATTESTATION_FILE && !named.has(f) && existsSync(join(dir, f))) out.push(`${join(dir, f)} is in the folder but not in the statement.`);
  return out;
}

const LISTS = ['passedTests', 'warnedTests', 'failedTests'] as const;

/** The judgement recomputed from the folder's results.json against the statement's. */
export function recomputedFindings(s: Statement, dir: string): string[] {
  let lists: TestLists;
  try { lists = testLists(readResults(dir)); } catch (e) {
    if (isHarnessError(e)) return [e.message];
    throw e;
  }
  const p = s.predicate;
  const out: string[] = [];
  if (p.result !== lists.result) out.push(`The statement says ${p.result}, but results.json gives ${lists.result}.`);
  if (p.conformance?.verdict !== lists.verdict) out.push(`The statement's verdict is ${p.conformance?.verdict}, but results.json gives ${lists.verdict}.`);
  for (const k of LISTS) {
    const want = [...lists[k]].sort().join(','), got = [...(p[k] ?? [])].sort().join(',');
    if (want !== got) out.push(`The statement's ${k} differ from the checks of results.json.`);
  }
  if ([...(p.conformance?.notRunTests ?? [])].sort().join(',') !== [...lists.notRunTests].sort().join(','))
    out.push("The statement's notRunTests differ from the checks of results.json.");
  return out;
}

/** Arbitrary: a certificate of every check is some tens of KB; a thousand times that is no certificate. */
const MAX_ENVELOPE_BYTES = 16 * 1024 * 1024;

/** The JSON of an envelope file; a file that is not JSON is refused like a bad envelope, one that cannot be read is an error. */
export function readEnvelope(file: string): { json: unknown } | { refused: string } {
  let bytes: Buffer;
  try { bytes = readFileSync(file); } catch (e) {
    throw new HarnessError('PIS_BAD_INPUT', `The envelope ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ` +
      'give the attestation.intoto.json that attest or run --attest wrote.');
  }
  if (bytes.length > MAX_ENVELOPE_BYTES) return { refused: `The envelope is over ${MAX_ENVELOPE_BYTES} bytes, far more than any certificate.` };
  try { return { json: JSON.parse(bytes.toString('utf8')) }; } catch { return { refused: 'The envelope is not JSON.' }; }
}
