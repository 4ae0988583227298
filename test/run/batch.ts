// Several proof runs in one Playwright invocation: each catalog entry on a
// bundled reference of its own (as `run --fault NAME` starts one), each a
// Playwright project with its own selection, workers and report folder, so
// that the runner starts once for all of them instead of once per entry. Each
// part is planned by the code `run` plans with (preflight, planSelection) and
// judged by the same verdict; test/run/catalog.test.ts holds a batch's part
// equal to `run`'s own run of the clean reference, check by check.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResults } from '../../harness/results/model.ts';
import { startBundled, type Bundled } from '../../harness/runner/bundled.ts';
import { makeScratch, runPlaywright, type TargetRunRequest } from '../../harness/runner/playwright.ts';
import { resolveTarget } from '../../harness/config/config.ts';
import { redactTargetSecrets, SECRET_VARIABLES, splitTarget } from '../../harness/config/env.ts';
import { Redactor } from '../../harness/report/redact.ts';
import { preflight } from '../../harness/config/preflight.ts';
import { planSelection } from '../../harness/cli/run.ts';
import { requirementWindows } from '../../harness/requirements/versions.ts';
import { verdictExit } from '../../harness/report/verdict.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import type { Run } from './runs.ts';

/** One part: the catalog names switched on in its reference, the suites it runs. */
export interface BatchEntry { name: string; faults: string[]; suites: string[] }

/** The webhook api-key every part's reference is given: a batch's parts share the secrets Playwright's environment carries. */
const BATCH_KEY = 'batch-webhook-key-0123456789';

/**
 * Runs the entries at `timeScale` in one Playwright invocation with up to
 * `workers` workers in all, and returns each part's run as runs.ts's Run:
 * its exit status the verdict's (as `run` exits), its output the batch's.
 */
export async function runBatch(entries: readonly BatchEntry[], timeScale: number, workers: number): Promise<Run[]> {
  const refs: Bundled[] = [];
  const scratch = makeScratch();
  try {
    const runs: TargetRunRequest[] = [];
    let secrets: Record<string, string> | undefined;
    for (const e of entries) {
      const ref = await startBundled({ timeScale, faults: e.faults, webhookApiKey: BATCH_KEY, apiVersion: LATEST_API_VERSION });
      refs.push(ref);
      const cfg = resolveTarget({ ...ref.config, apiVersion: LATEST_API_VERSION });
      await preflight(cfg, redactTargetSecrets(new Redactor(), cfg));
      const { selected, header } = await planSelection(cfg, { suites: e.suites }, { allowIncomplete: false });
      const target = splitTarget(cfg);
      if (secrets && JSON.stringify(secrets) !== JSON.stringify(target.env)) throw new Error(`${e.name}: the parts of a batch must share their secrets`);
      secrets = target.env;
      runs.push({ name: e.name, checks: selected.checks, notSelected: selected.notSelected, target: target.open,
        report: { reportDir: mkdtempSync(join(tmpdir(), 'pis-run-')), header, stdout: 'line', secretVariables: [...SECRET_VARIABLES] } });
    }
    const out = await runPlaywright({ runs, scratch: scratch.dir, secrets: secrets ?? {}, requirementWindows: [...requirementWindows()],
      playwright: { workers, maxWaitS: 60, globalTimeoutS: 0 }, capture: true });
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
    await Promise.all(refs.map(r => r.close()));
  }
}
