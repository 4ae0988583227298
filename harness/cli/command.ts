// What every command file in harness/cli/ exports, and the flag parser and
// flag checks they share: every command gets the same sentences for the same
// mistakes.
import { mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from '../errors.ts';
import { reportFolderUsable } from '../report/folder.ts';
import { TOOL } from '../version.ts';
import { nearest } from '../flag-values.ts';
import type { CommandOption } from './option-table.ts';

export interface Command {
  name: string;
  /** Full --help text; its option rows are written from `options` (optionsHelp). */
  help: string;
  /** Every flag it takes, the table its parser reads (option-table.ts): docs/options.md is written from it. */
  options: readonly CommandOption[];
  /** Returns the exit status: 0 conformant/ok, 1 not conformant, 2 could not run. */
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `--port -1` as `--port=-1`: node:util parseArgs reads a value that starts
 * with a dash as a missing value ("argument is ambiguous"), so a negative
 * number would never reach the check that names the flag's bounds.
 */
function joinNegativeNumbers(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!, next = argv[i + 1];
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (name && !name.includes('=') && options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** One sentence that names the fix for a parseArgs error. */
function flagError(command: string, e: Error, names: string[]): HarnessError {
  const see = `see 'pis-conformance ${command} --help' for the accepted flags.`;
  const ambiguous = /^Option '(-[^']+)' argument is ambiguous/.exec(e.message);
  if (ambiguous) {
    const flag = ambiguous[1]!.split(/[ ,]/).pop()!;
    return new HarnessError('PIS_BAD_FLAG', `${flag} needs a value; to give one that starts with a dash, write ${flag}=VALUE (${see.replace(/\.$/, '')}).`);
  }
  const msg = e.message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/s, '');
  // A mistyped flag names the one that exists.
  const unknown = /^Unknown option '--([^'=]+)/.exec(msg)?.[1];
  const near = unknown === undefined ? undefined : nearest(unknown, names);
  if (near) return new HarnessError('PIS_BAD_FLAG', `Unknown option '--${unknown}': did you mean --${near}? (see 'pis-conformance ${command} --help')`);
  return new HarnessError('PIS_BAD_FLAG', `${msg.replace(/\.$/, '')}: ${see}`);
}

/**
 * node:util parseArgs with harness errors: an unknown flag or a missing value
 * becomes one sentence that names the fix (a mistyped flag the nearest real
 * one). `--help` and `--version` print and return null, so a command writes `const a = parseFlags(...); if (!a) return 0;`.
 */
export function parseFlags<O extends Options>(command: string, help: string, argv: string[], options: O, allowPositionals = false) {
  let parsed;
  const all = { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } } as const;
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(argv, all), options: all, allowPositionals, strict: true });
  } catch (e) {
    throw flagError(command, e as Error, Object.keys(all));
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help || values.version) {
    process.stdout.write(values.help ? help.trimEnd() + '\n' : `${TOOL.name} ${TOOL.version}\n`);
    return null;
  }
  return parsed;
}

/**
 * Checks at start that the report folder can be written, so a run does not
 * find out only after the whole session. Creates nothing that stays: a folder
 * that does not exist yet is probed in its nearest existing parent.
 */
export function reportDirFlag(value: string | undefined, fallback: () => string): string {
  const dir = resolve(value ?? fallback());
  let probe = dir;
  for (;;) {
    let isDir: boolean | undefined;
    try { isDir = statSync(probe).isDirectory(); } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a file further up the path, found on the way up.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw reportError(dir, `${probe} cannot be read (${code})`);
    }
    if (isDir === false) throw reportError(dir, `${probe} is a file, not a folder`);
    if (isDir) break;
    if (dirname(probe) === probe) throw reportError(dir, 'no part of the path exists');
    probe = dirname(probe);
  }
  try {
    rmdirSync(mkdtempSync(join(probe, '.pis-write-test-')));
  } catch (e) {
    throw reportError(dir, `${probe} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // A run clears the report files of a folder it reuses; a folder of other files it leaves alone.
  if (!reportFolderUsable(dir))
    throw new HarnessError('PIS_BAD_FLAG', `The report folder ${dir} holds files but no report (no results.jsonl or plan.json): ` +
      'give --report a new or empty folder, or one a run wrote.');
  return dir;
}

function reportError(dir: string, why: string): HarnessError {
  return new HarnessError('PIS_BAD_FLAG', `The report folder ${dir} cannot be made: ${why}; give --report a folder you can write to.`);
}
