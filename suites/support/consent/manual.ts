// The manual driver: prints the link for a person to open, then asks the target
// every few seconds whether they are done, with progress, until the wait budget
// (at least five minutes: people are slower than --max-wait assumes) runs out.
import { Prerequisite } from '../check.ts';
import { target } from '../target.ts';
import type { ConsentOutcome, ConsentTask } from './task.ts';

/** Arbitrary: often enough to go on soon after the user is done, rarely enough not to load a sandbox. */
const POLL_MS = 3000;
const PROGRESS_MS = 15000;

function manualTimeoutS(): number {
  return Math.max(300, target().maxWaitS);
}

export async function manual(task: ConsentTask): Promise<ConsentOutcome> {
  const limitMs = manualTimeoutS() * 1000;
  const started = performance.now();
  process.stdout.write(`\n>>> Open this link in a browser and complete the ${task.what}:\n    ${task.href}\n    (waiting up to ${manualTimeoutS()} s)\n`);
  task.c?.note(`manual ${task.what}: the link was shown to the user`);
  let lastProgress = started;
  while (performance.now() - started < limitMs) {
    if (await task.done()) {
      process.stdout.write(`>>> ${task.what} done, thank you.\n`);
      return {}; // where the person's browser went is not seen here
    }
    await new Promise(r => setTimeout(r, POLL_MS));
    if (performance.now() - lastProgress >= PROGRESS_MS) {
      lastProgress = performance.now();
      process.stdout.write(`    still waiting for the ${task.what} (${Math.round((performance.now() - started) / 1000)} s of ${manualTimeoutS()} s)\n`);
    }
  }
  throw new Prerequisite(`the ${task.what} was not completed within ${manualTimeoutS()} s`);
}
