// The long chain of run --long-chains (spec 6.7: an event is retried until 7
// days have passed): the reference retries an event through 6 failures in a
// row and passes webhook.retry.long-chain; with webhook-gives-up-after-6 (1 + 5
// retries) it drops the event after its sixth failure and fails it. On a
// compressed clock: the chain's 630 spec s are 12.6 real s. Without the long
// chain the check is not selected and names the flag that runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAULTS } from '../../harness/reference/catalog.ts';
import { analyze } from '../../harness/sink/checks/index.ts';
import { LONG_CHAIN_SETUP, cleanCase, faultCase, judgeAll } from './reference-cases.ts';
import { KEY, S, conforming, withLongChain, type Change } from './records.ts';

test('without --long-chains, webhook.retry.long-chain is not selected and names the flag; the verdict does not wait for it', () => {
  const { attempts, plan } = conforming();
  const c = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S }).find(x => x.id === 'webhook.retry.long-chain')!;
  assert.deepEqual([c.status, c.skipKind, c.remedy, c.level], ['skipped', 'not-selected', 'give --long-chains', 'must']);
  assert.match(c.message!, /630 spec s .*give --long-chains/);
  // Asked for (a passive sink whose checkouts have not come yet): not run, since the check was selected.
  const asked = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S, longChains: true }).find(x => x.id === c.id)!;
  assert.deepEqual([asked.status, asked.skipKind ?? 'not-run'], ['skipped', 'not-run']);
  assert.match(asked.message!, /no checkout got it/);
});

test('the long chain: the reference retries through 6 failures, webhook-gives-up-after-6 fails webhook.retry.long-chain', { concurrency: true },
  async t => {
    const fault = FAULTS.find(f => f.name === 'webhook-gives-up-after-6')!;
    await judgeAll(t, [cleanCase('', LONG_CHAIN_SETUP), faultCase(fault, LONG_CHAIN_SETUP)]);
  });

test('on records: the 7th attempt passes and is named; a sender silent after 6 failures is not judged until the long wait, then names --retry-wait',
  () => {
    const judged = (change: Change, untilS: number) => {
      const { attempts, plan } = conforming();
      change(attempts, plan);
      return analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: untilS * S }).find(x => x.id === 'webhook.retry.long-chain')!;
    };
    const ok = judged(withLongChain(), 300);
    assert.equal(ok.status, 'passed');
    assert.match(ok.message!, /failed 6 times in a row and was attempted again each time: attempt 7 came 99\.\d\d s after the first/);
    const silent: Change = (a, p) => {
      withLongChain(6)(a, p);
      a.splice(a.findIndex(x => x.checkoutId === 'long' && x.answer === 200), 1);
    };
    const early = judged(silent, 300);
    assert.deepEqual([early.status, early.skipKind], ['skipped', 'not-run']);
    assert.match(early.message!, /stopped watching .* too early to tell/);
    const late = judged(silent, 1000);
    assert.deepEqual([late.status, late.skipKind], ['skipped', 'not-run']);
    assert.match(late.message!, /no attempt followed failed attempt 6 .* --retry-wait above 800/);
  });
