// `pis-conformance run`: the main job. Resolves the target (flags > env > YAML
// file), starts the bundled reference when no target is named, checks in a few
// seconds that the target is there and takes the credentials, then runs the
// Playwright suites with the reporter that writes the report folder, and exits
// with the verdict: 0 conformant, 1 not conformant or incomplete (0 with
// --allow-incomplete), 2 interrupted or the run could not be made.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { HarnessError } from '../errors.ts';
import { reportDirFlag, type Command } from './command.ts';
import { parseOptions } from './option-table.ts';
import { RUN_HELP, RUN_OPTIONS } from './run-options.ts';
import { fromEnv, fromFlags, namesTarget, requireBaseUrl, resolveTarget, type PartialConfig, type TargetConfig } from '../config/config.ts';
import { DEFAULT_BANKS, describeBanks } from '../config/banks.ts';
import { loadConfigFile } from '../config/file.ts';
import { redactTargetSecrets, reportTarget, SECRET_VARIABLES, splitTarget } from '../config/env.ts';
import { preflight } from '../config/preflight.ts';
import { defaultReportDir, type ReportHeader } from '../report/writer.ts';
import { Redactor, shortSecretWarning } from '../report/redact.ts';
import type { RunResults } from '../results/model.ts';
import { verdictExit } from '../report/verdict.ts';
import { formatSummary } from '../report/progress.ts';
import { chooseSuites, grepFlags, select, selectionOf, selectsWebhookCheck, type RunChoice } from './selection.ts';
import { humanStream, type StdoutReporter } from '../report/terminal.ts';
import { formatList } from './list.ts';
import { descriptionYaml, PROFILE_DESCRIPTION } from '../config/description.ts';
import { makeScratch, runPlaywright } from '../runner/playwright.ts';
import { INTERRUPTED_EXIT, stopSignal } from '../stop.ts';
import { BUNDLED_TIME_SCALE, startBundled, type Bundled } from '../runner/bundled.ts';
import { parseLifetimes } from '../reference/lifetimes.ts';
import { API_VERSIONS, LATEST_API_VERSION } from '../contracts/api-versions.ts';
import { detectApiVersion, type Detection } from '../config/detect.ts';
import { requirementWindows } from '../requirements/versions.ts';
import { applyGates, readGates } from './run-gates.ts';
import { printable } from '../printable.ts';
import { lockReportFolder } from '../report/folder.ts';
import { givenTimeScale, runTimeScale } from './time-scale.ts';

/** PIS_GLOBAL_TIMEOUT_S: seconds the whole run may take (0 or unset: no limit). */
function globalTimeoutS(value: string | undefined): number {
  const s = Number(value ?? 0);
  if (!Number.isFinite(s) || s < 0) throw new HarnessError('PIS_BAD_CONFIG', `PIS_GLOBAL_TIMEOUT_S is '${value}': give a number of seconds, 0 for no limit.`);
  return s;
}

export const command: Command = {
  name: 'run',
  help: RUN_HELP,
  options: RUN_OPTIONS,
  async run(argv) {
    const v = parseOptions('run', RUN_HELP, argv, RUN_OPTIONS);
    if (!v) return 0;
    const flags = fromFlags(v);
    const file = v.config ? loadConfigFile(v.config) : { config: {} as PartialConfig, suites: undefined };
    const env = fromEnv(process.env);
    const suites = chooseSuites(v.suites ?? file.suites);
    const { workers, reporter } = v;
    const greps = grepFlags(v);
    const human = humanStream(reporter);
    const askedVersion = flags.apiVersion ?? env.apiVersion ?? file.config.apiVersion;
    if (v.describe) {
      process.stdout.write(descriptionYaml(file.config.description ?? PROFILE_DESCRIPTION));
      return 0;
    }
    if (v.list) {
      const profile = flags.profile ?? env.profile ?? file.config.profile ?? true;
      if (askedVersion === 'detect')
        throw new HarnessError('PIS_BAD_FLAG',
          `--list calls no target, so it cannot detect the API version: give --api-version V (one of ${API_VERSIONS.join(', ')}).`);
      const listVersion = askedVersion ?? LATEST_API_VERSION;
      const { checks } = await select({ suites, ...greps, profile, apiVersion: listVersion });
      process.stdout.write(formatList(checks, reporter, listVersion));
      return 0;
    }
    const faults = v.fault.flatMap(f => f.split(',')).map(f => f.trim()).filter(Boolean);
    const dir = reportDirFlag(v.report, defaultReportDir);
    const gates = await readGates(v);
    // Held until this process exits: a second run on the same folder stops here.
    lockReportFolder(dir);

    let bundled: Bundled | undefined;
    let sources: PartialConfig[];
    const given = givenTimeScale(flags, env, file.config);
    if (namesTarget(flags, env, file.config)) {
      if (faults.length) throw new HarnessError('PIS_BAD_FLAG', '--fault applies to the bundled reference only: leave out the target options, or --fault.');
      if (v.lifetimes)
        throw new HarnessError('PIS_BAD_FLAG', '--lifetimes applies to the bundled reference only: leave out the target options, or --lifetimes ' +
          '(a target of your own states its lifetimes in its answers; give --session-lifetime for its consents).');
      sources = [flags, env, file.config];
    } else {
      const timeScale = given?.value ?? BUNDLED_TIME_SCALE;
      const lifetimes = v.lifetimes ? parseLifetimes(v.lifetimes) : undefined;
      // The reference serves the version asked for; `detect` finds the latest it serves by default.
      const apiVersion = askedVersion === 'detect' ? LATEST_API_VERSION : askedVersion ?? LATEST_API_VERSION;
      bundled = await startBundled({ timeScale, faults, lifetimes, apiVersion, webhookApiKey: randomBytes(12).toString('hex') });
      // The reference's own URLs and credentials win over anything else that names them.
      sources = [{ ...bundled.config, ...(askedVersion === 'detect' ? {} : { apiVersion }) }, flags, file.config];
      const started = `API version ${apiVersion}, time scale ${bundled.config.timeScale}${faults.length ? `, faults ${faults.join(', ')}` : ''}`;
      human.write(`Started the bundled reference implementation at ${bundled.config.baseUrl} (${started}).\n`);
    }
    let cfg: TargetConfig = resolveTarget(...sources);
    if (!bundled) requireBaseUrl(cfg, suites);

    try {
      const redactor = redactTargetSecrets(new Redactor(), cfg);
      for (const p of redactor.shortSecrets) process.stderr.write(shortSecretWarning(p) + '\n');
      // Each step before the first check says what it is doing: on a loaded machine they take seconds.
      human.write('Checking that the target answers and takes the credentials...\n');
      const found = await preflight(cfg, redactor);
      const clock = runTimeScale(cfg, found.controlTimeScale, bundled ? undefined : given);
      cfg = { ...cfg, ...clock.settings };
      let detection: Detection | undefined;
      if (askedVersion === 'detect') {
        detection = await detectApiVersion(cfg, redactor, found.accessToken);
        // The detected version's paths and headers, under the config's own overrides.
        cfg = { ...resolveTarget({ apiVersion: detection.version }, ...sources), ...clock.settings };
        human.write(`API version ${detection.version} detected: ${detection.why}\n`);
      } else if (askedVersion && !bundled) human.write(`API version ${cfg.apiVersion}: the checks of that version run, on its paths.\n`);
      const allowIncomplete = v['allow-incomplete'];
      const { selected, header } = await planSelection(cfg, { suites, ...greps }, { allowIncomplete, clockSource: clock.source, detection });
      const scratch = makeScratch();
      const notes = new PassThrough();
      // The longest wait first: the webhook drive needs the control API and the sink, not Playwright.
      // The drive's module (the sink and every webhook check) loads only for a run that drives checkouts.
      const drive = cfg.controlUrl && selectsWebhookCheck(selected.checks)
        ? (await import('../runner/webhook.ts')).startWebhookDrive(cfg, { scratch: scratch.dir, redactor, notes }) : undefined;
      try {
        if (drive) human.write('Driving the webhook checkouts through the control API, beside the suites...\n');
        human.write(`Starting the suites (${suites.join(', ')}) in up to ${workers} Playwright workers...\n`);
        const target = splitTarget(cfg);
        const out = await runPlaywright({
          runs: [{
            name: '', checks: selected.checks, notSelected: selected.notSelected, target: target.open, ...(drive ? { webhookRunFile: drive.file } : {}),
            report: { reportDir: dir, header, stdout: reporter, secretVariables: [...SECRET_VARIABLES] },
          }],
          scratch: scratch.dir, ...(drive ? { notes } : {}), secrets: target.env, requirementWindows: [...requirementWindows()],
          playwright: { workers, maxWaitS: cfg.maxWaitS, globalTimeoutS: globalTimeoutS(process.env.PIS_GLOBAL_TIMEOUT_S) },
        });
        return applyGates(dir, finish(dir, out, reporter, allowIncomplete), gates, allowIncomplete, reporter);
      } finally {
        await drive?.stop();
        scratch.remove();
      }
    } finally {
      await bundled?.close();
    }
  },
};

/** The reporter wrote what the run found before the stop signal; the verdict line says it was cut short. */
function interrupted(dir: string, reporter: StdoutReporter): number {
  let results: RunResults | undefined;
  try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { /* stopped before the reporter began */ }
  if (!results) humanStream(reporter).write('\nInterrupted: no check finished before the stop.\n');
  else humanStream(reporter).write('\n' + formatSummary(results, shownPath(join(dir, 'index.html'))) + '\n');
  return INTERRUPTED_EXIT;
}

/** A path relative to the working directory when it lies below it. */
function shownPath(file: string): string {
  const shown = relative(process.cwd(), file);
  return shown.startsWith('..') ? file : shown;
}

type Selected = Awaited<ReturnType<typeof select>>;

/**
 * The one selection of a run at a resolved target: --list prints it, the
 * webhook drive and the start-first watches go by it, Playwright runs it; and
 * the header of its report. (A batch of proof runs plans each part with it.)
 */
export async function planSelection(cfg: TargetConfig, ask: Omit<RunChoice, 'profile' | 'apiVersion'>,
  o: { allowIncomplete: boolean; clockSource?: string; detection?: Detection }): Promise<{ selected: Selected; header: ReportHeader }> {
  const choice: RunChoice = { ...ask, profile: cfg.profile, apiVersion: cfg.apiVersion };
  const selected = await select(choice);
  const selection = selectionOf(choice, { timeScale: cfg.timeScale, maxWaitS: cfg.maxWaitS, allowIncomplete: o.allowIncomplete });
  if (o.detection) selection.apiVersionDetected = o.detection.findings;
  // The banks asked for; the data.banks.list and payments.domestic.initiate evidence names the ones visited.
  if (ask.suites.includes('data') || ask.suites.includes('payments')) selection.banks = describeBanks(cfg.banks ?? DEFAULT_BANKS);
  const header: ReportHeader = { command: 'run', target: { ...reportTarget(cfg), ...(o.clockSource ? { timeScaleSource: o.clockSource } : {}) },
    timeScale: cfg.timeScale, selection };
  return { selected, header };
}

function finish(dir: string, out: Awaited<ReturnType<typeof runPlaywright>>, reporter: StdoutReporter, allowIncomplete: boolean): number {
  const status = out.statuses[0];
  if (status?.interrupted || stopSignal()) return interrupted(dir, reporter);
  if (out.signal)
    throw new HarnessError('PIS_INTERNAL', `The Playwright runner was killed by ${out.signal}; what the run found so far is in ${join(dir, 'results.jsonl')}.`);
  // run selects before Playwright starts (a selection of no check stops there): Playwright found none of the selected tests.
  if (status && status.selected === 0)
    throw new HarnessError('PIS_INTERNAL', `No check ran (${status.errors[0] ?? 'Playwright found none of the selected tests'}): ` +
      'this is a bug of the harness, please report it.');
  if (!status || !existsSync(join(dir, 'results.json'))) {
    const why = status?.errors[0] ?? `Playwright ended with status ${out.exitCode} before the report was written`;
    throw new HarnessError('PIS_INTERNAL', `The suites could not run (${why}): this is a bug of the harness or its install, please report it.`);
  }
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults;
  humanStream(reporter).write('\n' + formatSummary(results, shownPath(join(dir, 'index.html'))) + '\n');
  if (status.errors.length)
    process.stderr.write(`Note: ${status.errors.length} suite error(s) besides the checks; the first: ${printable(status.errors[0]!)}\n`);
  return verdictExit(results.summary.verdict, { allowIncomplete });
}
