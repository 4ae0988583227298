// The run context (suites/support/context.ts): one document from `run` to
// Playwright's runner, reporter and workers, checked as it is decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRunContext, encodeRunContext, RUN_CONTEXT_ENV, runContext, thisRun } from '../../suites/support/context.ts';
import { testContext } from '../helpers/context.ts';

test('a context comes back as it left, in one variable', () => {
  const ctx = testContext({ authUrl: 'http://127.0.0.1:1', clientId: 'c', timeScale: 0.1 }, ['token.issue.access-token']);
  const env = encodeRunContext(ctx);
  assert.deepEqual(Object.keys(env), [RUN_CONTEXT_ENV]);
  assert.deepEqual(decodeRunContext(env[RUN_CONTEXT_ENV]!), ctx);
  assert.throws(() => encodeRunContext({ ...ctx, runs: [{ ...ctx.runs[0]!, selected: Array.from({ length: 5000 }, (_, i) => `token.issue.check-${i}`) }] }),
    /more than one environment variable holds/);
});

test('a broken context is an internal error that names the field; none at all says to start the suites with run', () => {
  const ctx = testContext({});
  const code = (c: string, text: RegExp) => (e: Error & { code?: string }) => e.code === c && text.test(e.message);
  assert.throws(() => decodeRunContext('{'), code('PIS_INTERNAL', /PIS_RUN_CONTEXT is not JSON/));
  assert.throws(() => decodeRunContext(JSON.stringify({ ...ctx, runPid: 'x' })), code('PIS_INTERNAL', /a string as runPid \(a number expected\)/));
  const run = ctx.runs[0]!;
  assert.throws(() => decodeRunContext(JSON.stringify({ ...ctx, runs: [{ ...run, report: { ...run.report, reportDir: undefined } }] })),
    code('PIS_INTERNAL', /no runs\[0\]\.report\.reportDir/));
  assert.throws(() => decodeRunContext(JSON.stringify({ ...ctx, runs: [] })), code('PIS_INTERNAL', /no part in runs/));
  assert.doesNotThrow(() => decodeRunContext(JSON.stringify({ ...ctx, runs: [{ ...run, webhookRunFile: undefined }] })), 'an optional field may be missing');
  assert.throws(() => runContext({}), code('PIS_MISSING_OPTION', /start the suites with 'pis-conformance run'/));
});

test('a worker takes its part: the one part of run, or in a batch the part named by its Playwright project', () => {
  const one = testContext({ baseUrl: 'http://127.0.0.1:1/api' });
  const env = encodeRunContext(one);
  assert.equal(thisRun(() => { throw new Error('not asked for one part'); }, env).target.baseUrl, 'http://127.0.0.1:1/api');
});
