// The run context: everything `run` tells Playwright's runner, its reporter and
// its workers, as one typed document in one environment variable, encoded and
// decoded here only (the config hands the reporter its part as the reporter's
// options; guard.mjs, plain JavaScript loaded before any TypeScript, reads its
// three fields itself). A part per target (`runs`): `run` makes one; a batch
// of the tests' proof runs several, each a describe block of its own (part.ts).
// The secrets are not in it: they travel in the
// variables a user sets them in (harness/config/env.ts), so the document holds
// nothing that must be hidden, and no file ever holds a secret.
import { HarnessError } from '../../harness/errors.ts';
import type { ReporterOptions } from '../../harness/report/playwright-reporter.ts';
import { useRequirementWindows, type Window } from '../../harness/requirements/versions.ts';
import { joinTarget } from '../../harness/config/env.ts';
import type { TargetConfig } from '../../harness/config/config.ts';

export const RUN_CONTEXT_ENV = 'PIS_RUN_CONTEXT';

/**
 * One target's part of a run. `run` makes one; a batch of proof runs (the
 * tests' catalog runs) makes several in one Playwright invocation, each a
 * describe block of its own name (part.ts) with its own reporter and
 * report folder, so that the runner starts once for all of them.
 */
export interface TargetRun {
  /** Its name in a batch, that of its describe block ('' for the one run of `run`). */
  name: string;
  /** The target without its secrets (harness/config/env.ts splitTarget); the time scale is its `timeScale`. */
  target: Record<string, unknown>;
  /** The ids of the checks the run selected (harness/cli/selection.ts): the start-first watches start by them. */
  selected: string[];
  /** The spec files of its suites, as Playwright's file patterns (harness/runner/playwright.ts). */
  files: string[];
  /** Where the webhook drive `run` makes keeps its outcome, when it makes one. */
  webhookRunFile?: string;
  /** The reporter's options, as they are. */
  report: ReporterOptions;
}

export interface RunContext {
  /** `run`'s pid: the Playwright runner is its child, the workers are not; only the runner holds the fds named here. */
  runPid: number;
  /** The run's private temp folder (mode 0700): removed by guard.mjs when `run` ends without removing it. */
  scratchDir: string;
  /** The runner's end of a pipe `run` never writes to: end-of-file means `run` is gone (guard.mjs). */
  guardFd: number;
  /** The API version windows of the requirements, by id, as `run` read them. */
  requirementWindows: [string, Window][];
  /** One part per target: one for `run`. */
  runs: TargetRun[];
  playwright: { workers: number; maxWaitS: number; globalTimeoutS: number; outputDir: string };
}

/**
 * Linux takes at most 128 KiB in one variable (MAX_ARG_STRLEN); a context is
 * about 14 KB (191 checks' ids, the requirement windows, the report header).
 */
const MAX_CONTEXT = 120 * 1024;

/** The environment that carries `ctx` to Playwright's runner and its workers. */
export function encodeRunContext(ctx: RunContext): Record<string, string> {
  const text = JSON.stringify(ctx);
  if (Buffer.byteLength(text) > MAX_CONTEXT)
    throw new HarnessError('PIS_INTERNAL', `The run context is ${Buffer.byteLength(text)} bytes, more than one environment variable holds ` +
      `(${MAX_CONTEXT}): this is a bug of the harness, please report it.`);
  return { [RUN_CONTEXT_ENV]: text };
}

let cached: RunContext | undefined;

/**
 * The context of this process, decoded once and checked; the requirement
 * windows it carries are put in force. A missing or broken one is a harness
 * error: the suites were started without `run`.
 */
export function runContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  if (cached) return cached;
  const text = env[RUN_CONTEXT_ENV];
  if (!text) throw new HarnessError('PIS_MISSING_OPTION', `${RUN_CONTEXT_ENV} is not set: start the suites with 'pis-conformance run', which sets it.`);
  const ctx = decodeRunContext(text);
  useRequirementWindows(ctx.requirementWindows);
  cached = ctx;
  return ctx;
}

/**
 * This worker's part of the run: the one part, or in a batch the part of the
 * part running now (`part`: part.ts thisPart, asked for only then).
 */
export function thisRun(part: () => string, env: NodeJS.ProcessEnv = process.env): TargetRun {
  const { runs } = runContext(env);
  if (runs.length === 1) return runs[0]!;
  const name = part();
  const run = runs.find(r => r.name === name);
  if (!run) {
    throw new HarnessError('PIS_INTERNAL',
      `The run context has no part named '${name}': this is a bug of the harness, please report it.`);
  }
  return run;
}

/** The target of this worker: its part's open target with the secrets from their variables. */
export function contextTarget(part: () => string, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  return joinTarget(thisRun(part, env).target, env);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A selection as Playwright's --grep: a test's title path reads
 * "<file> <id> <title> <tags>", and the file followed by one of the selected
 * ids (then a space) is that test and no other. (--test-list cannot say it:
 * it matches the file where test() is called, and every check's test() is
 * called in support/register.ts.)
 */
export function selectionGrep(ids: readonly string[]): string {
  return `\\.spec\\.ts (?:${ids.map(escape).join('|')}) `;
}

type Kind = 'number' | 'string' | 'object' | 'array' | 'boolean';
const SHAPE: Record<string, [Kind, boolean?]> = {
  'runPid': ['number'], 'scratchDir': ['string'], 'guardFd': ['number'], 'requirementWindows': ['array'], 'runs': ['array'],
  'playwright': ['object'], 'playwright.workers': ['number'], 'playwright.maxWaitS': ['number'], 'playwright.globalTimeoutS': ['number'],
  'playwright.outputDir': ['string'],
};
/** The shape of each part of `runs`. */
const RUN_SHAPE: Record<string, [Kind, boolean?]> = {
  'name': ['string'], 'target': ['object'], 'selected': ['array'], 'files': ['array'], 'webhookRunFile': ['string', true],
  'report': ['object'], 'report.reportDir': ['string'], 'report.header': ['object'], 'report.candidatesFile': ['string', true],
  'report.statusFile': ['string'], 'report.notesFd': ['number', true], 'report.stdout': ['string'], 'report.secretVariables': ['array'],
  'report.part': ['string', true], 'report.resultsOnly': ['boolean', true],
};

const kindOf = (v: unknown): Kind | 'other' => Array.isArray(v) ? 'array'
  : typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? typeof v as Kind : v !== null && typeof v === 'object' ? 'object' : 'other';

function checkShape(doc: unknown, shape: Record<string, [Kind, boolean?]>, prefix: string): void {
  for (const [path, [kind, optional]] of Object.entries(shape)) {
    const value = path.split('.').reduce<unknown>((o, k) => (kindOf(o) === 'object' ? (o as Record<string, unknown>)[k] : undefined), doc);
    if (value === undefined && optional) continue;
    if (kindOf(value) !== kind)
      throw new HarnessError('PIS_INTERNAL', `${RUN_CONTEXT_ENV} has ${value === undefined ? 'no' : `a ${kindOf(value)} as`} ${prefix}${path} ` +
        `(a ${kind} expected): this is a bug of the harness, please report it.`);
  }
}

/** Parses and checks a context: every field of RunContext there with its kind of value, in each of its parts. */
export function decodeRunContext(text: string): RunContext {
  let doc: unknown;
  try { doc = JSON.parse(text); } catch (e) {
    throw new HarnessError('PIS_INTERNAL', `${RUN_CONTEXT_ENV} is not JSON (${(e as Error).message}): this is a bug of the harness, please report it.`);
  }
  checkShape(doc, SHAPE, '');
  const runs = (doc as { runs: unknown[] }).runs;
  if (!runs.length) throw new HarnessError('PIS_INTERNAL', `${RUN_CONTEXT_ENV} has no part in runs: this is a bug of the harness, please report it.`);
  runs.forEach((r, i) => checkShape(r, RUN_SHAPE, `runs[${i}].`));
  return doc as RunContext;
}
