// The run context (suites/support/context.ts): one document from `run` to
// Playwright's runner, reporter and workers, checked as it is decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRunContext, encodeRunContext, RUN_CONTEXT_ENV, runContext } from '../../suites/support/context.ts';
import { testContext } from '../helpers/context.ts';

test('a context comes back as it left, in one variable', () => {
  const ctx = testContext({ authUrl: 'http://127.0.0.1:1', clientId: 'c', timeScale: 0.1 }, ['token.issue.access-token']);
  const env = encodeRunContext(ctx);
  assert.deepEqual(Object.keys(env), [RUN_CONTEXT_ENV]);
  assert.deepEqual(decodeRunContext(env[RUN_CONTEXT_ENV]!), ctx);
  assert.throws(() => encodeRunContext({ ...ctx, selected: Array.from({ length: 5000 }, (_, i) => `token.issue.check-${i}`) }),
    /more than one environment variable holds/);
});

test('a broken context is an internal error that names the field; none at all says to start the suites with run', () => {
  const ctx = testContext({});
  const code = (c: string, text: RegExp) => (e: Error & { code?: string }) => e.code === c && text.test(e.message);
  assert.throws(() => decodeRunContext('{'), code('PIS_INTERNAL', /PIS_RUN_CONTEXT is not JSON/));
  assert.throws(() => decodeRunContext(JSON.stringify({ ...ctx, runPid: 'x' })), code('PIS_INTERNAL', /a string as runPid \(a number expected\)/));
  assert.throws(() => decodeRunContext(JSON.stringify({ ...ctx, report: { ...ctx.report, reportDir: undefined } })),
    code('PIS_INTERNAL', /no report\.reportDir/));
  assert.doesNotThrow(() => decodeRunContext(JSON.stringify({ ...ctx, webhookRunFile: undefined })), 'an optional field may be missing');
  assert.throws(() => runContext({}), code('PIS_MISSING_OPTION', /start the suites with 'pis-conformance run'/));
});
