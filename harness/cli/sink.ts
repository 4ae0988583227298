// `pis-conformance sink`: a passive webhook sink for a sender the harness cannot
// drive (checkouts created by hand in a sandbox). Probes are handed out to
// checkouts as they first appear; after --duration or Ctrl-C the same analysis
// as the webhook suite writes the report.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { metaOf } from '../check/def.ts';
import { verdictExit } from '../report/verdict.ts';
import { formatSummary } from '../report/progress.ts';
import { humanStream, Terminal } from '../report/terminal.ts';
import { Redactor, shortSecretWarning } from '../report/redact.ts';
import { ReportWriter, defaultReportDir, type ReportHeader } from '../report/writer.ts';
import { analyzeRun, WEBHOOK_CHECKS } from '../sink/checks/index.ts';
import { LONG_CHAIN_FAILURES, PASSIVE_CYCLE, PASSIVE_LONG_CHAIN } from '../sink/plan.ts';
import { formatAttemptLine } from '../sink/live.ts';
import { STRANGER_SAMPLE, startSink, type Sink } from '../sink/server.ts';
import { forwarder } from '../sink/forward.ts';
import { RESPONSE_WAIT_MS } from '../sink/checks/view.ts';
import { readTimeScale, specClock, TOLERANCE_FLOOR_MS } from '../clock.ts';
import { reportDirFlag, type Command } from './command.ts';
import { httpUrl, nonEmpty, numberIn, optionsHelp, parseOptions, portOption, REPORT_OPTION, REPORTER_OPTION, type CommandOption,
  type OptionValues } from './option-table.ts';
import { onStop } from '../stop.ts';
import { lockReportFolder } from '../report/folder.ts';


const NO_PORT = 'give the port to listen on with --port P (0 picks a free one).';
const NO_KEY = 'give the api-key the sender must present with --api-key KEY or PIS_WEBHOOK_API_KEY.';

/** Every option of sink: its flags, --help rows and docs/options.md come from here. */
export const OPTIONS = [
  portOption('port to listen on (0: a free one, printed at start)', { required: NO_PORT }),
  { name: 'api-key', kind: 'value', arg: 'KEY', env: 'PIS_WEBHOOK_API_KEY', required: NO_KEY, read: nonEmpty(NO_KEY),
    help: 'the api-key the sender must present' },
  { name: 'duration', kind: 'value', arg: 'S', shownDefault: 'until Ctrl-C', read: numberIn({ min: 0 }), help: 'stop after S real seconds' },
  { name: 'host', kind: 'value', arg: 'H', default: '127.0.0.1', help: 'address to listen on' },
  { name: 'public-sink-url', kind: 'value', arg: 'URL', help: 'the address to register, when it differs (a tunnel)' },
  { name: 'time-scale', kind: 'value', arg: 'F', env: 'PIS_TIME_SCALE', default: 1, read: readTimeScale,
    help: "the sender's clock: 1 spec second = F real seconds" },
  { name: 'tls-cert', kind: 'value', arg: 'FILE', help: 'serve HTTPS with this PEM certificate (with --tls-key)' },
  { name: 'tls-key', kind: 'value', arg: 'FILE', help: 'the PEM key of --tls-cert' },
  { name: 'tls-self-signed', kind: 'switch', help: 'serve HTTPS with a generated self-signed certificate' },
  { name: 'timing-tolerance', kind: 'value', arg: 'MS', default: TOLERANCE_FLOOR_MS, read: numberIn({ min: 0 }),
    help: 'floor of every timing tolerance in real ms',
    more: [`a tolerance is max(${TOLERANCE_FLOOR_MS} ms, 2 %); raise it for a sender behind a slow tunnel`] },
  REPORT_OPTION,
  REPORTER_OPTION,
  { name: 'max-connections', kind: 'value', arg: 'N', default: 2_000, read: numberIn({ min: 1, integer: true }),
    help: 'open connections at most', more: ['past it the oldest stalled one is closed to make room for the new one'] },
  { name: 'allow-incomplete', kind: 'switch', help: 'exit 0 when no must check failed even though some could not be judged' },
  { name: 'forward-to', kind: 'value', arg: 'URL', read: httpUrl('http://127.0.0.1:3000/hooks'),
    help: 'watch and forward: pass every attempt on to URL (your receiver) and answer', more: [
      'the sender with its answer instead of the probes; the attempts are still',
      'judged, and the checks that need a provoked failure are not run'] },
  { name: 'answer-200', kind: 'switch', help: 'answer every attempt 200 at once instead of the probes (judged as above)' },
  { name: 'long-chains', kind: 'switch',
    help: `the first new checkout gets ${LONG_CHAIN_FAILURES} failures in a row (webhook.retry.long-chain: a sender`, more: [
    'that gives up on an event early); its chain takes about 630 s at time scale 1,',
    'so give --duration 900 or more; without it that check is not selected'] },
] as const satisfies readonly CommandOption[];


const HELP = `Usage: pis-conformance sink --port P --api-key KEY [--duration S] [options]

Listens for webhooks from a sender the harness cannot drive: create checkouts by
hand in a sandbox whose registered webhook points here. Each new checkout (told
apart by the body's id) takes first a probe of this cycle named for its kind,
then the next probe named for none, answering its first attempts (or those of its
events at the place named; a probe named for a normal or a batch checkout waits for
a checkout of that kind, and goes to the next one when its checkout ends without
the place, as one cancelled right after STARTED has no middle event):
${PASSIVE_CYCLE.map(p => `${p.name} (${p.answers.join(', ') || '200'}` +
  `${p.failAt ? ` at its ${p.failAt} event` : ''})`).join('; ')}.
Each attempt prints one line as soon as it is over: when it came, its checkout and
status, what the sink answered (and which probe), and whether the api-key was the
registered one (a wrong key is shown by its length and a short hash, never its value).
An attempt without the registered api-key is a stranger's, whatever checkout id it
names: it is answered 200, counted apart and never judged (anyone who finds the URL
can post to it); the report keeps the first ${STRANGER_SAMPLE} of them, the rest are counted.
After --duration seconds, or Ctrl-C (or SIGTERM, SIGHUP), it judges everything it recorded
(spec 2.2-2.5, 3.1, 4.3, 6) and writes the report folder, whose time span is the
whole session. A backoff chain of three failures takes
about 80 s at time scale 1: give at least --duration 180 for the backoff checks.

Options:
${optionsHelp(OPTIONS)}

Exit status: 0 conformant, 1 not conformant or incomplete (some must checks could not be judged),
2 the sink could not run.
`;

/** The probes' cycle, one plan that answers every attempt 200 (--answer-200), or none when every attempt is forwarded. */
const ANSWER_200 = [{ name: 'answer-200', answers: [] }];

function forwardUrl(v: string | undefined, answer200: boolean): string | undefined {
  if (v === undefined) return undefined;
  if (answer200) throw new HarnessError('PIS_BAD_FLAG', 'give --forward-to URL or --answer-200, not both: a forwarded attempt gets the answer of URL.');
  return new URL(v).href;
}

function readPem(flag: string, file: string): string {
  try { return readFileSync(file, 'utf8'); } catch (e) {
    throw new HarnessError('PIS_TLS',
      `Cannot read --${flag} ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give a readable PEM file.`);
  }
}

function tlsOption(v: OptionValues<typeof OPTIONS>) {
  if (v['tls-self-signed']) return 'self-signed' as const;
  if (!v['tls-cert'] && !v['tls-key']) return undefined;
  if (!v['tls-cert'] || !v['tls-key']) throw new HarnessError('PIS_BAD_FLAG', 'give both --tls-cert and --tls-key, or --tls-self-signed.');
  return { cert: readPem('tls-cert', v['tls-cert']), key: readPem('tls-key', v['tls-key']) };
}

/** Ends at the duration or at the first stop signal (Ctrl-C, SIGTERM, SIGHUP), whichever comes first. */
function untilStopped(durationS: number | undefined): Promise<string> {
  return new Promise(resolve => {
    let off = () => {};
    const stop = (why: string) => { clearTimeout(timer); off(); resolve(why); };
    const timer = durationS === undefined ? undefined : setTimeout(() => stop('duration reached'), durationS * 1000);
    off = onStop(signal => stop(signal === 'SIGINT' ? 'interrupted' : `${signal} received`));
  });
}

/** A line per attempt as it is over; on a terminal the counts stay on a live line below them. */
function progress(sink: Sink, out: NodeJS.WriteStream = process.stdout): () => void {
  const tty = out.isTTY;
  const t0 = Date.now() - sink.nowMs();
  let last = '';
  const counts = () => {
    const s = sink.stats();
    return `checkouts ${s.checkouts} · attempts ${s.attempts} · failures provoked ${s.failuresProvoked} · retries seen ${s.retriesSeen}` +
      `${s.unattributed ? ` · ${s.unattributed} not attributed` : ''}${s.open ? ` · ${s.open} open` : ''}`;
  };
  const off = sink.onAttempt(d => {
    const line = formatAttemptLine(d, t0);
    out.write(tty ? `\r\x1b[K${line}\n${counts()}` : `${line}\n`);
  });
  const tick = () => {
    const line = counts();
    if (line === last) return;
    last = line;
    if (tty) out.write(`\r\x1b[K${line}`);
  };
  // Without a terminal the counts go out every 10 s, so a log shows the sink is alive.
  const t = setInterval(tty ? tick : () => out.write(`${counts()}\n`), tty ? 500 : 10_000);
  return () => { off(); clearInterval(t); out.write(tty ? `\r\x1b[K${counts()}\n` : `${counts()}\n`); };
}

/** The report folder, made at the start: a folder that cannot be written is said now, not after the session. */
function openReport(dir: string, header: ReportHeader, redactor: Redactor): ReportWriter {
  try {
    return new ReportWriter(dir, header, redactor, { selected: WEBHOOK_CHECKS.map(metaOf) });
  } catch (e) {
    throw new HarnessError('PIS_BAD_FLAG',
      `Cannot write the report folder ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give a writable folder with --report.`,
      { cause: e });
  }
}

export const command: Command = {
  name: 'sink',
  help: HELP,
  options: OPTIONS,
  async run(argv) {
    const v = parseOptions('sink', HELP, argv, OPTIONS);
    if (!v) return 0;
    const { port, duration, 'api-key': apiKey, 'time-scale': timeScale, 'timing-tolerance': toleranceFloorMs, 'max-connections': maxConnections } = v;
    const reportDir = reportDirFlag(v.report, defaultReportDir);
    lockReportFolder(reportDir);
    const redactor = new Redactor().add(apiKey, 'PIS_WEBHOOK_API_KEY');
    for (const p of redactor.shortSecrets) process.stderr.write(shortSecretWarning(p) + '\n');
    const answer200 = v['answer-200'];
    const forwardTo = forwardUrl(v['forward-to'], answer200);
    // The sender waits 5 spec s for an answer (spec 6.6): the receiver gets as long.
    const fw = forwardTo ? forwarder(forwardTo, specClock(timeScale).toReal(RESPONSE_WAIT_MS)) : undefined;
    const sink = await startSink({
      host: v.host, port, timeScale, tls: tlsOption(v),
      publicUrl: v['public-sink-url'], apiKey, maxConnections,
      ...(answer200 ? { passive: ANSWER_200 } : v['long-chains'] ? { passive: [PASSIVE_LONG_CHAIN, ...PASSIVE_CYCLE] } : {}),
      ...(fw ? { forward: fw.forward } : {}),
    }).catch(async e => { await fw?.close(); throw e; });
    let stopLine: (() => void) | undefined;
    try {
      const allowIncomplete = v['allow-incomplete'];
      const selection = { timeScale, allowIncomplete, ...(duration !== undefined ? { durationS: duration } : {}) };
      const writer = openReport(reportDir, { command: 'sink', target: { sinkUrl: sink.url }, timeScale, selection }, redactor);
      const stopped = untilStopped(duration);
      const term = new Terminal(v.reporter);
      term.allowIncomplete = allowIncomplete;
      const human = humanStream(term.mode);
      const mode = forwardTo ? `; every attempt is passed on to ${forwardTo} and answered with its answer`
        : answer200 ? '; every attempt is answered 200' : '';
      human.write(`sink listening at ${sink.url} (register it as the webhook URL, api-key from --api-key)${mode}` +
        `${duration !== undefined ? `; stopping after ${duration} s` : '; Ctrl-C to stop'}\n`);
      stopLine = progress(sink, human);
      const why = await stopped;
      stopLine(); stopLine = undefined;
      const until = sink.nowMs();
      const { checks, deliveries } = analyzeRun(sink.attempts(), sink.plan(),
        { timeScale, apiKey, observedUntilMs: until, toleranceFloorMs, schedulingDelayMs: sink.schedulingDelayMs(),
          strangersNotKept: sink.stats().unattributed - sink.stats().strangersKept, longChains: v['long-chains'] });
      for (const c of checks) term.check(writer.add({ ...c, durationMs: until }));
      if (!deliveries.length)
        process.stderr.write(`no webhook arrived at ${sink.url}: check the URL registered for the sender and that it can reach this address.\n`);
      const results = writer.finish({ deliveries });
      term.end(results.checks, join(writer.dir, 'index.html'));
      human.write(`sink stopped (${why}).\n${formatSummary(results, join(writer.dir, 'index.html'))}\n`);
      return verdictExit(results.summary.verdict, { allowIncomplete });
    } finally {
      stopLine?.();
      await sink.close();
      await fw?.close();
    }
  },
};
