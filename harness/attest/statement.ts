// The in-toto Statement v1 of a report folder (github.com/in-toto/attestation,
// spec/v1) with the test-result predicate v0.1 (spec/predicates, "Test
// Result"). Subjects are the report's files by
// SHA-256; the predicate's test names are check ids. What the test-result
// predicate has no field for (the verdict, the checks that did not run, the
// declared deviations) is in one extra field, `conformance`: in-toto's parsing
// rules have consumers ignore fields they do not know.
//
// Result: Conformant is PASSED (WARNED when should or profile checks failed);
// every other verdict is FAILED. An Incomplete or Interrupted run also lists
// its must checks that did not run in failedTests, so a verifier that reads
// only `failedTests` being empty cannot take it for a pass.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TOOL } from '../version.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import { ATTESTATION_FILE, REPORT_FILES } from '../report/folder.ts';
import { isMustFailure, isWarning, type RunResults, type Verdict } from '../results/model.ts';
import { skipKindOf } from '../report/verdict.ts';
import { labelWithDeviations, type DeviationsFile, type DeviationStatus } from './deviations.ts';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'https://in-toto.io/attestation/test-result/v0.1';
/** The failedTests entry of an Interrupted run whose selected must checks all finished: the stop itself fails the run. */
export const INTERRUPTED_TEST = 'pis-conformance.run-interrupted';

interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest?: Record<string, string>;
  content?: string;
  mediaType?: string;
  annotations?: Record<string, unknown>;
}

type TestResult = 'PASSED' | 'WARNED' | 'FAILED';

/** The judgement a statement carries, recomputable from results.json alone (`verify --report`). */
export interface TestLists {
  result: TestResult;
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
  verdict: Verdict;
  notRunTests: string[];
  notApplicableTests: string[];
}

interface Conformance {
  verdict: Verdict;
  /** "Not conformant (2 declared deviations)". */
  verdictLine: string;
  apiVersion?: string;
  implementation: string;
  /** Selected checks that did not run (every level). */
  notRunTests: string[];
  notApplicableTests: string[];
  deviations: DeviationStatus[];
  startedAt: string;
  finishedAt: string;
}

interface TestResultPredicate {
  result: TestResult;
  configuration: ResourceDescriptor[];
  url?: string;
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
  conformance: Conformance;
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: { name: string; digest: { sha256: string } }[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: TestResultPredicate;
}

export function testLists(r: RunResults): TestLists {
  const ids = (f: (c: RunResults['checks'][number]) => boolean) => r.checks.filter(f).map(c => c.id);
  const verdict = r.summary.verdict;
  const notRun = r.checks.filter(c => skipKindOf(c) === 'not-run');
  const failedTests = ids(isMustFailure);
  if (verdict === 'incomplete' || verdict === 'interrupted') {
    failedTests.push(...notRun.filter(c => c.level === 'must').map(c => c.id));
    if (!failedTests.length) failedTests.push(INTERRUPTED_TEST);
  }
  const warnedTests = ids(isWarning);
  const result: TestResult = verdict !== 'conformant' ? 'FAILED' : warnedTests.length ? 'WARNED' : 'PASSED';
  return {
    result, passedTests: ids(c => c.status === 'passed'), warnedTests, failedTests, verdict,
    notRunTests: notRun.map(c => c.id), notApplicableTests: ids(c => skipKindOf(c) === 'not-applicable'),
  };
}

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** JSON with object keys sorted, so a digest of a value does not depend on key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v).sort().filter(k => (v as Record<string, unknown>)[k] !== undefined)
      .map(k => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The report files a statement names: every file of REPORT_FILES the folder holds, but the certificate itself. */
function reportSubjects(dir: string): Statement['subject'] {
  return REPORT_FILES.filter(f => f !== ATTESTATION_FILE && existsSync(join(dir, f)))
    .map(f => ({ name: f, digest: { sha256: sha256(readFileSync(join(dir, f))) } }));
}

/** The implementation a row of the matrix is: the name given, the bundled reference, or the API's origin. */
function implementationOf(r: RunResults, name: string | undefined): string {
  if (name) return name;
  if (r.target.implementation) return r.target.implementation;
  try { return new URL(redactUrlUserinfo(r.target.baseUrl ?? '')).origin; } catch { return 'unnamed implementation'; }
}

export interface StatementInputs {
  dir: string;
  results: RunResults;
  deviations?: { file: DeviationsFile; statuses: DeviationStatus[] };
  /** The target's YAML description (run --config), by digest. */
  targetConfig?: { file: string; sha256: string };
  url?: string;
  name?: string;
}

function configuration(inp: StatementInputs): ResourceDescriptor[] {
  const r = inp.results;
  const settings = { apiVersion: r.selection?.apiVersion, selection: r.selection ?? {}, timeScale: r.timeScale };
  const target = Object.fromEntries(Object.entries(r.target).filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, /^[a-z][a-z0-9+.-]*:\/\//i.test(v!) ? redactUrlUserinfo(v!) : v]));
  const settingsJson = canonical(settings);
  return [
    { name: r.tool.name, uri: `pkg:npm/${r.tool.name}@${r.tool.version}`,
      annotations: { version: r.tool.version, attestedBy: `${TOOL.name}@${TOOL.version}` } },
    { name: 'run-settings', mediaType: 'application/json', content: Buffer.from(settingsJson).toString('base64'),
      digest: { sha256: sha256(settingsJson) },
      annotations: { apiVersion: settings.apiVersion, timeScale: r.timeScale, suites: r.selection?.suites, grep: r.selection?.grep,
        profile: r.selection?.profile } },
    { name: 'target', digest: { sha256: sha256(canonical(target)) }, annotations: target },
    ...(inp.targetConfig ? [{ name: 'target-description', uri: basename(inp.targetConfig.file), digest: { sha256: inp.targetConfig.sha256 } }] : []),
    ...(inp.deviations ? [{ name: 'deviations', uri: basename(inp.deviations.file.file), digest: { sha256: inp.deviations.file.sha256 } }] : []),
  ];
}

export function buildStatement(inp: StatementInputs): Statement {
  const r = inp.results;
  const { result, passedTests, warnedTests, failedTests, verdict, notRunTests, notApplicableTests } = testLists(r);
  const deviations = inp.deviations?.statuses ?? [];
  return {
    _type: STATEMENT_TYPE,
    subject: reportSubjects(inp.dir),
    predicateType: PREDICATE_TYPE,
    predicate: {
      result, configuration: configuration(inp), ...(inp.url ? { url: inp.url } : {}), passedTests, warnedTests, failedTests,
      conformance: {
        verdict, verdictLine: labelWithDeviations(r, deviations), ...(r.selection?.apiVersion ? { apiVersion: r.selection.apiVersion } : {}),
        implementation: implementationOf(r, inp.name), notRunTests, notApplicableTests, deviations, startedAt: r.startedAt, finishedAt: r.finishedAt,
      },
    },
  };
}
