// The webhook suite's drive as `run` makes it: the sink started, the target's
// checkouts driven through its control API (drive.ts), everything the sink
// recorded judged by the analysis the `sink` command uses, and the outcome kept
// in a file that the suite's checks read. `run` makes the drive in its own
// process as soon as the target is checked (harness/runner/webhook.ts), so the
// suite's longest wait runs beside Playwright's start instead of after it.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { CheckResult, DeliveryAttempt, HttpEvidence } from '../results/model.ts';
import type { Redactor } from '../report/redact.ts';
import { analyzeRun } from './checks/index.ts';
import type { ControlExtension } from '../contracts/types.ts';
import { driveCheckouts, type DriveProgress } from './drive.ts';
import { keyForms, webhookKeys } from './keys.ts';
import { LONG_CHAIN_PLAN, SUITE_PLANS } from './plan.ts';
import { startSink, type SinkOptions } from './server.ts';

/** Spec ms the drive may take at most: a sender with one global queue serialises every chain. */
export const DRIVE_CAP_MS = 15 * 60_000;

/** What the suite's checks read, every secret already redacted. */
export interface WebhookRun {
  checks: CheckResult[];
  /** Every attempt, for results.json's deliveries and the timeline. */
  deliveries: DeliveryAttempt[];
  /** The control API exchanges. */
  control: HttpEvidence[];
  /** Real ms from the sink's start to the analysis. */
  realMs: number;
}

/**
 * A drive that could not be made (the control API refused an allowed checkout,
 * the sink could not listen) keeps why; one that the run's stop ended keeps
 * that, so that no check waits for an outcome that will not come.
 */
export type KeptWebhookRun = WebhookRun | { error: string } | { stopped: true };

export interface SuiteDriveOptions {
  /** Where the sink listens and on which clock; its api-key is chosen here. */
  sink: Omit<SinkOptions, 'apiKey' | 'passive'>;
  controlUrl: string;
  /** The api-key the target knows (--webhook-api-key); without one each checkout gets a key of another shape (spec 5.4). */
  apiKey?: string;
  /** Learns every key before any evidence is recorded; redacts what is kept. */
  redactor: Redactor;
  onProgress?: (p: DriveProgress) => void;
  signal?: AbortSignal;
  /** The optional checkout fields the target description says the control API honours (absent: learnt from the 201 echo). */
  honours?: readonly ControlExtension[];
  /** Spec ms the drive waits for a sender's next attempt (--retry-wait; default RETRY_WAIT_BOUND_MS). */
  retryWaitMs?: number;
  /** Drives the long chain too (--long-chains): about 630 spec s more (plan.ts LONG_CHAIN_PLAN). */
  longChains?: boolean;
}

export async function driveSuite(o: SuiteDriveOptions): Promise<WebhookRun> {
  // We are the merchant registering the webhook: without a configured key we pick them.
  const keys = o.apiKey ? [o.apiKey] : webhookKeys();
  const apiKey = keys[0]!;
  for (const k of keys) for (const form of keyForms(k)) o.redactor.add(form, 'PIS_WEBHOOK_API_KEY');
  const started = performance.now();
  const sink = await startSink({ ...o.sink, apiKey });
  try {
    const drive = await driveCheckouts({
      sink, controlUrl: o.controlUrl, apiKey, keys, capMs: DRIVE_CAP_MS, redactor: o.redactor,
      ...(o.longChains ? { plans: [...SUITE_PLANS, LONG_CHAIN_PLAN] } : {}),
      ...(o.retryWaitMs !== undefined ? { retryWaitMs: o.retryWaitMs } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}), ...(o.signal ? { signal: o.signal } : {}),
      ...(o.honours ? { honours: o.honours } : {}),
    });
    const analysis = analyzeRun(sink.attempts(), drive.plan,
      { timeScale: sink.timeScale, apiKey, observedUntilMs: drive.observedUntilMs, schedulingDelayMs: sink.schedulingDelayMs(),
        strangersNotKept: sink.stats().unattributed - sink.stats().strangersKept, longChains: o.longChains === true,
        ...(o.retryWaitMs !== undefined ? { retryWaitMs: o.retryWaitMs } : {}) });
    return {
      checks: analysis.checks.map(c => o.redactor.result(c)),
      deliveries: analysis.deliveries.map(a => o.redactor.attempt(a)),
      control: drive.control,
      realMs: performance.now() - started,
    };
  } finally {
    await sink.close();
  }
}

/**
 * Writes the outcome whole or not at all (a reader polls for the file): to a
 * side file first, then renamed. Mode 0600 in the run's private folder, like
 * everything the run keeps there.
 */
export function keepWebhookRun(file: string, kept: KeptWebhookRun): void {
  const part = `${file}.part`;
  try {
    writeFileSync(part, JSON.stringify(kept), { mode: 0o600 });
    renameSync(part, file);
  } finally {
    rmSync(part, { force: true });
  }
}

/** The kept outcome, or undefined while there is none yet. */
export function readWebhookRun(file: string): KeptWebhookRun | undefined {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return JSON.parse(text) as KeptWebhookRun;
}
