// One line per finished check on the terminal, the recap of what failed at
// the end (the lines of a failure are otherwise buried among a hundred), and
// the closing summary.
import { isMustFailure, isWarning, type CheckResult, type Evidence, type HttpEvidence, type RunResults } from '../results/model.ts';
import { palette, type Palette } from './colour.ts';
import { skipKindOf, verdictLines } from './verdict.ts';
import { printable } from '../printable.ts';

const PLAIN = palette({ isTTY: false }, {});

const shownHttp = (e: HttpEvidence): HttpEvidence => ({ ...e, request: { ...e.request, method: printable(e.request.method), url: printable(e.request.url) },
  ...(e.error !== undefined ? { error: printable(e.error) } : {}), ...(e.curl !== undefined ? { curl: printable(e.curl) } : {}) });

/**
 * The check as a terminal may show it: every text a line is built from (the
 * message, expected and seen, which quote the target; the exchange's method,
 * URL, error and curl line) made printable. The check itself is untouched.
 */
export function printableCheck(c: CheckResult): CheckResult {
  const p = (s: string | undefined) => s === undefined ? undefined : printable(s);
  return { ...c, id: printable(c.id), title: printable(c.title), spec: printable(c.spec), message: p(c.message), expected: p(c.expected), seen: p(c.seen),
    evidence: c.evidence.map(e => e.kind === 'http' ? shownHttp(e) : e) };
}

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
  return [...verdictLines(r.summary, r.checks), `Report: ${reportIndex}`].map(printable).join('\n');
}

/** The exchange a failed check points at: the one marked primary, else its last exchange. */
export function primaryExchange(c: Pick<CheckResult, 'evidence'>): HttpEvidence | undefined {
  const http = c.evidence.filter((e: Evidence): e is HttpEvidence => e.kind === 'http');
  return http.find(e => e.primary) ?? http[http.length - 1];
}

/** The shell line that repeats the request a failed check points at, when it has one. */
export function reproduceLine(c: CheckResult): string | undefined {
  return c.status === 'failed' ? primaryExchange(c)?.curl : undefined;
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A failure in a few lines: what, expected versus seen, the exchange, how to repeat it. */
function recapEntry(c: CheckResult, p: Palette): string[] {
  const detail = c.expected !== undefined || c.seen !== undefined ? `: expected ${c.expected ?? '?'}, seen ${c.seen ?? '?'}` : '';
  const what = c.message && detail && c.message.endsWith(detail) ? c.message.slice(0, -detail.length) : c.message;
  const ex = primaryExchange(c);
  const reproduce = reproduceLine(c);
  return [
    `  ${isWarning(c) ? p.yellow('warn') : p.red('FAIL')} ${p.bold(c.id)} [${c.level}, spec ${c.spec}] ${c.title}`,
    ...(what && what !== c.seen ? [`       ${cut(what, 400)}`] : []),
    ...(c.expected !== undefined ? [`       expected: ${cut(c.expected, 300)}`] : []),
    ...(c.seen !== undefined ? [`       seen:     ${cut(c.seen, 300)}`] : []),
    ...(ex ? [`       exchange: ${ex.request.method} ${ex.request.url} -> ${ex.response ? ex.response.status : ex.error ?? 'no answer'}`] : []),
    ...(reproduce ? [`       reproduce: ${cut(reproduce.replace(/\s*\n\s*/g, ' '), 2000)}`] : []),
  ];
}

/**
 * Every failed check again at the end, must failures first, then warnings,
 * then the must checks that did not run (what makes a run incomplete). '' when
 * everything passed.
 */
export function formatRecap(checks: readonly CheckResult[], p: Palette = PLAIN): string {
  const fails = checks.filter(isMustFailure);
  const warns = checks.filter(isWarning);
  const notRun = checks.filter(c => c.level === 'must' && skipKindOf(c) === 'not-run');
  const out: string[] = [];
  if (fails.length) out.push(p.red(`Failed (${fails.length}, must):`), ...fails.flatMap(c => recapEntry(c, p)));
  if (warns.length)
    out.push(p.yellow(`Warnings (${warns.length}, should and profile: they do not decide the verdict):`), ...warns.flatMap(c => recapEntry(c, p)));
  if (notRun.length)
    out.push(p.grey(`Not run (${notRun.length}, must):`), ...notRun.map(c => `  ${p.grey('skip')} ${c.id}: ${cut(c.message ?? 'not run', 400)}`));
  return out.join('\n');
}
