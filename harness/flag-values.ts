// Values of command-line flags that more than the command line reads: the
// target's flags (harness/target/flags.ts) and every command's own. Below
// harness/cli and harness/target in the layer order (docs/architecture.md).
import { HarnessError } from './errors.ts';

/** Parses a number flag; throws a harness error naming the flag and its bounds when it is not one within them. */
export function numberFlag(name: string, value: string | undefined, fallback: number, opts: { min?: number; max?: number; integer?: boolean } = {}): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  const ok = value.trim() !== '' && Number.isFinite(n) && (!opts.integer || Number.isInteger(n))
    && (opts.min === undefined || n >= opts.min) && (opts.max === undefined || n <= opts.max);
  if (ok) return n;
  const kind = opts.integer ? 'a whole number' : 'a number';
  const bounds = opts.min !== undefined && opts.max !== undefined ? ` from ${opts.min} to ${opts.max}`
    : opts.min !== undefined ? ` of at least ${opts.min}` : opts.max !== undefined ? ` of at most ${opts.max}` : '';
  throw new HarnessError('PIS_BAD_FLAG', `--${name} must be ${kind}${bounds}, not '${value}'.`);
}

/** The bounds of a TCP port flag (0: a free one). */
export const PORT = { min: 0, max: 65535, integer: true } as const;
