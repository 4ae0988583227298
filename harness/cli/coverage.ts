// `pis-conformance coverage`: the requirement table. Every testable statement
// of the spec and every decision of the profile (contracts/requirements.yaml),
// the checks that enforce it, the proofs that those checks can fail
// (contracts/proofs.yaml), and its status; as text, JSON or an HTML page.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOG } from '../../suites/catalog/index.ts';
import { coverage } from '../requirements/coverage.ts';
import { loadProofs, loadRequirements } from '../requirements/load.ts';
import { pageHtml, tableText } from '../requirements/render.ts';
import { linkProblems, listProblems } from '../requirements/rules.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseOptions, type CommandOption } from './option-table.ts';
import { API_VERSIONS, parseApiVersion } from '../contracts/api-versions.ts';
import { checkExistsAt, requirementsAtVersion } from '../requirements/versions.ts';

/** Every option of coverage: its flags, --help rows and docs/options.md come from here. */
const OPTIONS = [
  { name: 'json', kind: 'switch', help: 'print the table as JSON instead of text' },
  { name: 'out', kind: 'value', arg: 'DIR', help: 'also write DIR/coverage.html and DIR/coverage.json' },
  { name: 'api-version', kind: 'value', arg: 'V', shownDefault: 'every version', read: (text: string, what: string) => parseApiVersion(text, what),
    help: "the table at an API version of the spec's change history", more: [
      `${API_VERSIONS.join(', ')}: the requirements that exist at V and the checks that run at V`] },
] as const satisfies readonly CommandOption[];

const HELP = `Usage: pis-conformance coverage [options]

Prints the requirement table: every testable statement of the spec and every
decision of the profile, the checks that enforce it, the proofs that each check
can fail (a fault of the reference, a mutation, a hand-made record, a faulty
receiver), and its status: covered, partial (what is missing is named), not
covered yet, or untestable (with the reason). Ends with the figures.

Options:
${optionsHelp(OPTIONS)}

Exit status: 0 printed, 2 the requirement or proof file is invalid (the message names the entry).
`;

export const command: Command = {
  name: 'coverage',
  help: HELP,
  options: OPTIONS,
  async run(argv) {
    const v = parseOptions('coverage', HELP, argv, OPTIONS);
    if (!v) return 0;
    const reqs = loadRequirements();
    const version = v['api-version'];
    const cov = version
      ? coverage(requirementsAtVersion(reqs, version, CATALOG), loadProofs(), CATALOG.filter(c => checkExistsAt(c, version)), version)
      : coverage(reqs, loadProofs(), CATALOG);
    const generatedAt = new Date().toISOString();
    const json = JSON.stringify({ generatedAt, ...(version ? { apiVersion: version } : {}), figures: cov.figures, requirements: cov.rows }, null, 2) + '\n';
    const heading = version
      ? `API version ${version}: ${cov.figures.requirements} of ${reqs.length} requirements exist, ${cov.figures.checks} of ${CATALOG.length} checks run.\n\n`
      : '';
    process.stdout.write(v.json ? json : heading + tableText(cov) + '\n');
    if (v.out) {
      const dir = resolve(v.out);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'coverage.json'), json);
      writeFileSync(join(dir, 'coverage.html'), pageHtml(cov, generatedAt));
      process.stderr.write(`Wrote ${join(dir, 'coverage.html')} and coverage.json.\n`);
    }
    // The tests fail on these; here they are shown so a reader knows the table is not whole.
    const problems = [...listProblems(reqs), ...linkProblems(reqs, CATALOG)];
    for (const p of problems.slice(0, 10)) process.stderr.write(`Note: ${p}.\n`);
    if (problems.length > 10) process.stderr.write(`Note: and ${problems.length - 10} more.\n`);
    return 0;
  },
};
