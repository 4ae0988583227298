// The webhook suite's one long action: start the sink, drive the target's
// checkouts through its control API (harness/sink/drive.ts), then judge
// everything the sink recorded with the same pure analysis the `sink` command
// uses. Run once per worker; every webhook check reads its result from here.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { driveCheckouts, type DriveProgress, type DriveResult } from '../../../harness/sink/drive.ts';
import { keyForms, webhookKeys } from '../../../harness/sink/keys.ts';
import { analyzeRun, type Analysis } from '../../../harness/sink/analysis/index.ts';
import { startSink, type SinkOptions } from '../../../harness/sink/server.ts';
import { HarnessError } from '../../../harness/errors.ts';
import { redactor, seedRedactor, target } from '../../support/target.ts';
import { announceWait } from '../../support/check.ts';

export interface WebhookRun extends Analysis { drive: DriveResult; realMs: number }

/** Spec ms the drive may take at most: a sender with one global queue serialises every chain. */
export const DRIVE_CAP_MS = 15 * 60_000;

let once: Promise<WebhookRun> | undefined;

/**
 * Playwright starts a new worker after a failed test, and module state goes
 * with the old one; the drive must not run twice, so its result is kept in a
 * file. The file holds every body the sink recorded, so it lives in the run's
 * private temp folder (mode 0700, a random name, made by `run` and removed by
 * it in every outcome, see harness/runner/playwright.ts), never in the shared
 * temp folder where another user could read it or plant one.
 */
function cacheFile(): string {
  const dir = process.env.PIS_SCRATCH_DIR;
  if (!dir) throw new HarnessError('PIS_MISSING_OPTION', "PIS_SCRATCH_DIR is not set: start the suites with 'pis-conformance run', which sets it.");
  return join(dir, 'webhook-run.json');
}

function keep(value: unknown): void {
  writeFileSync(cacheFile(), JSON.stringify(value), { mode: 0o600 });
}

export function webhookRun(): Promise<WebhookRun> {
  once ??= existsSync(cacheFile()) ? fromCache() : run().then(
    r => { keep(r); return r; },
    // A drive that could not be made (the control API refused an allowed checkout)
    // is not retried by every later check: they all report the same reason.
    (e: unknown) => { keep({ error: (e as Error)?.message ?? String(e) }); throw e; });
  return once;
}

async function fromCache(): Promise<WebhookRun> {
  const kept = JSON.parse(readFileSync(cacheFile(), 'utf8')) as WebhookRun | { error: string };
  if ('error' in kept) throw new Error(kept.error);
  return kept;
}

/** Removes the kept result (after the suite's last check). */
export function forgetWebhookRun(): void {
  rmSync(cacheFile(), { force: true });
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

/** The drive on the terminal's status line: what it still waits for, and its cap as the bound of what is left. */
function showDrive(p: DriveProgress): void {
  const names = p.pending.slice(0, 4).join(', ') + (p.pending.length > 4 ? ` and ${p.pending.length - 4} more` : '');
  announceWait({
    key: 'webhook', bound: true, untilMs: Date.now() + p.capMs - p.elapsedMs,
    what: `webhook: ${p.chains - p.pending.length} of ${p.chains} checkouts delivered${p.pending.length ? ` (waiting for ${names}: retries back off 10 s and more)` : ', watching for late duplicates'}; ${p.attempts} attempts, ${Math.round(p.elapsedMs / 1000)} s so far`,
  });
}

async function run(): Promise<WebhookRun> {
  const t = target();
  seedRedactor();
  // We are the merchant registering the webhook: without a configured key we pick one.
  // A configured key is the one the target knows; else each checkout gets a key of another shape (spec 5.4).
  const keys = t.webhookApiKey ? [t.webhookApiKey] : webhookKeys();
  const apiKey = keys[0];
  for (const k of keys) for (const form of keyForms(k)) redactor.add(form, 'PIS_WEBHOOK_API_KEY');
  const started = performance.now();
  const sink = await startSink({ host: t.sinkHost, port: t.sinkPort, timeScale: t.timeScale, publicUrl: t.publicSinkUrl, tls: sinkTls(), apiKey });
  try {
    const drive = await driveCheckouts({ sink, controlUrl: t.controlUrl!, apiKey, keys, capMs: DRIVE_CAP_MS, redactor, onProgress: showDrive })
      .finally(() => announceWait({ key: 'webhook', what: '', end: true }));
    const analysis = analyzeRun(sink.attempts(), drive.plan, { timeScale: t.timeScale, apiKey, observedUntilMs: drive.observedUntilMs, schedulingDelayMs: sink.schedulingDelayMs() });
    return { ...analysis, drive, realMs: performance.now() - started };
  } finally {
    await sink.close();
  }
}
