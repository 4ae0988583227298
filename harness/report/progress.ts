// One line per finished check on the terminal, and the closing summary.
import { isWarning, type CheckResult, type RunResults } from './model.ts';
import { palette, type Palette } from './colour.ts';
import { verdictLines } from './verdict.ts';

const PLAIN = palette({ isTTY: false }, {});

export function formatCheckLine(c: CheckResult, p: Palette = PLAIN): string {
  const warn = isWarning(c);
  const mark = c.status === 'passed' ? p.green('ok  ')
    : c.status === 'skipped' ? p.grey('skip')
    : warn ? p.yellow('warn') : p.red('FAIL');
  const head = `${mark} ${c.id} [${c.level}, spec ${c.spec}] ${c.title} (${(c.durationMs / 1000).toFixed(2)} s)`;
  return c.message ? `${head}\n       ${c.message}` : head;
}

/** The verdict line (with what did not run and what to do) and the report's path. */
export function formatSummary(r: Pick<RunResults, 'summary' | 'checks'>, reportIndex: string): string {
  return [...verdictLines(r.summary, r.checks), `Report: ${reportIndex}`].join('\n');
}
