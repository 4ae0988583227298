// The options of a command as one table, read by one parser: each entry has
// its flag, kind of value, environment variable, default, help and check.
// Every command is parsed from its table (Command.options), and its --help
// rows and its section of docs/options.md (scripts/options-doc.ts) are written
// from the same table, so a command cannot take a flag its help and the page
// do not list. `run`'s table holds its target options (harness/config/options.ts,
// read by the target config) beside its own (run-options.ts).
import type { ErrorCode } from '../errors.ts';
import { HarnessError } from '../errors.ts';
import { parseNumber, PORT, type NumberBounds } from '../flag-values.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import { reporterFlag, STDOUT_REPORTERS } from '../report/terminal.ts';
import { parseFlags } from './parse-flags.ts';

type Code = Extract<ErrorCode, 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG'>;

export interface CommandOption {
  /** The flag without its dashes. */
  name: string;
  /** `value`: the flag takes a value; `switch`: it takes none; `list`: a value, and the flag may repeat. */
  kind: 'value' | 'switch' | 'list';
  /** Its value in --help: `--port P`. */
  arg?: string;
  /** The variable read when the flag is not given. */
  env?: string;
  /** The value when neither the flag nor the variable gives one. */
  default?: unknown;
  /** The default in words, where it is not a plain value. */
  shownDefault?: string;
  /** The sentence when neither the flag nor the variable gives it (exit 2, PIS_MISSING_OPTION). */
  required?: string;
  /** What it is, in one line: --help and docs/options.md say it. */
  help: string;
  /** Further lines of --help (docs/options.md joins them). */
  more?: string[];
  /** Checks the text of the flag (`what` is `--name`) or the variable (`what` is its name) and gives the value; else a sentence, exit 2. */
  read?(text: string, what: string, code: Code): unknown;
}

type ValueOf<O> = O extends { read(...args: never[]): infer T } ? T
  : O extends { kind: 'switch' } ? boolean : O extends { kind: 'list' } ? string[] : string;

/** The values of a table's options by name: a switch or a list is always there, an option with a default or required too. */
export type OptionValues<T extends readonly CommandOption[]> = {
  [O in T[number] as O['name']]: O extends { kind: 'switch' | 'list' } | { default: unknown } | { required: string } ? ValueOf<O> : ValueOf<O> | undefined
};

/** A value that must not be empty: an empty one is as if missing (the sentence of `required`). */
export const nonEmpty = (missing: string) => (text: string): string => {
  if (!text) throw new HarnessError('PIS_MISSING_OPTION', missing);
  return text;
};

/** A number option's check: within bounds, else the sentence of harness/flag-values.ts. */
export const numberIn = (bounds: NumberBounds) => (text: string, what: string, code: Code): number => parseNumber(text, what, bounds, code);

/** The default in words, or undefined. */
export function shownDefault(o: CommandOption): string | undefined {
  return o.shownDefault ?? (o.default === undefined ? undefined : String(o.default));
}

/** How a command takes what is not a flag: checked as a whole (a sentence when wrong) before the options are read. */
export type Operands = (operands: string[]) => void;

/**
 * Parses argv by the table (unknown flags and missing values as command.ts
 * words them), checks the operands when the command takes some, then takes
 * each option in the table's order: the flag, else its variable, else its
 * default; `read` checks the text. `--help` and `--version` print and return null.
 */
export function parseCommand<const T extends readonly CommandOption[]>(command: string, help: string, argv: string[], table: T,
  how: { operands?: Operands; env?: NodeJS.ProcessEnv } = {}): { values: OptionValues<T>; operands: string[] } | null {
  const config = Object.fromEntries(table.map(o => [o.name, o.kind === 'switch' ? { type: 'boolean' as const }
    : { type: 'string' as const, ...(o.kind === 'list' ? { multiple: true } : {}) }]));
  const parsed = parseFlags(command, help, argv, config, how.operands !== undefined);
  if (!parsed) return null;
  how.operands?.(parsed.positionals);
  const env = how.env ?? process.env;
  const out: Record<string, unknown> = {};
  for (const o of table) {
    const flag = (parsed.values as Record<string, string | boolean | string[] | undefined>)[o.name];
    const variable = o.env ? env[o.env] || undefined : undefined;
    if (flag !== undefined) out[o.name] = o.read && typeof flag === 'string' ? o.read(flag, `--${o.name}`, 'PIS_BAD_FLAG') : flag;
    else if (variable !== undefined) out[o.name] = o.read ? o.read(variable, o.env!, 'PIS_BAD_CONFIG') : variable;
    else if (o.required) throw new HarnessError('PIS_MISSING_OPTION', o.required);
    else out[o.name] = o.kind === 'switch' ? false : o.kind === 'list' ? [] : o.default;
  }
  return { values: out as OptionValues<T>, operands: parsed.positionals };
}

/** parseCommand for a command that takes flags only. */
export function parseOptions<const T extends readonly CommandOption[]>(command: string, help: string, argv: string[], table: T,
  env: NodeJS.ProcessEnv = process.env): OptionValues<T> | null {
  return parseCommand(command, help, argv, table, { env })?.values ?? null;
}

/** A line of --help cut at spaces to fit 118 columns from column 26. */
function wrapped(line: string, width = 92): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width);
    if (cut <= 0) break;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1);
  }
  return [...out, rest];
}

/** The rows of a command's --help: the flag and its value, the help, its default and variable, its further lines; `-h, --help` last unless `help` is false. */
export function optionsHelp(table: readonly CommandOption[], help = true): string {
  const indent = ' '.repeat(26);
  return [...table.flatMap(o => {
    const def = shownDefault(o);
    const left = `--${o.name}${o.arg ? ` ${o.arg}` : ''}`;
    const notes = [def === undefined ? '' : `default ${def}`, o.env ? `or ${o.env}` : '', o.required ? 'required' : ''].filter(Boolean);
    const [first, ...next] = [`${o.help}${notes.length ? ` (${notes.join('; ')})` : ''}`, ...(o.more ?? [])].flatMap(l => wrapped(l));
    return [`  ${left.padEnd(24)}${first}`, ...next.map(l => `${indent}${l}`)];
  }), ...(help ? [`  ${'-h, --help'.padEnd(24)}this text`] : [])].join('\n');
}

// The options more than one command has, each worded once.

export const REPORTER_OPTION = {
  name: 'reporter', kind: 'value', arg: 'R', default: 'line', read: (text: string) => reporterFlag(text),
  help: `what stdout shows: ${STDOUT_REPORTERS.join(', ')}`, more: [
    'line: a line per check and a recap of the failures at the end;',
    'json: a JSON line per check and a summary line last (lines for a person go to stderr);',
    'github: line plus GitHub Actions annotations and a job summary in $GITHUB_STEP_SUMMARY'],
} as const satisfies CommandOption;

export const REPORT_OPTION = {
  name: 'report', kind: 'value', arg: 'DIR', shownDefault: 'reports/<timestamp>', help: 'where to write the report folder',
  more: ['reports/latest points at the newest folder of reports/'],
} as const satisfies CommandOption;

/** A public key flag of verify and matrix: PEM, repeatable, required with the sentence given. */
export const publicKeyOption = <const R extends string>(required: R) => ({
  name: 'key', kind: 'list', arg: 'PUB', required, help: 'a public key in PEM', more: ['repeat for several signers; any one may have signed'],
} as const satisfies CommandOption);

/** A port flag: a whole number from 0 (a free one) to 65535. */
export const portOption = <const E extends { required?: string; default?: number; shownDefault?: string }>(help: string, extra: E) => ({
  name: 'port', kind: 'value', arg: 'P', help, read: numberIn(PORT), ...extra,
} as const satisfies CommandOption);

/** An http(s) URL flag: else one sentence naming an example. */
export function httpUrl(example: string) {
  return (text: string, what: string, code: Code): string => {
    let u: URL;
    try { u = new URL(text); } catch {
      throw new HarnessError(code, `${what} '${redactUrlUserinfo(text)}' is not a URL: give a full address such as ${example}.`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new HarnessError(code, `${what} must start with http:// or https://, not '${u.protocol}'.`);
    return text;
  };
}
