// The webhook suite's one long action: start the sink, drive the target's
// checkouts through its control API (harness/sink/drive.ts), then judge
// everything the sink recorded with the same pure analysis the `sink` command
// uses. Run once per worker; every webhook check reads its result from here.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveCheckouts, type DriveResult } from '../../../harness/sink/drive.ts';
import { analyzeRun, type Analysis } from '../../../harness/sink/analysis/index.ts';
import { startSink, type SinkOptions } from '../../../harness/sink/server.ts';
import { HarnessError } from '../../../harness/errors.ts';
import { redactor, seedRedactor, target } from '../../support/target.ts';

export interface WebhookRun extends Analysis { drive: DriveResult; realMs: number }

/** Spec ms the drive may take at most: a sender with one global queue serialises every chain. */
export const DRIVE_CAP_MS = 15 * 60_000;

let once: Promise<WebhookRun> | undefined;

/**
 * Playwright starts a new worker after a failed test, and module state goes
 * with the old one; the drive must not run twice, so its result is kept in a
 * file named after the Playwright runner (the workers' parent process).
 */
const CACHE = join(tmpdir(), `pis-webhook-run-${createHash('sha256').update(`${process.ppid} ${process.env.PIS_REPORT_DIR ?? ''}`).digest('hex').slice(0, 16)}.json`);

/** A kept result from a run killed before its last check, under a reused process id, is not this run's. */
function fresh(): boolean {
  if (!existsSync(CACHE)) return false;
  const maxAgeMs = DRIVE_CAP_MS * target().timeScale + 15 * 60_000;
  return Date.now() - statSync(CACHE).mtimeMs < maxAgeMs;
}

export function webhookRun(): Promise<WebhookRun> {
  once ??= fresh() ? fromCache() : run().then(
    r => { writeFileSync(CACHE, JSON.stringify(r)); return r; },
    // A drive that could not be made (the control API refused an allowed checkout)
    // is not retried by every later check: they all report the same reason.
    (e: unknown) => { writeFileSync(CACHE, JSON.stringify({ error: (e as Error)?.message ?? String(e) })); throw e; });
  return once;
}

async function fromCache(): Promise<WebhookRun> {
  const kept = JSON.parse(readFileSync(CACHE, 'utf8')) as WebhookRun | { error: string };
  if ('error' in kept) throw new Error(kept.error);
  return kept;
}

/** Removes the kept result (after the suite's last check). */
export function forgetWebhookRun(): void {
  rmSync(CACHE, { force: true });
}

/**
 * Spec 4.3: the service calls the webhook over HTTPS. PIS_SINK_TLS=self-signed,
 * or PIS_SINK_TLS_CERT and PIS_SINK_TLS_KEY (PEM files), make the sink serve
 * HTTPS (an addition: `run` has no flag for it yet).
 */
function sinkTls(): SinkOptions['tls'] {
  const env = process.env;
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

async function run(): Promise<WebhookRun> {
  const t = target();
  seedRedactor();
  // We are the merchant registering the webhook: without a configured key we pick one.
  const apiKey = t.webhookApiKey || `pis-${randomBytes(12).toString('hex')}`;
  redactor.add(apiKey, 'PIS_WEBHOOK_API_KEY');
  const started = performance.now();
  const sink = await startSink({ host: t.sinkHost, port: t.sinkPort, timeScale: t.timeScale, publicUrl: t.publicSinkUrl, tls: sinkTls() });
  try {
    const drive = await driveCheckouts({ sink, controlUrl: t.controlUrl!, apiKey, capMs: DRIVE_CAP_MS, redactor });
    const analysis = analyzeRun(sink.attempts(), drive.plan, { timeScale: t.timeScale, apiKey, observedUntilMs: drive.observedUntilMs, schedulingDelayMs: sink.schedulingDelayMs() });
    return { ...analysis, drive, realMs: performance.now() - started };
  } finally {
    await sink.close();
  }
}
