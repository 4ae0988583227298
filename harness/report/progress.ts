// One line per finished check on the terminal, and the closing summary.
import { isWarning, type CheckResult, type RunSummary } from './model.ts';
import { palette, type Palette } from './colour.ts';

const PLAIN = palette({ isTTY: false }, {});

export function formatCheckLine(c: CheckResult, p: Palette = PLAIN): string {
  const warn = isWarning(c);
  const mark = c.status === 'passed' ? p.green('ok  ')
    : c.status === 'skipped' ? p.grey('skip')
    : warn ? p.yellow('warn') : p.red('FAIL');
  const head = `${mark} ${c.id} [${c.level}, spec ${c.spec}] ${c.title} (${(c.durationMs / 1000).toFixed(2)} s)`;
  return c.message ? `${head}\n       ${c.message}` : head;
}

export function formatSummary(s: RunSummary, warnings: number, reportIndex: string): string {
  const verdict = s.conformant ? 'Conformant' : 'Not conformant';
  return `${verdict}: ${s.passed} passed, ${s.failed} failed${warnings ? ` (${warnings} warnings that do not decide the verdict)` : ''}, ${s.skipped} skipped.\nReport: ${reportIndex}`;
}
