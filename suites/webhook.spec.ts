// The webhook suite (spec 2.2-2.5, 3.1, 4.3, 6): the target as webhook sender.
// One drive makes every probe at once (harness/sink/plan.ts: 200, 500, other
// codes, answers after 4 s and 6 s, a reset, a chain of three failures), so the
// suite lasts about as long as its longest mandated chain; `run` makes it
// beside Playwright's start, and each check is one Playwright test reading its
// result. The checks, their spec sentences and their levels live in
// harness/sink/checks/ (one file per concern), because the `sink` command
// judges with the very same code.
import { WEBHOOK_CHECKS } from '../harness/sink/checks/index.ts';
import type { CheckResult } from '../harness/results/model.ts';
import { DELIVERIES_ATTACHMENT } from '../harness/report/playwright-reporter.ts';
import { checkTest } from './support/register.ts';
import { failed, notRun, toResult } from '../harness/check/outcome.ts';
import { seedRedactor, target } from './support/target.ts';
import { DRIVE_CAP_MS } from '../harness/sink/suite-run.ts';
import { specClock } from '../harness/clock.ts';
import { DriveStopped, forgetWebhookRun, webhookRun } from './checks/webhook/run.ts';

const noControl = 'no control URL was given (--control-url or PIS_CONTROL_URL), so the harness cannot create checkouts to watch (docs/control-api.md)';
const giveControl = 'give --control-url (the control API of docs/control-api.md) and --webhook-api-key';
const FIRST = WEBHOOK_CHECKS[0].id;
const LAST = WEBHOOK_CHECKS[WEBHOOK_CHECKS.length - 1].id;

for (const entry of WEBHOOK_CHECKS) {
  checkTest(entry, async (testInfo, meta): Promise<CheckResult> => {
    const t = target();
    // The longest drive, compressed clock counted, plus a minute for a slow target.
    testInfo.setTimeout(specClock(t.timeScale).toReal(DRIVE_CAP_MS) + 60_000);
    if (!t.controlUrl) return toResult(meta, notRun(noControl, giveControl), 0);
    const run = await webhookRun().catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    if (run instanceof Error) {
      if (entry.id === LAST) forgetWebhookRun();
      if (run instanceof DriveStopped) return toResult(meta, notRun(run.message), 0);
      // The drive could not be made: the first check says why, the others are not checked
      // (failing each would restart Playwright's worker twenty times for one cause).
      const why = `the webhook probes could not be run: ${run.message}`;
      return toResult(meta, entry.id === FIRST ? failed(why, undefined, undefined) : notRun(`not checked: ${why}`), 0);
    }
    const found = run.checks.find(c => c.id === entry.id)!;
    const first = entry.id === FIRST;
    if (entry.id === LAST) forgetWebhookRun();
    if (first) {
      const redactor = seedRedactor();
      await testInfo.attach(DELIVERIES_ATTACHMENT, { body: JSON.stringify(run.deliveries.map(a => redactor.attempt(a))), contentType: 'application/json' });
    }
    // The control API exchanges go with the first check, the drive's time with it too.
    return { ...found, durationMs: first ? Math.round(run.realMs) : 0, evidence: first ? [...found.evidence, ...run.control] : found.evidence };
  });
}
