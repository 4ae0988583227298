// certify-receiver: plays the service's webhook sender against a merchant's
// receiver and writes the usual report folder (docs/cli.md, docs/report.md).
import { palette } from '../report/colour.ts';
import { humanStream, Terminal } from '../report/terminal.ts';
import { HarnessError } from '../errors.ts';
import { metaOf } from '../check/def.ts';
import { isWarning, type CheckResult } from '../results/model.ts';
import { formatSummary } from '../report/progress.ts';
import { verdictExit } from '../report/verdict.ts';
import { RECEIVER_CHECKS } from '../certify/checks.ts';
import { Redactor, shortSecretWarning } from '../report/redact.ts';
import { defaultReportDir, ReportWriter } from '../report/writer.ts';
import { certify, makePlan, planLine } from '../certify/certify.ts';
import { httpsNote } from '../certify/https.ts';
import { checkKey } from '../certify/key.ts';
import { INTERRUPTED_EXIT, onStop } from '../stop.ts';
import { DEFAULTS, type SenderOptions } from '../certify/options.ts';
import { readTimeScale } from '../clock.ts';
import { reportDirFlag, type Command } from './command.ts';
import { httpUrl, nonEmpty, numberIn, optionsHelp, parseOptions, REPORT_OPTION, REPORTER_OPTION, type CommandOption,
  type OptionValues } from './option-table.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import { lockReportFolder } from '../report/folder.ts';


const NO_URL = 'No receiver given: pass --url with the address of the webhook receiver.';
const NO_KEY = 'No api-key given: pass --api-key or set PIS_WEBHOOK_API_KEY to the key registered for the receiver.';

function stateUrl(text: string): string {
  if (!text.includes('{id}'))
    throw new HarnessError('PIS_BAD_FLAG', `--state-url must contain {id} where the checkout id goes, e.g. https://merchant.example/checkouts/{id}.`);
  return text;
}

/** Every option of certify-receiver: its flags, --help rows and docs/options.md come from here. */
export const OPTIONS = [
  { name: 'url', kind: 'value', arg: 'URL', help: "the receiver's URL (https://, or http:// while building)", required: NO_URL,
    read: httpUrl('https://merchant.example/webhooks') },
  { name: 'api-key', kind: 'value', arg: 'KEY', env: 'PIS_WEBHOOK_API_KEY', required: NO_KEY, read: nonEmpty(NO_KEY),
    help: 'the api-key registered for the receiver, any format; never written to the report' },
  { name: 'concurrency', kind: 'value', arg: 'N', default: DEFAULTS.concurrency, read: numberIn({ min: 1, integer: true }),
    help: 'checkouts delivered in parallel in a burst' },
  { name: 'max-requests', kind: 'value', arg: 'N', default: DEFAULTS.maxRequests, read: numberIn({ min: 1, integer: true }),
    help: 'refuse to start when the plan needs more requests' },
  { name: 'max-duration', kind: 'value', arg: 'S', shownDefault: `${DEFAULTS.maxDurationS}, at least 30 s real`, read: numberIn({ min: 1 }),
    help: 'stop sending after S spec seconds (time-scaled)', more: ['checks not measured by then are not-run and the verdict is Incomplete'] },
  { name: 'state-url', kind: 'value', arg: 'TEMPLATE', read: stateUrl,
    help: "e.g. https://merchant.example/checkouts/{id}: JSON with the checkout's status, read", more: [
      'until it settles (at most 5 s, time-scaled); runs the checks that the state is the last',
      'status after duplicates and bursts and follows each checkout by id, and judges a 2xx to',
      'a forged delivery by whether the state took it (without it those checks are not run',
      'and the verdict is Incomplete)'] },
  { name: 'time-scale', kind: 'value', arg: 'F', env: 'PIS_TIME_SCALE', default: DEFAULTS.timeScale, read: readTimeScale,
    help: '1 spec second = F real seconds, for a receiver on a compressed clock' },
  { name: 'insecure', kind: 'switch', help: 'accept a self-signed TLS certificate (test setups)' },
  REPORT_OPTION,
  REPORTER_OPTION,
  { name: 'allow-incomplete', kind: 'switch', help: 'exit 0 when no must check failed even though some could not run (e.g. without --state-url)' },
] as const satisfies readonly CommandOption[];

const HELP = `Usage: pis-conformance certify-receiver --url URL --api-key KEY [options]

Acts as the service's webhook sender (spec 4.3, 5.4, 6) and certifies a
merchant's webhook receiver: every body the service may send, wrong keys,
duplicates, parallel bursts, latency, garbage. Like the service, it waits 5 s
for an answer's status line and then gives up (spec 6.6), and sends a
checkout's next event only once the previous one was answered (6.8); once the
receiver is slow for sure, bodies whose answers cannot change the verdict are
not sent. Exit 0 conformant, 1 not conformant or incomplete (0 with
--allow-incomplete), 2 could not run or was stopped (the report keeps what was found).

Options:
${optionsHelp(OPTIONS)}

Checks (ids receiver.<prefix>.<name>; a failed should is a warning; a check whose
deliveries got no answer fails or is not run, never passes):
  accepts      exactly 200 to every body the service may send, each checkout in the order the service
               sends its events: normal and batch in every status, every move spec 3.1 allows, every
               TransactionStatus, each abortReason, both scheduled-date spellings, card payments,
               absent amounts and amounts as decimal strings, an event 6 days late, unknown extra
               fields, the older variant (should, spec 2.5), and null values (profile);
               over-https (should): the certified address serves HTTPS with a certificate that verifies
               (at http:// not applicable: a note at the top says HTTPS was not used)
  auth         a missing, wrong, same-length, empty, one-character-longer, truncated or case-changed
               api-key: the event leaves no trace in the state (a 2xx needs --state-url to be judged),
               and the delivery never goes unanswered; refused-with-4xx (should): a 4xx, not a 2xx or 5xx
  idempotency  an event delivered twice, three times, and again after 10 s gets 200 every time;
               tracks-by-id (should): two checkouts of one referenceId keep a state each
  concurrency  N checkouts in parallel, 3 events each in order: all 200, all within 5 s
  latency      p50/p95/p99/max per kind of delivery; every answer within 5 s, p99 under 1 s (should)
  robustness   malformed JSON, an empty body, a wrong content type, a 2 MB body: the next valid
               delivery still gets 200, and the garbage gets a 4xx (should)

Example:
  pis-conformance certify-receiver --url https://shop.example/webhooks/pis --api-key "$KEY"
`;

function options(v: OptionValues<typeof OPTIONS>): SenderOptions & { keyNote?: string } {
  const keyNote = checkKey(v['api-key']);
  return {
    url: v.url, apiKey: v['api-key'], timeScale: v['time-scale'], stateUrl: v['state-url'], insecure: v.insecure,
    concurrency: v.concurrency, maxRequests: v['max-requests'],
    ...(v['max-duration'] !== undefined ? { maxDurationS: v['max-duration'] } : {}),
    ...(keyNote ? { keyNote } : {}),
  };
}

const PROGRESS_EVERY_MS = 5_000;
const counter = (sent: number, total: number) => `[${String(sent).padStart(String(total).length)}/${total}]`;

const MARK: Record<string, string> = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' };

function checkLine(c: CheckResult, p = palette()): string {
  const mark = isWarning(c) ? p.yellow('WARN') : c.status === 'failed' ? p.red(MARK[c.status])
    : c.status === 'passed' ? p.green(MARK[c.status]) : p.grey(MARK[c.status]);
  return `  ${mark} ${c.id} [${c.level}, spec ${c.spec}]${c.status === 'passed' ? '' : `: ${c.message ?? ''}`}`;
}

export const command: Command = {
  name: 'certify-receiver',
  help: HELP,
  options: OPTIONS,
  async run(argv) {
    const v = parseOptions('certify-receiver', HELP, argv, OPTIONS);
    if (!v) return 0;
    const opts = options(v);
    const dir = reportDirFlag(v.report, defaultReportDir);
    lockReportFolder(dir);
    const redactor = new Redactor().add(opts.apiKey, 'PIS_WEBHOOK_API_KEY');
    for (const p of redactor.shortSecrets) process.stderr.write(shortSecretWarning(p) + '\n');
    const plan = makePlan(opts);
    const term = new Terminal(v.reporter, process.stdout, process.stderr, process.env,
      checkLine);
    const human = humanStream(term.mode);
    if (opts.keyNote) process.stderr.write(`pis-conformance certify-receiver: note: ${opts.keyNote}.\n`);
    human.write(planLine(plan, opts) + '\n');
    const plain = httpsNote(opts);
    if (plain) human.write(`note: ${plain}.\n`);
    // Created once the pre-flight passed, so a run that cannot reach the receiver leaves no empty report folder;
    // from then on a stop signal still leaves a report of what was found.
    let writer: ReportWriter | undefined;
    let lastLine = performance.now();
    const allowIncomplete = v['allow-incomplete'];
    term.allowIncomplete = allowIncomplete;
    const selection = { timeScale: opts.timeScale, concurrency: opts.concurrency, stateUrl: opts.stateUrl !== undefined, allowIncomplete };
    const open = () => writer ??= new ReportWriter(dir, { command: 'certify-receiver',
      target: { receiverUrl: redactUrlUserinfo(opts.url), stateUrl: opts.stateUrl && redactUrlUserinfo(opts.stateUrl) }, timeScale: opts.timeScale, selection },
      redactor, { selected: RECEIVER_CHECKS.map(metaOf) });
    const stop = new AbortController();
    let off = () => {};
    await certify(opts, plan, redactor, {
      ready: () => { open(); off = onStop(() => stop.abort()); },
      check: c => term.check(open().add(c)),
      phase: (name, sent, total) => { lastLine = performance.now(); human.write(`${counter(sent, total)} ${name}\n`); },
      // A pause is silence by design: a line says how long and why.
      pause: (ms, why) => { lastLine = performance.now(); human.write(`… waiting ${(ms / 1000).toFixed(1)} s: ${why}\n`); },
      // A phase against a slow receiver can take minutes: a line every few seconds shows the run is alive.
      sent: (sent, total) => {
        if (performance.now() - lastLine < PROGRESS_EVERY_MS) return;
        lastLine = performance.now();
        human.write(`${counter(sent, total)} sent\n`);
      },
    }, stop.signal);
    off();
    const results = open().finish({ interrupted: stop.signal.aborted });
    term.end(results.checks, `${open().dir}/index.html`);
    human.write(formatSummary(results, `${open().dir}/index.html`) + '\n');
    return stop.signal.aborted ? INTERRUPTED_EXIT : verdictExit(results.summary.verdict, { allowIncomplete });
  },
};
