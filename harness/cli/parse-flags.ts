// node:util parseArgs with one sentence for every mistake: the low-level
// parser under option-table.ts, which alone calls it (every command is parsed
// from its table). --help and --version print here.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from '../errors.ts';
import { TOOL } from '../version.ts';
import { nearest } from '../flag-values.ts';

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
