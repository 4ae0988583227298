// What every command file in harness/cli/ exports, and the flag parser they share.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from '../errors.ts';
import { TOOL } from '../version.ts';
import { nearest } from './suggest.ts';

export interface Command {
  name: string;
  /** Full --help text. */
  help: string;
  /** Returns the exit status: 0 conformant/ok, 1 not conformant, 2 could not run. */
  run(argv: string[]): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs with harness errors: an unknown flag or a missing value
 * becomes one sentence that names the fix (a mistyped flag the nearest real
 * one). `--help` and `--version` print and return null, so a command writes `const a = parseFlags(...); if (!a) return 0;`.
 */
export function parseFlags<O extends Options>(command: string, help: string, argv: string[], options: O, allowPositionals = false) {
  let parsed;
  const all = { ...options, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } } as const;
  try {
    parsed = parseArgs({ args: argv, options: all, allowPositionals, strict: true });
  } catch (e) {
    const msg = (e as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    // A mistyped flag names the one that exists.
    const unknown = /^Unknown option '--([^'=]+)/.exec(msg)?.[1];
    const near = unknown === undefined ? undefined : nearest(unknown, Object.keys(all));
    throw new HarnessError('PIS_BAD_FLAG', near ? `Unknown option '--${unknown}': did you mean --${near}? (see 'pis-conformance ${command} --help')`
      : `${msg.replace(/\.$/, '')}: see 'pis-conformance ${command} --help' for the accepted flags.`);
  }
  const values = parsed.values as Record<string, unknown>;
  if (values.help || values.version) {
    process.stdout.write(values.help ? help.trimEnd() + '\n' : `${TOOL.name} ${TOOL.version}\n`);
    return null;
  }
  return parsed;
}

/** Parses a number flag; throws a harness error naming the flag when it is not one. */
export function numberFlag(name: string, value: string | undefined, fallback: number, opts: { min?: number; integer?: boolean } = {}): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || (opts.integer && !Number.isInteger(n)) || (opts.min !== undefined && n < opts.min))
    throw new HarnessError('PIS_BAD_FLAG', `--${name} must be ${opts.integer ? 'a whole number' : 'a number'}${opts.min !== undefined ? ` of at least ${opts.min}` : ''}, not '${value}'.`);
  return n;
}
