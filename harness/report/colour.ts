// The one colour helper of every command. Colour is on when the stream is a
// terminal, off when NO_COLOR is set to anything but the empty string
// (no-color.org) or TERM is dumb; FORCE_COLOR wins over both (as in Node
// itself): 0 or false turns colour off, any other value on, also through a
// pipe (CI logs that render ANSI). A dozen lines, so no dependency: chalk and
// picocolors apply the same rules.
export interface Palette {
  readonly on: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  grey(s: string): string;
  bold(s: string): string;
}

type Env = Record<string, string | undefined>;

export function colourOn(stream: { isTTY?: boolean } = process.stdout, env: Env = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return !/^(0|false)$/i.test(force);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return !!stream.isTTY;
}

export function palette(stream: { isTTY?: boolean } = process.stdout, env: Env = process.env): Palette {
  const on = colourOn(stream, env);
  const sgr = (open: number, close: number) => (s: string) => (on ? `\u001b[${open}m${s}\u001b[${close}m` : s);
  return { on, red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), grey: sgr(90, 39), bold: sgr(1, 22) };
}

/** Text without ANSI colour codes (what a log file or a test compares). */
export const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
