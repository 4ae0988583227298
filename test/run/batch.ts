// Several proof runs in one Playwright invocation: each part a describe block
// with its own target, selection and report folder, in one Playwright project
// (suites/support/part.ts), so that the runner starts once for all of them
// instead of once per run (about 1.5 CPU s each), and a worker serves every
// part instead of one worker per part (about 0.7 CPU s each). A part's target is a bundled reference of its own with catalog
// names switched on (as `run --fault NAME` starts one), or a target the test
// started (a pass-through with mutations in front of a reference), given as
// `run`'s flags would give it. Each part is planned by the code `run` plans
// with (preflight, planSelection) and judged by the same verdict;
// test/run/catalog.test.ts holds a batch's part equal to `run`'s own run of
// the clean reference, check by check. A part's report folder gets only
// plan.json and results.json (the reporter's resultsOnly), results.json as
// `run` writes it: the tests read nothing else, and results.jsonl, junit.xml
// and index.html cost the runner about a third of a CPU second per part.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { makeScratch, runPlaywright, type TargetRunRequest } from '../../harness/runner/playwright.ts';
import { fromFlags, resolveTarget, type PartialConfig } from '../../harness/config/config.ts';
import { parseOptions } from '../../harness/cli/option-table.ts';
import { RUN_HELP, RUN_OPTIONS } from '../../harness/cli/run-options.ts';
import { chooseSuites } from '../../harness/cli/selection.ts';
import { redactTargetSecrets, SECRET_VARIABLES, splitTarget } from '../../harness/config/env.ts';
import { Redactor } from '../../harness/report/redact.ts';
import { preflight } from '../../harness/config/preflight.ts';
import { planSelection } from '../../harness/cli/run.ts';
import { requirementWindows } from '../../harness/requirements/versions.ts';
import { verdictExit } from '../../harness/report/verdict.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import { runTimeScale } from '../../harness/cli/time-scale.ts';
import type { Run } from './runs.ts';

/** One part: a bundled reference with the catalog names `faults` on, or the target `config` names; the suites it runs, and `run --grep`. */
export type BatchEntry = { name: string; suites: readonly string[]; grep?: string } & ({ faults: string[] } | { config: PartialConfig });

/**
 * A part given as `run`'s own arguments (its target flags, --suites, --grep)
 * and its client secret, read by run's own table of options.
 */
export function entryFromArgs(name: string, args: string[], clientSecret: string): BatchEntry {
  const v = parseOptions('run', RUN_HELP, args, RUN_OPTIONS, {});
  if (!v) throw new Error(`run ${args.join(' ')}: no run`);
  return { name, suites: chooseSuites(v.suites), ...(v.grep ? { grep: v.grep } : {}), config: { ...fromFlags(v), clientSecret } };
}

const HOST = fileURLToPath(new URL('./reference-host.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** The webhook api-key every bundled part's reference is given: a batch's parts share the secrets Playwright's environment carries. */
const BATCH_KEY = 'batch-webhook-key-0123456789';

export interface BatchOptions {
  /** The time scale of the bundled parts (a `config` part names its own). */
  timeScale?: number;
  /** Playwright workers of one invocation, in all. */
  workers: number;
  /** Parts per invocation: a part's share of the run context is up to about 8 KB, and one variable holds 120 KB. */
  perBatch: number;
  /** Invocations at once. */
  atOnce: number;
}

/**
 * Runs the entries in invocations of `perBatch` parts, `atOnce` of them at a
 * time, the longest (most suites) first and dealt out in turn so that the
 * invocations end close together. Each entry's run comes as runs.ts's Run:
 * its exit status the verdict's (as `run` exits), its output its own not
 * passed checks. An invocation that could not be made fails each of its
 * entries with the reason.
 */
export function runBatches(entries: readonly BatchEntry[], o: BatchOptions): Map<string, Promise<Run>> {
  const sorted = [...entries].sort((a, b) => b.suites.length - a.suites.length);
  const count = Math.max(Math.min(o.atOnce, sorted.length), Math.ceil(sorted.length / o.perBatch));
  const batches = Array.from({ length: count }, (_, i) => sorted.filter((_, j) => j % count === i));
  const out = new Map<string, Promise<Run>>();
  const resolvers = new Map<string, (r: Run) => void>();
  for (const e of sorted) out.set(e.name, new Promise<Run>(resolve => resolvers.set(e.name, resolve)));
  let next = 0;
  for (let lane = 0; lane < o.atOnce; lane++) {
    void (async () => {
      for (let b = next++; b < batches.length; b = next++) {
        const batch = batches[b]!;
        try {
          const runs = await runBatch(batch, o);
          batch.forEach((e, i) => resolvers.get(e.name)!(runs[i]!));
        } catch (e) {
          const why = `its batch could not be made: ${(e as Error)?.message ?? e}`;
          for (const x of batch) resolvers.get(x.name)!({ cli: { code: 2, stdout: '', stderr: why }, dir: '' });
        }
      }
    })();
  }
  return out;
}

/**
 * `run`'s pre-flight of a part, tried up to three times, 2 s apart, while a
 * call finds no answer within its 3 s: the parts' references (or the test's
 * own proxies) may still be starting on a machine loaded by other test files
 * (a catalog batch's token endpoint and every mutations batch missed the 3 s
 * in clean-clone runs at load 11). Any other error, and the third miss, is
 * the batch's.
 */
async function preflightPatiently(cfg: ReturnType<typeof resolveTarget>): Promise<Awaited<ReturnType<typeof preflight>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await preflight(cfg, redactTargetSecrets(new Redactor(), cfg));
    } catch (e) {
      if (attempt === 3 || !/gave no complete answer within/.test((e as Error)?.message ?? '')) throw e;
      await new Promise(resolve => setTimeout(resolve, 2_000));
    }
  }
}

/** The entries in one Playwright invocation. */
async function runBatch(entries: readonly BatchEntry[], o: Pick<BatchOptions, 'timeScale' | 'workers'>): Promise<Run[]> {
  const bundled = entries.filter(e => 'faults' in e);
  const host = bundled.length ? await hostReferences(bundled.map(e => e.faults), o.timeScale ?? 1) : undefined;
  const scratch = makeScratch();
  try {
    const runs: TargetRunRequest[] = [];
    let secrets: Record<string, string> | undefined;
    for (const e of entries) {
      const source: PartialConfig = 'faults' in e ? { ...host!.configs[bundled.indexOf(e)]!, apiVersion: LATEST_API_VERSION } : e.config;
      let cfg = resolveTarget(source);
      const found = await preflightPatiently(cfg);
      cfg = { ...cfg, ...runTimeScale(cfg, found.controlTimeScale, undefined).settings };
      const { selected, header } = await planSelection(cfg, { suites: e.suites, ...(e.grep ? { grep: e.grep } : {}) }, { allowIncomplete: false });
      const target = splitTarget(cfg);
      if (secrets && JSON.stringify(secrets) !== JSON.stringify(target.env)) throw new Error(`${e.name}: the parts of a batch must share their secrets`);
      secrets = target.env;
      runs.push({ name: e.name, checks: selected.checks, notSelected: selected.notSelected, target: target.open,
        report: { reportDir: mkdtempSync(join(tmpdir(), 'pis-run-')), header, stdout: 'line', secretVariables: [...SECRET_VARIABLES],
          resultsOnly: true } });
    }
    const out = await runPlaywright({ runs, scratch: scratch.dir, secrets: secrets ?? {}, requirementWindows: [...requirementWindows()],
      playwright: { workers: o.workers, maxWaitS: 60, globalTimeoutS: 0 }, capture: true });
    return runs.map((r, i): Run => {
      let results: RunResults | undefined;
      try { results = JSON.parse(readFileSync(join(r.report.reportDir, 'results.json'), 'utf8')) as RunResults; } catch { /* asserted by the caller */ }
      const status = out.statuses[i];
      const code = results && status && !status.interrupted ? verdictExit(results.summary.verdict) : 2;
      // Its own lines for a failure message: the batch's output holds every part's, interleaved.
      const stdout = results
        ? [...results.checks.filter(c => c.status !== 'passed').map(c => `${c.status} ${c.id}: ${c.message ?? ''}`),
          `verdict: ${results.summary.verdict}`].join('\n')
        : `no results.json; the batch's output ends:\n${(out.output ?? '').slice(-4000)}`;
      return { cli: { code, stdout, stderr: status?.errors.join('\n') ?? `no status from ${r.name}'s reporter` }, results, dir: r.report.reportDir };
    });
  } finally {
    scratch.remove();
    await host?.close();
  }
}

/** The bundled references of a batch, started in a process of their own (reference-host.ts), each as `run --fault` starts one. */
async function hostReferences(faults: string[][], timeScale: number): Promise<{ configs: PartialConfig[]; close(): Promise<void> }> {
  const asked = faults.map(f => ({ faults: f, timeScale, webhookApiKey: BATCH_KEY, apiVersion: LATEST_API_VERSION }));
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Set by `node --test` in its children; the host runs no test.
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, ['--import', TSX, HOST, JSON.stringify(asked)], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const ended = new Promise<void>(resolve => child.on('close', () => resolve()));
  let text = '';
  const configs = await new Promise<PartialConfig[]>((resolve, reject) => {
    child.stdout.on('data', d => {
      text += d;
      if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))) as PartialConfig[]);
    });
    child.on('error', reject);
    child.on('close', code => reject(new Error(`the references' host ended (${code}) before it gave their URLs`)));
  });
  return { configs, close: async () => { child.stdin.end(); await ended; } };
}
