// The webhook suite's drive, made by `run` itself: it needs the control API
// and the sink, not Playwright, and its backoff chain (10 + 20 + 40 spec s) is
// the longest wait of a run. So it starts as soon as the target is checked,
// beside Playwright's start, and keeps its outcome in the run's private
// scratch folder, where the suite's checks wait for it
// (suites/checks/webhook/run.ts). Its progress reaches the reporter's status
// line as wait notes on a pipe (harness/report/wait.ts); a stop signal ends it
// and closes the sink.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { HarnessError } from '../errors.ts';
import type { Redactor } from '../report/redact.ts';
import { encodeWait, type WaitNote } from '../report/wait.ts';
import type { TargetConfig } from '../config/config.ts';
import type { DriveProgress } from '../sink/drive.ts';
import type { SinkOptions } from '../sink/server.ts';
import { driveSuite, keepWebhookRun, type KeptWebhookRun } from '../sink/suite-run.ts';
import { onStop } from '../stop.ts';

/**
 * Spec 4.3: the service calls the webhook over HTTPS. PIS_SINK_TLS=self-signed,
 * or PIS_SINK_TLS_CERT and PIS_SINK_TLS_KEY (PEM files), make the sink serve
 * HTTPS (an addition: `run` has no flag for it yet).
 */
function sinkTls(env: NodeJS.ProcessEnv): SinkOptions['tls'] {
  if (env.PIS_SINK_TLS === 'self-signed') return 'self-signed';
  if (!env.PIS_SINK_TLS_CERT && !env.PIS_SINK_TLS_KEY) return undefined;
  if (!env.PIS_SINK_TLS_CERT || !env.PIS_SINK_TLS_KEY)
    throw new HarnessError('PIS_BAD_CONFIG', 'set both PIS_SINK_TLS_CERT and PIS_SINK_TLS_KEY (PEM files), or PIS_SINK_TLS=self-signed.');
  try {
    return { cert: readFileSync(env.PIS_SINK_TLS_CERT, 'utf8'), key: readFileSync(env.PIS_SINK_TLS_KEY, 'utf8') };
  } catch (e) {
    throw new HarnessError('PIS_TLS', `Cannot read the sink's TLS files (${(e as Error).message}): check PIS_SINK_TLS_CERT and PIS_SINK_TLS_KEY.`);
  }
}

/** The drive on the status line: what it still waits for, and its cap as the bound of what is left. */
function progressNote(p: DriveProgress): WaitNote {
  const names = p.pending.slice(0, 4).join(', ') + (p.pending.length > 4 ? ` and ${p.pending.length - 4} more` : '');
  const waiting = p.pending.length ? ` (waiting for ${names}: retries back off 10 s and more)` : ', watching for late duplicates';
  const delivered = `${p.chains - p.pending.length} of ${p.chains} checkouts delivered`;
  return {
    key: 'webhook', bound: true, untilMs: Date.now() + p.capMs - p.elapsedMs,
    what: `webhook: ${delivered}${waiting}; ${p.attempts} attempts, ${Math.round(p.elapsedMs / 1000)} s so far`,
  };
}

export interface WebhookDrive {
  /** Where the outcome will be kept: the suite's workers read it from the run context. */
  file: string;
  /** Ends the drive if it still runs (the suites are over, or were stopped) and waits until the sink is closed. */
  stop(): Promise<void>;
}

/**
 * Starts the drive against `cfg` (which names a control URL); its outcome, why
 * it could not be made, or that it was stopped, is kept in the run's `scratch`
 * folder.
 */
export function startWebhookDrive(cfg: TargetConfig, o: { scratch: string; redactor: Redactor; notes: Writable }): WebhookDrive {
  const file = join(o.scratch, 'webhook-run.json');
  const stopped = new AbortController();
  const off = onStop(() => stopped.abort());
  const note = (n: WaitNote) => { if (!o.notes.destroyed) o.notes.write(encodeWait(n)); };
  const drive = async () => {
    // Stopped before it began (Playwright ended at once): no checkout is made.
    stopped.signal.throwIfAborted();
    const sink = { host: cfg.sinkHost, port: cfg.sinkPort, timeScale: cfg.timeScale, publicUrl: cfg.publicSinkUrl, tls: sinkTls(process.env) };
    return driveSuite({
      sink, controlUrl: cfg.controlUrl!, apiKey: cfg.webhookApiKey, redactor: o.redactor, retryWaitMs: cfg.retryWaitS * 1000,
      longChains: cfg.longChains,
      onProgress: p => note(progressNote(p)), signal: stopped.signal,
      ...(cfg.description.control.honours ? { honours: cfg.description.control.honours } : {}),
    });
  };
  const keep = (kept: KeptWebhookRun) => {
    try { keepWebhookRun(file, kept); } catch (e) {
      // The checks wait for this file: they must learn why it will not come.
      if (!('checks' in kept)) process.stderr.write(`Could not keep the webhook drive's outcome: ${(e as Error).message}\n`);
      else keep({ error: `its outcome could not be kept (${(e as Error).message})` });
    }
  };
  // Begun on the next turn: the caller spawns Playwright first, which then loads on the other core
  // while this process compiles the contracts for the sink (startSink, half a second of CPU).
  const done = new Promise(setImmediate).then(drive).then(keep, (e: unknown) => {
    keep(stopped.signal.aborted ? { stopped: true } : { error: o.redactor.text((e as Error)?.message ?? String(e)) });
  }).finally(() => {
    off();
    note({ key: 'webhook', what: '', end: true });
  });
  return {
    file,
    async stop() {
      stopped.abort();
      await done;
    },
  };
}
