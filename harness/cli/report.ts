// `report DIR`: rebuilds index.html (and junit.xml, results.json) of a run from
// its results.json, or from results.jsonl when the run was killed before the end.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { summarize, type CheckResult, type RunResults } from '../report/model.ts';
import { writeReportFiles } from '../report/writer.ts';
import { TOOL } from '../version.ts';
import { parseFlags, type Command } from './command.ts';

const help = `Usage: pis-conformance report DIR

Rebuilds index.html and junit.xml of a report folder from its results.json, or
from results.jsonl (one check per line) when the run was killed before it wrote
results.json. Exit status 0 when rebuilt, 2 when the folder holds neither.`;

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
  const now = new Date().toISOString();
  return { tool: { ...TOOL }, command: 'run', target: {}, timeScale: 1, startedAt: now, finishedAt: now, summary: summarize(checks), checks };
}

export const command: Command = {
  name: 'report',
  help,
  async run(argv) {
    const parsed = parseFlags('report', help, argv, {}, true);
    if (!parsed) return 0;
    const dir = parsed.positionals[0];
    if (!dir || parsed.positionals.length > 1)
      throw new HarnessError('PIS_BAD_FLAG', 'give exactly one report folder, e.g. pis-conformance report reports/latest.');
    let results: RunResults;
    if (existsSync(join(dir, 'results.json'))) {
      try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch (e) {
        throw new HarnessError('PIS_BAD_INPUT', `${join(dir, 'results.json')} is not valid JSON (${(e as Error).message}): delete it to rebuild from results.jsonl.`);
      }
    } else if (existsSync(join(dir, 'results.jsonl'))) {
      results = fromJsonl(dir);
    } else {
      throw new HarnessError('PIS_BAD_INPUT', `${dir} holds neither results.json nor results.jsonl: give the folder a run wrote its report into.`);
    }
    writeReportFiles(dir, results);
    process.stdout.write(`rebuilt ${join(dir, 'index.html')} (${results.checks.length} checks, ${results.summary.conformant ? 'conformant' : 'not conformant'})\n`);
    return 0;
  },
};
