// One line per finished check on the terminal, and the closing summary.
import { isWarning, type CheckResult, type RunSummary } from './model.ts';

const paint = (on: boolean, code: number, s: string) => on ? `\u001b[${code}m${s}\u001b[0m` : s;

export function formatCheckLine(c: CheckResult, color = false): string {
  const warn = isWarning(c);
  const mark = c.status === 'passed' ? paint(color, 32, 'ok  ')
    : c.status === 'skipped' ? paint(color, 90, 'skip')
    : warn ? paint(color, 33, 'warn') : paint(color, 31, 'FAIL');
  const head = `${mark} ${c.id} [${c.level}, spec ${c.spec}] ${c.title} (${(c.durationMs / 1000).toFixed(2)} s)`;
  return c.message ? `${head}\n       ${c.message}` : head;
}

export function formatSummary(s: RunSummary, warnings: number, reportIndex: string): string {
  const verdict = s.conformant ? 'Conformant' : 'Not conformant';
  return `${verdict}: ${s.passed} passed, ${s.failed} failed${warnings ? ` (${warnings} warnings that do not decide the verdict)` : ''}, ${s.skipped} skipped.\nReport: ${reportIndex}`;
}
