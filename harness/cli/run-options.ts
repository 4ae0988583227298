// Every flag of `run` in one table of option-table.ts's shape, and its --help
// written from it: the target options (harness/config/options.ts, whose values
// the target config reads, flags over the environment over the --config file,
// so the table takes them as given) and run's own, what to run, the gates
// (run-gates.ts) and the output.
import { BUNDLED_TIME_SCALE } from '../runner/bundled.ts';
import { SUITES } from '../config/config.ts';
import { configOnlyHelp, TARGET_OPTIONS, targetHelp } from '../config/options.ts';
import { numberIn, optionsHelp, REPORT_OPTION, REPORTER_OPTION, type CommandOption } from './option-table.ts';
import { GATE_OPTIONS } from './run-gates.ts';

/** The target options that have a flag: their text goes as given to fromFlags, which reads it by the option's kind. */
const TARGET_FLAG_OPTIONS: readonly CommandOption[] = TARGET_OPTIONS.filter(o => o.flag).map(o => ({
  name: o.name, kind: o.kind.flag === 'boolean' ? 'switch' : 'value', ...(o.arg ? { arg: o.arg } : {}), help: o.help, ...(o.more ? { more: o.more } : {}),
}));

/**
 * One Playwright worker per suite that waits on the spec's clock (token,
 * session) or calls the API (data, payments); the webhook suite's checks only
 * read the drive `run` makes, and get the first worker another suite leaves.
 * Each worker costs most of a second of CPU to start, and they all start at once.
 */
const DEFAULT_WORKERS = 4;

/** What to run: the selection, where the report goes, and what stops before a run. */
const SELECT_OPTIONS = [
  { name: 'suites', kind: 'value', arg: 'LIST', shownDefault: 'all that exist', help: `comma list of ${SUITES.join(',')}` },
  { name: 'grep', kind: 'value', arg: 'PATTERN', help: 'only the checks whose id, title, requirement id or suite file matches it', more: [
    "a regular expression read as Playwright's --grep reads it, any letter case, or /re/flags;",
    'e.g. token.refresh.renews-tokens, R6.5-min-delay'] },
  { name: 'grep-invert', kind: 'value', arg: 'PATTERN', help: 'leave out the checks it matches (read as --grep is)' },
  { name: 'config', kind: 'value', arg: 'FILE', help: 'YAML file of target options: the keys above' },
  REPORT_OPTION,
  { name: 'workers', kind: 'value', arg: 'N', default: DEFAULT_WORKERS, read: numberIn({ min: 1, integer: true }), help: 'suites run side by side',
    more: ["the webhook suite reads what run's own drive found, on the first worker free"] },
  { name: 'fault', kind: 'list', arg: 'LIST', help: 'bundled reference only: switch on faults or quirks of its catalog, to see checks fail' },
  { name: 'lifetimes', kind: 'value', arg: 'A,R[,C]', shownDefault: '25,50,50',
    help: 'bundled reference only: access token, refresh token and consent lifetimes in spec seconds',
    more: ['longer on a clock faster than 0.08: every expiry is seen'] },
  { name: 'allow-incomplete', kind: 'switch', help: 'exit 0 when no must check failed even though some could not run' },
  { name: 'list', kind: 'switch', help: 'print the checks the selection would run (level, spec, requirements) and stop' },
  { name: 'describe', kind: 'switch', help: 'print the target description in force (the config\'s description: over docs/profile.md)',
    more: ['as YAML and stop'] },
] as const satisfies readonly CommandOption[];

/** Every flag run takes, in the order of its --help. */
export const RUN_OPTIONS = [...TARGET_FLAG_OPTIONS, ...SELECT_OPTIONS, ...GATE_OPTIONS, REPORTER_OPTION] as const;

export const RUN_HELP = `Usage: pis-conformance run [options]

Runs the conformance suites against a target and writes a report folder.
With no target options it starts the bundled reference implementation on free
loopback ports (time scale ${BUNDLED_TIME_SCALE} unless --time-scale is given) and runs against it.

Target (a flag, the environment variable at the right, or a key of the --config file;
flags win over the environment, the environment over the file):
${targetHelp()}

Keys of the --config file only (kebab-case or camelCase; contracts/target-config.yaml is the file's schema):
${configOnlyHelp()}
  suites: LIST            the same as --suites

What to run:
${optionsHelp(SELECT_OPTIONS, false)}

Certificate and CI gates (docs/report.md):
${optionsHelp(GATE_OPTIONS, false)}

Output:
${optionsHelp([REPORTER_OPTION])}

Exit status: 0 conformant, 1 not conformant or incomplete (some must checks could not run),
2 the run could not be made, selected no check, or was interrupted. With --baseline a failed must check
that also failed in the baseline does not count; declared deviations never change the status.
`;
