// What every command file in harness/cli/ exports, and the flag parser they share.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from '../errors.ts';

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
 * becomes one sentence that names the fix. `--help` prints the help and
 * returns null, so a command writes `const a = parseFlags(...); if (!a) return 0;`.
 */
export function parseFlags<O extends Options>(command: string, help: string, argv: string[], options: O, allowPositionals = false) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (e) {
    const msg = (e as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new HarnessError('PIS_BAD_FLAG', `${msg.replace(/\.$/, '')}: see 'pis-conformance ${command} --help' for the accepted flags.`);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    process.stdout.write(help.trimEnd() + '\n');
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
