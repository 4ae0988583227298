// The webhook suite's one long action, made by `run` itself: it starts the
// sink and drives the target's checkouts as soon as the target is checked,
// beside Playwright's start (harness/runner/webhook.ts), and keeps the judged
// outcome in the run's private temp folder. Every webhook check reads it from
// here, waiting for it while the drive runs.
import { watch, rmSync, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { HarnessError } from '../../../harness/errors.ts';
import { readWebhookRun, type KeptWebhookRun, type WebhookRun } from '../../../harness/sink/suite-run.ts';
import { thisRun } from '../../support/context.ts';
import { perPart, thisPart } from '../../support/part.ts';

/**
 * Arbitrary: how often the file is looked for besides the folder's change
 * events (which a file system may not deliver); short against the drive's
 * seconds, cheap for the worker.
 */
const POLL_MS = 250;

const once = perPart(() => ({ value: undefined as Promise<WebhookRun> | undefined }));

/** The run was stopped before the drive ended: there is nothing to judge, and nothing went wrong. */
export class DriveStopped extends Error {}

function runFile(): string {
  const file = thisRun(thisPart).webhookRunFile;
  if (!file)
    throw new HarnessError('PIS_INTERNAL', 'The run context names no webhook drive although a webhook check runs: ' +
      "start the suites with 'pis-conformance run', which drives the checkouts for them.");
  return file;
}

/**
 * The drive's outcome, once `run` has kept it. Playwright starts a new worker
 * after a failed test, and module state goes with the old one; the file stays
 * until the suite's last check has read it.
 */
export function webhookRun(): Promise<WebhookRun> {
  return once().value ??= waitForRun(runFile()).then(kept => {
    // A drive that could not be made: every check reports the same reason.
    if ('error' in kept) throw new Error(kept.error);
    if ('stopped' in kept) throw new DriveStopped('the run was stopped before the webhook drive ended');
    return kept;
  });
}

/** Resolves with the kept outcome as soon as the file is there (the test's timeout bounds the wait). */
function waitForRun(file: string): Promise<KeptWebhookRun> {
  return new Promise((resolve, reject) => {
    let watcher: FSWatcher | undefined;
    const look = () => {
      let kept: KeptWebhookRun | undefined;
      try { kept = readWebhookRun(file); } catch (e) { finish(); reject(e); return; }
      if (kept) { finish(); resolve(kept); }
    };
    const finish = () => { watcher?.close(); clearInterval(timer); };
    const timer = setInterval(look, POLL_MS);
    try {
      watcher = watch(dirname(file), (_event, name) => { if (name === basename(file)) look(); });
    } catch { /* no change events here: the poll finds it */ }
    look();
  });
}

/** Removes the kept result (after the suite's last check). */
export function forgetWebhookRun(): void {
  const file = thisRun(thisPart).webhookRunFile;
  if (file) rmSync(file, { force: true });
}
