// `report DIR`: rebuilds index.html (and junit.xml, results.json) of a run from
// its results.json, or from results.jsonl when the run was killed before the
// end. The verdict is computed again from the checks, never read from the file.
// A folder without results.json is a run that did not finish: Interrupted, with
// the checks plan.json names that have no result listed as not run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { assembleResults, PLAN_FILE, type PlanFile } from '../report/assemble.ts';
import type { CheckResult, RunResults } from '../results/model.ts';
import { verdictLines } from '../report/verdict.ts';
import { writeReportFiles } from '../report/writer.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseCommand, type CommandOption } from './option-table.ts';
import { checkedResults } from '../attest/results-file.ts';

/** report takes no option but --help and --version. */
const OPTIONS = [] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance report DIR

Rebuilds index.html and junit.xml of a report folder from its results.json, or
from results.jsonl (one check per line) and plan.json when the run was killed
before it wrote results.json; such a run's verdict is Interrupted, and the
selected checks without a result are listed as not run.

Options:
${optionsHelp(OPTIONS)}

Exit status 0 when rebuilt, 2 when the folder holds neither.`;

/** The results with their verdict computed again, refused unless they have the shape of contracts/results.yaml. */
function checked(dir: string, r: RunResults): RunResults {
  return checkedResults(join(dir, existsSync(join(dir, 'results.json')) ? 'results.json' : 'results.jsonl'), r);
}

function readPlan(dir: string): PlanFile | undefined {
  const file = join(dir, PLAN_FILE);
  if (!existsSync(file)) return undefined;
  try { return JSON.parse(readFileSync(file, 'utf8')) as PlanFile; } catch {
    process.stderr.write(`report: ${file} is not JSON; the checks that did not finish cannot be named.\n`);
    return undefined;
  }
}

function fromJsonl(dir: string): RunResults {
  const file = join(dir, 'results.jsonl');
  const checks: CheckResult[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try { checks.push(JSON.parse(line) as CheckResult); } catch {
      // The last line of a killed run may be cut short: keep what is whole.
      process.stderr.write(`report: skipped line ${i + 1} of ${file}: not whole JSON (the run was probably killed while writing it).\n`);
    }
  });
  const plan = readPlan(dir);
  if (!plan) process.stderr.write(`report: ${dir} has no ${PLAN_FILE}, so the checks that did not finish cannot be named.\n`);
  const now = new Date().toISOString();
  return assembleResults({
    header: plan ?? { command: 'run', target: {}, timeScale: 1 }, plan, checks,
    startedAt: plan?.startedAt ?? now, finishedAt: now, interrupted: true,
  });
}

export const command: Command = {
  name: 'report',
  help,
  options: OPTIONS,
  async run(argv) {
    const parsed = parseCommand('report', help, argv, OPTIONS, { operands: dirs => {
      if (dirs.length !== 1) throw new HarnessError('PIS_BAD_FLAG', 'give exactly one report folder, e.g. pis-conformance report reports/latest.');
    } });
    if (!parsed) return 0;
    const dir = parsed.operands[0]!;
    let results: RunResults;
    if (existsSync(join(dir, 'results.json'))) {
      try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch (e) {
        throw new HarnessError('PIS_BAD_INPUT',
          `${join(dir, 'results.json')} is not valid JSON (${(e as Error).message}): delete it to rebuild from results.jsonl.`);
      }
    } else if (existsSync(join(dir, 'results.jsonl'))) {
      results = fromJsonl(dir);
    } else {
      throw new HarnessError('PIS_BAD_INPUT', `${dir} holds neither results.json nor results.jsonl: give the folder a run wrote its report into.`);
    }
    results = checked(dir, results);
    const failed = writeReportFiles(dir, results);
    process.stdout.write(`rebuilt ${join(dir, 'index.html')} (${results.checks.length} checks)\n${verdictLines(results.summary, results.checks).join('\n')}\n`);
    return failed.length ? 2 : 0;
  },
};
