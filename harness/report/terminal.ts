// What a run prints on standard output, in the form --reporter asks for:
//   line    a line per check as it ends, the status line while nothing ends
//           (wait.ts), and a recap of every failure at the end (default)
//   json    one JSON object per line: a line per check, a summary line last;
//           everything meant for a person goes to stderr
//   github  line, plus GitHub Actions annotations (::error, ::warning) and a
//           job summary in $GITHUB_STEP_SUMMARY
import { appendFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import type { CheckResult } from '../results/model.ts';
import { isWarning } from '../results/model.ts';
import { counted, judge, skipKindOf, summarize, VERDICT_LABEL, verdictExit, verdictLines } from './verdict.ts';
import { palette, type Palette } from './colour.ts';
import { formatCheckLine, formatRecap, printableCheck, reproduceLine } from './progress.ts';
import { printable, printableLines } from '../printable.ts';
import { LiveStatus, type WaitNote } from './wait.ts';

export const STDOUT_REPORTERS = ['line', 'json', 'github'] as const;
export type StdoutReporter = typeof STDOUT_REPORTERS[number];

/** The --reporter flag of run, certify-receiver and sink. */
export function reporterFlag(name: string | undefined): StdoutReporter {
  if (name === undefined) return 'line';
  if (!(STDOUT_REPORTERS as readonly string[]).includes(name))
    throw new HarnessError('PIS_BAD_FLAG', `--reporter ${name} is not a reporter: use one of ${STDOUT_REPORTERS.join(', ')}.`);
  return name as StdoutReporter;
}

/** Where lines for a person go: stdout, except in json mode, which keeps stdout for machines. */
export function humanStream(mode: StdoutReporter): NodeJS.WriteStream {
  return mode === 'json' ? process.stderr : process.stdout;
}

interface Stream { write(s: string): unknown; isTTY?: boolean; columns?: number }

/** GitHub's workflow-command escaping (actions/toolkit, command.ts). */
const ghData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProp = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function annotation(kind: 'error' | 'warning' | 'notice', title: string, c: CheckResult): string {
  const body = [c.message ?? c.title, c.expected !== undefined ? `expected: ${c.expected}` : '',
    c.seen !== undefined ? `seen: ${c.seen}` : '', reproduceLine(c) ?? '']
    .filter(Boolean).join('\n');
  return `::${kind} title=${ghProp(`${title} ${c.id} [${c.level}, spec ${c.spec}]`)}::${ghData(body)}\n`;
}

/** JSON whose strings hold no character a terminal acts on: JSON.stringify escapes C0 only, so C1, DEL and bidi controls are escaped too. */
const jsonText = (v: unknown) => JSON.stringify(v).replace(/[\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g,
  ch => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A check as one JSON line: the fields a pipeline reads, without the evidence (results.json has it). */
function jsonLine(c: CheckResult): string {
  const { evidence: _e, quote: _q, ...rest } = c;
  const reproduce = reproduceLine(c);
  return jsonText({ type: 'check', ...rest, ...(c.status === 'skipped' ? { skipKind: skipKindOf(c) } : {}), ...(reproduce ? { reproduce } : {}) }) + '\n';
}

export class Terminal {
  /** --allow-incomplete: an Incomplete verdict exits 0, so its annotation is a warning, not an error. */
  allowIncomplete = false;
  private readonly status: LiveStatus;
  private readonly colour: Palette;
  private readonly human: Stream;

  /** `format`: a command's own line for a check (certify-receiver's PASS/FAIL lines), else formatCheckLine. */
  constructor(readonly mode: StdoutReporter = 'line', private readonly out: Stream = process.stdout, err: Stream = process.stderr,
    private readonly env: Record<string, string | undefined> = process.env,
    private readonly format: (c: CheckResult, p: Palette) => string = formatCheckLine) {
    this.human = mode === 'json' ? err : out;
    this.colour = palette(this.human, env);
    this.status = new LiveStatus(this.human);
    this.status.start();
  }

  /** A line for a person. */
  say(text: string): void { this.status.write(`${text}\n`); }

  /** What a check printed for the person running it (the manual consent driver's link). */
  output(text: string): void { this.status.write(printableLines(text)); }

  wait(n: WaitNote): void { this.status.note(n); }
  idle(what: string): void { this.status.idle(what); }
  begin(id: string): void { this.status.begin(id); }

  check(c: CheckResult): void {
    this.status.finish(c.id);
    if (this.mode === 'json') { this.out.write(jsonLine(c)); return; }
    const shown = printableCheck(c);
    this.status.write(this.format(shown, this.colour) + '\n');
    if (this.mode === 'github' && c.status === 'failed') this.out.write(annotation(isWarning(c) ? 'warning' : 'error', isWarning(c) ? 'warn' : 'FAIL', shown));
  }

  /** Stops the status line (a run cut short: no recap). */
  stop(): void { this.status.stop(); }

  /**
   * The end of the checks: the recap of what failed or did not run, in the form of the mode. `notSelected`: the
   * checks the selection left out, when they are not among `checks` (the json summary counts them as results.json does).
   */
  end(checks: readonly CheckResult[], reportPath?: string, notSelected?: number): void {
    this.status.stop();
    const j = judge(checks);
    if (this.mode === 'json') {
      const { mustNotRun, ...counts } = j;
      this.out.write(jsonText({ type: 'summary', ...counts, ...(notSelected !== undefined ? { notSelected } : {}), mustNotRun: mustNotRun.map(c => c.id),
        ...(reportPath ? { report: reportPath } : {}) }) + '\n');
      return;
    }
    const shown = checks.map(printableCheck);
    const recap = formatRecap(shown, this.colour);
    if (recap) this.out.write(`\n${recap}\n`);
    if (this.mode !== 'github') return;
    for (const c of j.mustNotRun) this.out.write(annotation('warning', 'not run', printableCheck(c)));
    // The verdict itself: an error whenever the exit status is not 0 (a warning for an Incomplete run that
    // --allow-incomplete lets pass), so a job's annotations agree with its status.
    if (j.verdict !== 'conformant') {
      const [head, ...rest] = verdictLines(summarize(checks), checks);
      const kind = verdictExit(j.verdict, { allowIncomplete: this.allowIncomplete }) ? 'error' : 'warning';
      this.out.write(`::${kind} title=${ghProp(`pis-conformance: ${VERDICT_LABEL[j.verdict]}`)}::${ghData([head, ...rest].map(printable).join('\n'))}\n`);
    }
    const file = this.env.GITHUB_STEP_SUMMARY;
    if (file) appendFileSync(file, jobSummary(shown, reportPath));
  }
}

/** The job summary GitHub shows on the run's page: the verdict, the counts, a row per failure. */
function jobSummary(checks: readonly CheckResult[], reportPath?: string): string {
  const j = judge(checks);
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = checks.filter(c => c.status === 'failed' || (c.status === 'skipped' && skipKindOf(c) === 'not-run' && c.level === 'must'))
    .map(c => `| ${c.status === 'failed' ? (isWarning(c) ? 'warning' : 'failed') : 'not run'} | \`${c.id}\` | ${c.level} | ${c.spec} | ` +
      `${cell(c.message ?? c.title)} |`);
  return [`### pis-conformance: ${VERDICT_LABEL[j.verdict]}`, '',
    `${j.passed} passed, ${j.failed - j.warnings} failed, ${counted(j.warnings, 'warning')}, ${j.notRun} not run, ` +
      `${j.notApplicable} not applicable.${reportPath ? ` Report: \`${reportPath}\`` : ''}`, '',
    ...(rows.length ? ['| | check | level | spec | what |', '|---|---|---|---|---|', ...rows, ''] : [])].join('\n') + '\n';
}
