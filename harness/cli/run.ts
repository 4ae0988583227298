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
import { numberFlag } from '../flag-values.ts';
import { parseFlags, reportDirFlag, type Command } from './command.ts';
import { fromEnv, fromFlags, namesTarget, requireBaseUrl, resolveTarget, SUITES, type PartialConfig, type TargetConfig } from '../config/config.ts';
import { configOnlyHelp, TARGET_FLAGS, targetHelp } from '../config/options.ts';
import { DEFAULT_BANKS, describeBanks } from '../config/banks.ts';
import { loadConfigFile } from '../config/file.ts';
import { redactTargetSecrets, reportTarget, SECRET_VARIABLES, splitTarget } from '../config/env.ts';
import { preflight } from '../config/preflight.ts';
import { defaultReportDir } from '../report/writer.ts';
import { Redactor, shortSecretWarning } from '../report/redact.ts';
import type { RunResults } from '../report/model.ts';
import { verdictExit } from '../report/verdict.ts';
import { formatSummary } from '../report/progress.ts';
import { chooseSuites, grepFlags, select, selectionOf, type RunChoice } from './selection.ts';
import { humanStream, reporterFlag, type StdoutReporter } from '../report/terminal.ts';
import { formatList } from './list.ts';
import { descriptionYaml, PROFILE_DESCRIPTION } from '../config/description.ts';
import { makeScratch, runPlaywright } from '../runner/playwright.ts';
import { selectsWebhookCheck, startWebhookDrive } from '../runner/webhook.ts';
import { INTERRUPTED_EXIT, stopSignal } from '../stop.ts';
import { BUNDLED_TIME_SCALE, startBundled, type Bundled } from '../runner/bundled.ts';
import { parseLifetimes } from '../reference/lifetimes.ts';
import { API_VERSIONS, LATEST_API_VERSION } from '../contracts/api-versions.ts';
import { detectApiVersion, type Detection } from '../config/detect.ts';
import { requirementWindows } from '../requirements/versions.ts';
import { applyGates, GATE_FLAGS, GATES_HELP, readGates } from './run-gates.ts';
import { printable } from '../printable.ts';
import { lockReportFolder } from '../report/folder.ts';
import { givenTimeScale, runTimeScale } from './time-scale.ts';

const HELP = `Usage: pis-conformance run [options]

Runs the conformance suites against a target and writes a report folder.
With no target options it starts the bundled reference implementation on free
loopback ports (time scale ${BUNDLED_TIME_SCALE} unless --time-scale is given) and runs against it.

Target (a flag, the environment variable at the right, or a key of the --config file;
flags win over the environment, the environment over the file):
${targetHelp()}

Keys of the --config file only (kebab-case or camelCase; contracts/target-config.yaml is the file's schema):
${configOnlyHelp()}
  suites: LIST            the same as --suites

What to run:
  --suites LIST           comma list of ${SUITES.join(',')} (default: all that exist)
  --grep PATTERN          only the checks whose id, title, requirement id or suite file matches (e.g. token.refresh.renews-tokens,
                          R6.5-min-delay): a regular expression read as Playwright's --grep reads it, any letter case, or /re/flags
  --grep-invert PATTERN   leave out the checks it matches (read as --grep is)
  --config FILE           YAML file of target options: the keys above
  --report DIR            where to write the report (default reports/<timestamp>; reports/latest points at it)
  --workers N             suites run side by side (default 4: the webhook suite reads what run's own drive found,
                          on the first worker free)
  --fault LIST            bundled reference only: switch on faults or quirks of its catalog, to see checks fail
  --lifetimes A,R[,C]     bundled reference only: access token, refresh token and consent lifetimes in spec
                          seconds (default 25,50,50, longer on a clock faster than 0.08: every expiry is seen)
  --allow-incomplete      exit 0 when no must check failed even though some could not run
  --list                  print the checks the selection would run (level, spec, requirements) and stop
  --describe              print the target description in force (the config's description: over docs/profile.md)
                          as YAML and stop

${GATES_HELP}

Output:
  --reporter R            line (default): a line per check, a status line while checks wait, a recap of
                          the failures at the end; json: a JSON line per check and a summary line last
                          (everything for a person goes to stderr); github: line plus GitHub Actions
                          annotations and a job summary in $GITHUB_STEP_SUMMARY

Exit status: 0 conformant, 1 not conformant or incomplete (some must checks could not run),
2 the run could not be made, selected no check, or was interrupted. With --baseline a failed must check
that also failed in the baseline does not count; declared deviations never change the status.
`;

/**
 * One Playwright worker per suite that waits on the spec's clock (token,
 * session) or calls the API (data, payments); the webhook suite's checks only
 * read the drive `run` makes, and get the first worker another suite leaves.
 * Each worker costs most of a second of CPU to start, and they all start at once.
 */
const DEFAULT_WORKERS = 4;

export const FLAGS = {
  ...TARGET_FLAGS,
  'suites': { type: 'string' },
  'grep': { type: 'string' },
  'grep-invert': { type: 'string' },
  'config': { type: 'string' },
  'report': { type: 'string' },
  'workers': { type: 'string' },
  'fault': { type: 'string', multiple: true },
  'allow-incomplete': { type: 'boolean' },
  'list': { type: 'boolean' },
  'describe': { type: 'boolean' },
  'reporter': { type: 'string' },
  'lifetimes': { type: 'string' },
  ...GATE_FLAGS,
} as const;

/** PIS_GLOBAL_TIMEOUT_S: seconds the whole run may take (0 or unset: no limit). */
function globalTimeoutS(value: string | undefined): number {
  const s = Number(value ?? 0);
  if (!Number.isFinite(s) || s < 0) throw new HarnessError('PIS_BAD_CONFIG', `PIS_GLOBAL_TIMEOUT_S is '${value}': give a number of seconds, 0 for no limit.`);
  return s;
}

export const command: Command = {
  name: 'run',
  help: HELP,
  async run(argv) {
    const parsed = parseFlags('run', HELP, argv, FLAGS);
    if (!parsed) return 0;
    const v = parsed.values;
    const flags = fromFlags(v);
    const file = v.config ? loadConfigFile(v.config) : { config: {} as PartialConfig, suites: undefined };
    const env = fromEnv(process.env);
    const suites = chooseSuites(v.suites ?? file.suites);
    const workers = numberFlag('workers', v.workers, DEFAULT_WORKERS, { min: 1, integer: true });
    const reporter = reporterFlag(v.reporter);
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
    const faults = (v.fault ?? []).flatMap(f => f.split(',')).map(f => f.trim()).filter(Boolean);
    const dir = reportDirFlag(v.report, defaultReportDir);
    const gates = readGates(v);
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
      const allowIncomplete = v['allow-incomplete'] === true;
      const choice: RunChoice = { suites, ...greps, profile: cfg.profile, apiVersion: cfg.apiVersion };
      // The one selection: --list prints it, the webhook drive and the start-first watches go by it, Playwright runs it.
      const selected = await select(choice);
      const selection = selectionOf(choice, { timeScale: cfg.timeScale, maxWaitS: cfg.maxWaitS, allowIncomplete });
      if (detection) selection.apiVersionDetected = detection.findings;
      // The banks asked for; the data.banks.list and payments.domestic.initiate evidence names the ones visited.
      if (suites.includes('data') || suites.includes('payments')) selection.banks = describeBanks(cfg.banks ?? DEFAULT_BANKS);
      const header = { command: 'run', target: { ...reportTarget(cfg), ...(clock.source ? { timeScaleSource: clock.source } : {}) }, timeScale: cfg.timeScale,
        selection };
      const scratch = makeScratch();
      const notes = new PassThrough();
      // The longest wait first: the webhook drive needs the control API and the sink, not Playwright.
      const drive = cfg.controlUrl && selectsWebhookCheck(selected.checks) ? startWebhookDrive(cfg, { scratch: scratch.dir, redactor, notes }) : undefined;
      try {
        if (drive) human.write('Driving the webhook checkouts through the control API, beside the suites...\n');
        human.write(`Starting the suites (${suites.join(', ')}) in up to ${workers} Playwright workers...\n`);
        const target = splitTarget(cfg);
        const out = await runPlaywright({
          checks: selected.checks, notSelected: selected.notSelected, scratch: scratch.dir, ...(drive ? { notes } : {}), secrets: target.env,
          context: {
            target: target.open, requirementWindows: [...requirementWindows()], ...(drive ? { webhookRunFile: drive.file } : {}),
            report: { reportDir: dir, header, stdout: reporter, secretVariables: [...SECRET_VARIABLES] },
            playwright: { workers, maxWaitS: cfg.maxWaitS, globalTimeoutS: globalTimeoutS(process.env.PIS_GLOBAL_TIMEOUT_S) },
          },
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

function finish(dir: string, out: Awaited<ReturnType<typeof runPlaywright>>, reporter: StdoutReporter, allowIncomplete: boolean): number {
  const status = out.status;
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
