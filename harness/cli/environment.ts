// Every environment variable a user may set, in one list: the main --help
// prints it, the README repeats it (scripts/options-doc.ts writes that table),
// and a test fails when the harness reads a PIS_ variable that is neither here
// nor in INTERNAL (set by `run` for its own child processes, never by a user).
// The target's variables come from the options table (harness/config/options.ts).
import { targetVariables } from '../config/options.ts';

export interface EnvVar { name: string; commands: string; meaning: string }

export const ENVIRONMENT: readonly EnvVar[] = [
  ...targetVariables(),
  { name: 'PIS_SINK_TLS', commands: 'run', meaning: "'self-signed': the webhook sink serves HTTPS with a certificate made on the spot" },
  { name: 'PIS_SINK_TLS_CERT', commands: 'run', meaning: "PEM file of the webhook sink's HTTPS certificate (with PIS_SINK_TLS_KEY)" },
  { name: 'PIS_SINK_TLS_KEY', commands: 'run', meaning: "PEM file of the webhook sink's HTTPS key (with PIS_SINK_TLS_CERT)" },
  { name: 'PIS_GLOBAL_TIMEOUT_S', commands: 'run', meaning: 'stop the whole run after S seconds (default: no limit)' },
  { name: 'NODE_EXTRA_CA_CERTS', commands: 'run',
    meaning: "PEM file of a certificate authority to trust besides the system's (Node.js's own variable): a test target's own certificate" },
  { name: 'PIS_DEBUG', commands: 'all',
    meaning: 'any value: print the stack of an error besides its sentence (the sources run through tsx, so it names their lines)' },
  { name: 'PIS_NO_COMPILE', commands: 'all',
    meaning: 'any value: run the TypeScript sources through tsx, not the compiled copy kept in node_modules/.cache/pis-conformance/' },
  { name: 'NO_COLOR', commands: 'all', meaning: 'any non-empty value: no colour on the terminal' },
  { name: 'FORCE_COLOR', commands: 'all', meaning: "'0' or 'false': no colour; any other value: colour even through a pipe (wins over NO_COLOR)" },
];

/**
 * Variables not for users: the run context `run` sets for Playwright and its
 * workers (suites/support/context.ts, the only one), and the test switch.
 */
export const INTERNAL: readonly string[] = ['PIS_RUN_CONTEXT', 'PIS_TEST'];

/** Placeholders of the report's curl lines: the user sets them to repeat a request; the harness reads none. */
export const PLACEHOLDERS: readonly string[] = ['PIS_ACCESS_TOKEN', 'PIS_REFRESH_TOKEN', 'PIS_SECRET'];

/** The Environment section of a help text. */
export function environmentHelp(vars: readonly EnvVar[] = ENVIRONMENT): string {
  const width = Math.max(...vars.map(v => v.name.length)) + 2;
  return ['Environment:', ...vars.map(v => `  ${v.name.padEnd(width)}${v.meaning}${v.commands === 'all' ? '' : ` [${v.commands}]`}`)].join('\n');
}
