// The webhook suite (spec 2.2-2.5, 3.1, 4.3, 6): the target as webhook sender.
// One drive makes every probe at once (harness/sink/plan.ts: 200, 500, other
// codes, answers after 4 s and 6 s, a reset, a chain of three failures), so the
// suite lasts about as long as its longest mandated chain; then each check is
// one Playwright test reading its result. The checks, their spec sentences and
// their levels live in harness/sink/analysis/ (one file per concern), because
// the `sink` command judges with the very same code.
import { test } from '@playwright/test';
import { WEBHOOK_CHECKS } from '../harness/sink/analysis/index.ts';
import type { CheckResult } from '../harness/report/model.ts';
import { DELIVERIES_ATTACHMENT } from '../harness/report/playwright-reporter.ts';
import { CHECK_ANNOTATION, CHECK_ATTACHMENT } from './support/check.ts';
import { redactor, target } from './support/target.ts';
import { DRIVE_CAP_MS, forgetWebhookRun, webhookRun } from './checks/webhook/run.ts';

const noControl = 'no control URL was given (--control-url or PIS_CONTROL_URL), so the harness cannot create checkouts to watch (CONTRACT.md section 4)';
const FIRST = WEBHOOK_CHECKS[0].id;
const LAST = WEBHOOK_CHECKS[WEBHOOK_CHECKS.length - 1].id;

for (const info of WEBHOOK_CHECKS) {
  const meta = { id: info.id, suite: 'webhook' as const, title: info.title, spec: info.spec, level: info.level };
  test(`${info.id} ${info.title}`, { annotation: [{ type: CHECK_ANNOTATION, description: JSON.stringify(meta) }] }, async ({}, testInfo) => {
    const t = target();
    // The longest drive, compressed clock counted, plus a minute for a slow target.
    testInfo.setTimeout(DRIVE_CAP_MS * t.timeScale + 60_000);
    let result: CheckResult;
    if (!t.controlUrl) result = { ...meta, status: 'skipped', message: noControl, evidence: [], durationMs: 0 };
    else {
      const run = await webhookRun().catch((e: unknown) => (e as Error)?.message ?? String(e));
      if (typeof run === 'string') {
        // The drive could not be made: the first check says why, the others are not checked
        // (failing each would restart Playwright's worker twenty times for one cause).
        if (info.id === LAST) forgetWebhookRun();
        const why = `the webhook probes could not be run: ${run}`;
        result = info.id === FIRST ? { ...meta, status: 'failed', message: why, evidence: [], durationMs: 0 }
          : { ...meta, status: 'skipped', message: `not checked: ${why}`, evidence: [], durationMs: 0 };
        await testInfo.attach(CHECK_ATTACHMENT, { body: JSON.stringify(redactor.value(result)), contentType: 'application/json' });
        if (result.status === 'skipped') test.skip(true, result.message); // the reason is the check's own skip message
        throw new Error(why);
      }
      const found = run.checks.find(c => c.id === info.id)!;
      const first = info.id === FIRST;
      // The control API exchanges go with the first check, the drive's time with it too.
      result = redactor.value({ ...found, durationMs: first ? Math.round(run.realMs) : 0,
        evidence: first ? [...found.evidence, ...run.drive.control] : found.evidence });
      if (info.id === LAST) forgetWebhookRun();
      if (first) {
        await testInfo.attach(DELIVERIES_ATTACHMENT, { body: JSON.stringify(redactor.value(run.deliveries)), contentType: 'application/json' });
      }
    }
    await testInfo.attach(CHECK_ATTACHMENT, { body: JSON.stringify(result), contentType: 'application/json' });
    if (result.status === 'skipped') test.skip(true, result.message); // the reason is the check's own skip message
    if (result.status === 'failed') throw new Error(result.message);
  });
}
