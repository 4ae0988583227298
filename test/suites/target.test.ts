// suites/support/target.ts and part.ts in a batch (several parts, a describe
// block each in one Playwright project, one worker for all): the target and
// every value kept per part are the running part's, told by the async context
// its registration, tests and watches run in. While Playwright collects the
// tests outside any part, the first part's target serves; once tests run, a
// read outside any part throws, since it would otherwise get some part's state.
// This process is the worker: the run context is set before the modules load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext } from '../helpers/context.ts';
import { encodeRunContext } from '../../suites/support/context.ts';

const ctx = testContext({ baseUrl: 'http://first.invalid/api' });
ctx.runs.push({ ...ctx.runs[0]!, name: 'second', target: { ...ctx.runs[0]!.target, baseUrl: 'http://second.invalid/api' } });
ctx.runs[0]!.name = 'first';
Object.assign(process.env, encodeRunContext(ctx));
const { target } = await import('../../suites/support/target.ts');
const { inPart, perPart, testsStarted } = await import('../../suites/support/part.ts');

test('in a batch: the first part while collecting, each part its own target and state, and a read outside any part throws once tests run', async () => {
  assert.equal(target().baseUrl, 'http://first.invalid/api', 'collection, outside any part: the first part');
  let made = 0;
  const counter = perPart(() => ({ n: ++made }));
  assert.throws(() => counter(), /outside any part of the batch/, 'state kept per part has no part to belong to');
  const seen = await Promise.all(['first', 'second', 'first'].map(name => inPart(name, async () => {
    await new Promise(r => setTimeout(r, 5));
    return `${target().baseUrl} ${counter().n}`;
  })));
  assert.deepEqual(seen, ['http://first.invalid/api 1', 'http://second.invalid/api 2', 'http://first.invalid/api 1']);
  testsStarted();
  assert.throws(() => target(), /outside any part of the batch/);
  assert.equal(inPart('second', () => target().baseUrl), 'http://second.invalid/api');
});
