// The Playwright reporter of `run`: turns each finished test into a CheckResult
// (from its `pis-check` attachment, or from its annotation and Playwright's own
// verdict when a test ended without one), hands it to the ReportWriter at once
// (results.jsonl grows as the run goes), prints one progress line per check,
// and writes the rest of the report folder at the end. Configured by its
// options (ReporterOptions), which the Playwright config takes from the run
// context (suites/support/context.ts). A run that selected no check writes no
// report folder at all.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FullResult, Reporter, Suite as PwSuite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import type { CheckResult, DeliveryAttempt, Level, Suite } from '../results/model.ts';
import { CHECK_ANNOTATION, CHECK_ATTACHMENT } from './check.ts';
import type { CheckMeta } from '../check/def.ts';
import { failed, notRun, passed, toResult, type Outcome } from '../check/outcome.ts';
import { Redactor } from './redact.ts';
import { ReportWriter, type ReportHeader } from './writer.ts';
import type { NotSelected } from './assemble.ts';
import { stripAnsi } from './colour.ts';
import { Terminal, type StdoutReporter } from './terminal.ts';
import { readNotes, splitWaits } from './wait.ts';
import { counted } from './verdict.ts';
import { printable, printableLines } from '../printable.ts';

export const DELIVERIES_ATTACHMENT = 'pis-deliveries';

/** What `run` tells the reporter: its part of the run context. */
export interface ReporterOptions {
  reportDir: string;
  header: ReportHeader;
  /** Every check of the catalog the run left out, with the option that did (NotSelected[] as JSON). */
  candidatesFile?: string;
  /** Where the reporter writes its RunStatus for `run`, outside the report folder. */
  statusFile: string;
  /** The fd on which the wait notes of `run`'s own process arrive (harness/report/wait.ts). */
  notesFd?: number;
  /** The form of the reporter's stdout (run --reporter). */
  stdout: StdoutReporter;
  /** The variables that carry a secret of the target: their values are hidden in everything the reporter prints or writes. */
  secretVariables: string[];
  /** In a batch of runs (a describe block per target, suites/support/part.ts), the part whose tests this reporter reports; absent: every test. */
  part?: string;
  /**
   * A proof part of the tests' batches (test/run/batch.ts), which read its results.json alone: the folder gets plan.json
   * and results.json, as `run` writes them, and no results.jsonl, junit.xml or index.html. `run` never sets it.
   */
  resultsOnly?: boolean;
}

/** What the reporter tells `run` beyond the report folder (written to its statusFile, outside the folder). */
export interface RunStatus {
  /** Checks that reported a result. */
  checks: number;
  /** Checks the run selected (0: nothing matched, and no report folder was written). */
  selected: number;
  errors: string[];
  interrupted: boolean;
}

const firstLine = (s: string | undefined) => stripAnsi(s ?? '').split('\n').find(l => l.trim())?.trim() ?? '';

/**
 * Every check the run could have selected, each with the option that leaves it
 * out (written by `run` from the static catalog; the reporter cannot import the
 * suites' catalog itself). Those the run did not select are listed as not selected.
 */
function candidates(file: string | undefined): NotSelected[] {
  if (!file) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as NotSelected[];
}

/** The suite a test belongs to: its spec file's name (the test() call itself may sit in a helper file). */
function suiteFile(test: TestCase): string {
  let s: PwSuite | undefined = test.parent;
  while (s && s.type !== 'file') s = s.parent;
  return basename(s?.location?.file ?? s?.title ?? test.location.file).replace(/\.spec\.ts$/, '');
}

/** What Playwright's own verdict says of a test that ended without its check's result. */
function playwrightOutcome(test: TestCase, result: TestResult): Outcome {
  if (result.status === 'skipped') {
    const why = test.annotations.find(a => a.type === 'skip' || a.type === 'fixme')?.description;
    return notRun(why || 'not run (the run was stopped before it, or Playwright skipped it)');
  }
  // Cut off by a stop signal: the check did not run to its end, which says nothing about the target.
  if (result.status === 'interrupted') return notRun('the run was stopped before this check finished');
  if (result.status === 'passed') return passed();
  if (result.status === 'timedOut') return failed(`the check did not finish within ${(test.timeout / 1000).toFixed(0)} s`, undefined, undefined);
  // A test that ended without its check's result threw in the harness's own code: the check did not run, it did not fail.
  return notRun(`the harness could not finish the check: ${firstLine(result.error?.message ?? result.error?.value) || result.status}`);
}

export default class PisReporter implements Reporter {
  private writer?: ReportWriter;
  private readonly redactor = new Redactor();
  private readonly deliveries: DeliveryAttempt[] = [];
  private readonly errors: string[] = [];
  private readonly terminal: Terminal;
  private readonly checks: CheckResult[] = [];
  private count = 0;
  private selected = 0;
  /** The wait notes of `run`'s own process (the webhook drive), read from the start: it begins before Playwright. */
  private readonly stopNotes: () => void;
  private readonly options: Partial<ReporterOptions>;

  /** Playwright passes the options of the config's reporter entry; without them (no `run`) the reporter prints and writes no report folder. */
  constructor(options: Partial<ReporterOptions> = {}) {
    this.options = options;
    this.terminal = new Terminal(options.stdout ?? 'line');
    this.stopNotes = readNotes(n => this.terminal.wait(n), options.notesFd);
    // Playwright makes the reporter before it collects the checks: the status line says so until they run.
    this.terminal.idle('collecting the checks');
  }

  printsToStdio(): boolean { return true; }

  onBegin(_config: unknown, suite: PwSuite): void {
    // run names the variables that carry the target's secrets (its table of options says which).
    for (const name of this.options.secretVariables ?? []) this.redactor.add(process.env[name], name);
    const dir = this.options.reportDir;
    const header: ReportHeader = this.options.header ?? { command: 'run', target: {}, timeScale: 1 };
    this.terminal.allowIncomplete = header.selection?.allowIncomplete === true;
    const tests = suite.allTests().filter(t => this.mine(t));
    if (dir && tests.length) {
      const selected = tests.map(t => this.meta(t));
      const ids = new Set(selected.map(m => m.id));
      const notSelected = candidates(this.options.candidatesFile).filter(c => !ids.has(c.id));
      this.writer = new ReportWriter(dir, header, this.redactor, { selected, notSelected }, { resultsOnly: this.options.resultsOnly === true });
    }
    const total = this.selected = tests.length;
    const files = new Set(tests.map(suiteFile));
    this.terminal.idle(`starting the suites' workers (${files.size})`);
    this.terminal.say(`Running ${counted(total, 'check')} in ${files.size} suite${files.size === 1 ? '' : 's'} (${[...files].sort().join(', ')})`);
  }

  onTestBegin(test: TestCase): void {
    if (this.mine(test)) this.terminal.begin(this.meta(test).id);
  }

  /** Whether this reporter reports `test`: every test, or in a batch those of its part (the describe block right under the file). */
  private mine(test: TestCase | undefined): boolean {
    if (this.options.part === undefined) return true;
    let s = test?.parent;
    while (s?.parent && s.parent.type !== 'file') s = s.parent;
    return s?.type === 'describe' && s.title === this.options.part;
  }

  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    if (this.options.part !== undefined && !this.mine(test)) return;
    // Tests print only what a user must see (the manual consent driver's link) and
    // marked notes of what they wait for (harness/report/wait.ts).
    const { notes, text } = splitWaits(chunk.toString());
    for (const n of notes) this.terminal.wait(n);
    if (text) this.terminal.output(this.redactor.text(text));
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    if (this.options.part !== undefined && !this.mine(test)) return;
    process.stderr.write(printableLines(this.redactor.text(chunk.toString())));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (!this.mine(test)) return;
    let check: CheckResult;
    try {
      check = this.toCheck(test, result);
    } catch (e) {
      this.errors.push(`could not read the result of ${test.title}: ${(e as Error).message}`);
      return;
    }
    for (const a of result.attachments) {
      if (a.name === DELIVERIES_ATTACHMENT && a.body) {
        try { this.deliveries.push(...(JSON.parse(a.body.toString('utf8')) as DeliveryAttempt[])); } catch {
          /* a broken attachment is the suite's bug; the checks still count */
        }
      }
    }
    const clean = this.writer ? this.writer.add(check) : this.redactor.result(check);
    this.count++;
    this.checks.push(clean);
    this.terminal.check(clean);
  }

  onError(error: TestError): void {
    const text = this.redactor.text(firstLine(error.message ?? error.value) || 'unknown error');
    const where = error.location ? ` (${basename(error.location.file)}:${error.location.line})` : '';
    this.errors.push(text + where);
    process.stderr.write(`error: ${printable(text)}${where}\n`);
  }

  async onEnd(result: FullResult): Promise<void> {
    // A stop signal, or the global timeout: the checks without a result are listed as not run.
    const interrupted = result.status === 'interrupted' || result.status === 'timedout';
    this.stopNotes();
    const results = this.writer?.finish({ interrupted, ...(this.deliveries.length ? { deliveries: this.deliveries } : {}) });
    // The not-selected count of results.json, so the json summary line and the verdict line say the same.
    if (!interrupted) this.terminal.end(this.checks, this.writer ? join(this.writer.dir, 'index.html') : undefined, results?.summary.notSelected);
    else this.terminal.stop();
    const status: RunStatus = { checks: this.count, selected: this.selected, errors: this.errors, interrupted };
    if (this.options.statusFile) writeFileSync(this.options.statusFile, JSON.stringify(status));
  }

  /** The check's own result when it attached one, else one built from the test's annotation and Playwright's verdict. */
  private toCheck(test: TestCase, result: TestResult): CheckResult {
    const attached = result.attachments.find(a => a.name === CHECK_ATTACHMENT && a.body);
    if (attached) return JSON.parse(attached.body!.toString('utf8')) as CheckResult;
    return toResult(this.meta(test), playwrightOutcome(test, result), Math.round(result.duration));
  }

  private meta(test: TestCase): CheckMeta {
    const ann = test.annotations.find(a => a.type === CHECK_ANNOTATION)?.description;
    if (ann) return JSON.parse(ann);
    // A test registered without the check helper: its title should start with its dotted id.
    const [first, ...rest] = test.title.split(' ');
    const dotted = /^[a-z-]+\.[a-z0-9-]+\.[a-z0-9.-]+$/.test(first ?? '');
    const suite = (dotted ? first!.split('.')[0] : suiteFile(test)) as Suite;
    return { id: dotted ? first! : `${suite}.${test.title}`, suite, title: dotted ? rest.join(' ') : test.title, spec: '?', level: 'must' as Level };
  }
}
