// Turns registered checks into Playwright tests: one test per check, named by
// its id and title, carrying its registration as an annotation (so the
// reporter can name a check that ended without a result) and its CheckResult
// as an attachment. endCheck() is the one way a test hands its result over.
// In a batch of proof runs each part's checks are registered, and run, as
// that part (part.ts), in a describe block of its name.
import { test, type TestInfo } from './test.ts';
import { CHECK_ANNOTATION, CHECK_ATTACHMENT, requirementTags } from '../../harness/report/check.ts';
import { metaOf, type CheckMeta, type Registered } from '../../harness/check/def.ts';
import type { CheckResult } from '../../harness/results/model.ts';
import { CheckContext, settle, type Check } from './check.ts';
import { toResult } from '../../harness/check/outcome.ts';
import { redactor, target } from './target.ts';
import { checkExistsAt, requirementsAt } from '../../harness/requirements/versions.ts';
import { runContext } from './context.ts';
import { HarnessError } from '../../harness/errors.ts';
import { inPart, partNow, testsStarted } from './part.ts';
import { startWatches, takeWatches } from './start-first.ts';

export type { Check } from './check.ts';

/**
 * Declares the Playwright test of one check; `body` produces its result.
 * Profile checks are left out with --no-profile, checks of other API versions
 * than the run's (spec 9) always; the result names the requirements that
 * exist at the run's version.
 */
export function checkTest(r: Registered, body: (testInfo: TestInfo, meta: CheckMeta) => Promise<CheckResult>): void {
  const part = partNow();
  if (part === undefined) {
    throw new HarnessError('PIS_INTERNAL', `${r.id} was registered outside any part of a batch (registerChecks and perPartTests register inside one): ` +
      'this is a bug of the harness, please report it.');
  }
  // In a batch a check is registered inside its part, and only when that part selected it.
  if (isBatch() && !selectedBy(part).has(r.id)) return;
  const t = target();
  if (r.level === 'profile' && !t.profile) return;
  if (!checkExistsAt(r, t.apiVersion)) return;
  const meta = { ...metaOf(r), requirements: requirementsAt(r, t.apiVersion) };
  test(`${r.id} ${r.title}`, { tag: requirementTags(r), annotation: [{ type: CHECK_ANNOTATION, description: JSON.stringify(meta) }] }, async ({}, testInfo) => {
    testsStarted();
    await inPart(part, async () => endCheck(testInfo, await body(testInfo, meta)));
  });
}

const isBatch = () => runContext().runs.length > 1;
const selections = new Map<string, Set<string>>();
/** The ids a part of the run selected. */
function selectedBy(part: string): Set<string> {
  let s = selections.get(part);
  if (!s) selections.set(part, s = new Set(runContext().runs.find(r => r.name === part)?.selected ?? []));
  return s;
}

/**
 * Registers `register` once per part: for `run`'s one part as it is (its
 * selection comes on Playwright's command line); in a batch inside a describe
 * block named after each part that selected one of `ids`, run as that part
 * (part.ts), so that one Playwright project and one worker serve every part;
 * the watches the spec file named (startFirst) start as each part begins.
 */
function perPartTests(ids: readonly string[], register: () => void): void {
  if (!isBatch()) { register(); return; }
  const watches = takeWatches();
  for (const run of runContext().runs) {
    if (!ids.some(id => selectedBy(run.name).has(id))) continue;
    inPart(run.name, () => test.describe(run.name, () => {
      // The part's watches start with its first check, as in a run of that part alone.
      if (watches.length) test.beforeAll(() => { testsStarted(); startWatches(run.name, watches); });
      register();
    }));
  }
}

/**
 * Hands a check's result to the reporter and ends its test the way the result
 * says: attached (redacted: the worker knows the tokens), then skipped with the
 * check's own reason, failed with its message, or passed.
 */
function endCheck(testInfo: TestInfo, result: CheckResult): void {
  const clean = redactor.result(result);
  // Pushed: Playwright sends it to the runner as attach() does, without the step attach() adds around it, which
  // captures a source-mapped stack and makes the test's output folder.
  testInfo.attachments.push({ name: CHECK_ATTACHMENT, contentType: 'application/json', body: Buffer.from(JSON.stringify(clean)) });
  // The reason is the check's own: c.skip(reason) takes one, and the webhook
  // and receiver results carry theirs; a skip without one says so.
  if (clean.status === 'skipped') test.skip(true, clean.message ?? 'the check gave no reason for not running (a defect of the check)');
  if (clean.status === 'failed') {
    // Declared an expected failure first: Playwright restarts the worker after
    // an unexpected one, which would drop the suite's shared token, session and
    // running watches (the waits would start over). The verdict is read from
    // the attached result, never from Playwright's status.
    test.fail();
    throw new Error(clean.message);
  }
}

/** Registers the checks of one API suite, in order. */
export function registerChecks(checks: readonly Registered<Check>[]): void {
  perPartTests(checks.map(k => k.id), () => registerEach(checks));
}

function registerEach(checks: readonly Registered<Check>[]): void {
  for (const k of checks) {
    checkTest(k, async (testInfo, meta) => {
      const timeoutS = typeof k.timeoutS === 'function' ? k.timeoutS() : k.timeoutS;
      if (timeoutS) testInfo.setTimeout(timeoutS * 1000);
      const c = new CheckContext(k);
      const started = performance.now();
      const outcome = await settle(c, body => k.run(body), Math.max(1000, testInfo.timeout - 3000));
      return toResult(meta, outcome, Math.round(performance.now() - started));
    });
  }
}
