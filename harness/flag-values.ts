// Values and names of command-line flags and config keys that more than the
// command line reads: the target's options (harness/config/options.ts) and
// every command's own. Below harness/cli and harness/config in the layer order
// (docs/architecture.md).
import { HarnessError } from './errors.ts';

/** What a number must be: `above` is an exclusive lower bound (0: positive). */
export interface NumberBounds { min?: number; above?: number; max?: number; integer?: boolean }

/** The bounds in words: "a positive number", "a whole number from 0 to 65535", "a number of at least 0". */
export function describeNumber(b: NumberBounds): string {
  const kind = b.integer ? 'a whole number' : 'a number';
  if (b.above === 0 && b.max === undefined) return `a positive ${kind.slice(2)}`;
  const low = b.min ?? b.above;
  const bounds = b.min !== undefined && b.max !== undefined ? ` from ${b.min} to ${b.max}`
    : low !== undefined ? ` ${b.min !== undefined ? 'of at least' : 'above'} ${low}${b.max !== undefined ? ` and at most ${b.max}` : ''}`
      : b.max !== undefined ? ` of at most ${b.max}` : '';
  return kind + bounds;
}

/** A number within its bounds, from the text of a flag or variable (or a number of a config file); else one sentence naming `what`. */
export function parseNumber(value: string | number, what: string, b: NumberBounds, code: 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG' = 'PIS_BAD_FLAG'): number {
  const n = Number(value);
  const ok = String(value).trim() !== '' && Number.isFinite(n) && (!b.integer || Number.isInteger(n))
    && (b.min === undefined || n >= b.min) && (b.above === undefined || n > b.above) && (b.max === undefined || n <= b.max);
  if (ok) return n;
  throw new HarnessError(code, `${what} must be ${describeNumber(b)}, not '${value}'.`);
}

/** Parses a number flag; throws a harness error naming the flag and its bounds when it is not one within them. */
export function numberFlag(name: string, value: string | undefined, fallback: number, opts: NumberBounds = {}): number {
  return value === undefined ? fallback : parseNumber(value, `--${name}`, opts);
}

/** The bounds of a TCP port flag (0: a free one). */
export const PORT = { min: 0, max: 65535, integer: true } as const;

/**
 * "Did you mean": the nearest of some names to a mistyped one, by edit
 * distance (Damerau: a swapped pair counts once), when it is near enough to
 * be a typo: at most 2 edits, and fewer than half the word.
 */
export function nearest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(word.toLowerCase(), n.toLowerCase());
    if (d < bestD) { best = n; bestD = d; }
  }
  return bestD <= Math.min(2, Math.floor(word.length / 2)) || (best && best.startsWith(word) && word.length >= 3) ? best : undefined;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
