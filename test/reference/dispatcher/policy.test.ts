// The numbers of spec section 6 in the delivery policy, and what each webhook
// fault or quirk switches (checked without any network).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliveryPolicy, MAX_EVENT_AGE_MS, RESPONSE_WAIT_MS } from '../../../harness/reference/dispatcher/policy.ts';
import { resolveFaults } from '../../../harness/reference/catalog.ts';

test('without faults: 5 s wait, backoff 10, 20, 40, 80 s, only 200 delivers, gating, 7 days', () => {
  const p = deliveryPolicy(new Set());
  assert.equal(p.responseWaitMs, RESPONSE_WAIT_MS);
  assert.equal(RESPONSE_WAIT_MS, 5_000);
  assert.deepEqual([1, 2, 3, 4].map(n => p.retryDelayMs(n)), [10_000, 20_000, 40_000, 80_000]);
  assert.deepEqual([200, 201, 204, 299, 302, 500].map(s => p.delivers(s)), [true, false, false, false, false, false]);
  assert.equal(p.retries, true);
  assert.equal(p.ackGating, true);
  assert.equal(p.globalQueue, false);
  assert.deepEqual([1, 2, 3].map(n => p.sendsApiKey(n)), [true, true, true]);
  assert.equal(p.copies, 1);
  assert.equal(MAX_EVENT_AGE_MS, 604_800_000);
});

test('webhook-jitter adds up to 25 % and never goes below the exponential delay', () => {
  assert.deepEqual([1, 2, 3].map(n => deliveryPolicy(new Set(['webhook-jitter']), () => 0).retryDelayMs(n)), [10_000, 20_000, 40_000]);
  assert.deepEqual([1, 2, 3].map(n => deliveryPolicy(new Set(['webhook-jitter']), () => 0.999999).retryDelayMs(n).toFixed(0)), ['12500', '25000', '50000']);
});

test('each fault switches its own rule only', () => {
  const base = deliveryPolicy(new Set());
  const diff = (fault: string) => {
    const p = deliveryPolicy(resolveFaults([fault]));
    const changed: string[] = [];
    if (p.responseWaitMs !== base.responseWaitMs || p.waitResetsOnData !== base.waitResetsOnData || p.waitPollMs !== base.waitPollMs)
      changed.push('responseWaitMs');
    if ([1, 2, 3].some(n => [0, 1].some(e => p.retryDelayMs(n, undefined, e) !== base.retryDelayMs(n, undefined, e)))) changed.push('retryDelayMs');
    if (p.retries !== base.retries) changed.push('retries');
    if ([200, 201, 204].some(s => p.delivers(s) !== base.delivers(s))) changed.push('delivers');
    if (p.ackGating !== base.ackGating) changed.push('ackGating');
    if (p.globalQueue !== base.globalQueue) changed.push('globalQueue');
    if (p.globalRetryQueue !== base.globalRetryQueue) changed.push('globalRetryQueue');
    if ([1, 2].some(n => p.sendsApiKey(n) !== base.sendsApiKey(n))) changed.push('sendsApiKey');
    if (p.copies !== base.copies) changed.push('copies');
    if (p.maxAttempts !== base.maxAttempts) changed.push('maxAttempts');
    if (p.backoffFrom !== base.backoffFrom) changed.push('backoffFrom');
    return changed;
  };
  assert.deepEqual(diff('webhook-retry-early'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-no-growth'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-no-retry'), ['retries']);
  assert.deepEqual(diff('webhook-2xx-success'), ['delivers']);
  assert.deepEqual(diff('webhook-no-timeout'), ['responseWaitMs']);
  assert.deepEqual(diff('webhook-short-timeout'), ['responseWaitMs']);
  assert.deepEqual(diff('webhook-timeout-4500ms'), ['responseWaitMs']);
  assert.equal(deliveryPolicy(new Set(['webhook-timeout-4500ms'])).responseWaitMs, 4_500);
  assert.deepEqual(diff('webhook-timeout-4600ms-polled'), ['responseWaitMs']);
  assert.deepEqual(diff('webhook-inactivity-timeout'), ['responseWaitMs']);
  assert.equal(deliveryPolicy(new Set(['webhook-inactivity-timeout'])).waitResetsOnData, true);
  assert.deepEqual(diff('webhook-no-ack-gating'), ['ackGating']);
  assert.deepEqual(diff('webhook-global-queue'), ['globalQueue']);
  assert.deepEqual(diff('webhook-global-retry-queue'), ['globalRetryQueue']);
  assert.deepEqual(diff('webhook-events-reordered'), []);
  assert.deepEqual(diff('webhook-retry-no-api-key'), ['sendsApiKey']);
  assert.deepEqual(diff('webhook-duplicates'), ['copies']);
  assert.deepEqual(diff('webhook-linear-backoff'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-capped-backoff'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-growth-first-event-only'), ['retryDelayMs']);
  const firstOnly = deliveryPolicy(new Set(['webhook-growth-first-event-only']));
  assert.deepEqual([0, 1, 2].map(e => [1, 2, 3].map(n => firstOnly.retryDelayMs(n, undefined, e))),
    [[10_000, 20_000, 40_000], [10_000, 10_000, 10_000], [10_000, 10_000, 10_000]]);
  assert.deepEqual(diff('webhook-gives-up-after-3'), ['maxAttempts']);
  assert.deepEqual(diff('webhook-gives-up-after-6'), ['maxAttempts']);
  assert.deepEqual(diff('webhook-long-backoff'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-backoff-gentle'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-decorrelated-jitter'), ['retryDelayMs']);
  assert.deepEqual(diff('webhook-backoff-from-start'), ['backoffFrom']);
  assert.deepEqual(diff('token-type-mac'), []);
  assert.equal(deliveryPolicy(new Set(['webhook-short-timeout'])).responseWaitMs, 3_000);
  assert.equal(deliveryPolicy(new Set(['webhook-no-timeout'])).responseWaitMs, Infinity);
  assert.deepEqual([1, 2, 3].map(n => deliveryPolicy(new Set(['webhook-retry-early'])).retryDelayMs(n)), [2_000, 4_000, 8_000]);
});

test('the backoff faults and quirks: linear, capped, long, gentle; giving up after 3 attempts', () => {
  const delays = (name: string) => [1, 2, 3, 4].map(n => Math.round(deliveryPolicy(resolveFaults([name])).retryDelayMs(n)));
  assert.deepEqual(delays('webhook-linear-backoff'), [10_000, 20_000, 30_000, 40_000]);
  assert.deepEqual(delays('webhook-capped-backoff'), [10_000, 20_000, 20_000, 20_000]);
  assert.deepEqual(delays('webhook-long-backoff'), [60_000, 300_000, 1_800_000, 3_600_000]);
  assert.deepEqual(delays('webhook-backoff-gentle'), [10_000, 12_000, 14_400, 17_280]);
  assert.equal(deliveryPolicy(new Set(['webhook-gives-up-after-3'])).maxAttempts, 3);
  assert.equal(deliveryPolicy(new Set(['webhook-gives-up-after-6'])).maxAttempts, 6);
  assert.equal(deliveryPolicy(new Set()).maxAttempts, Infinity);
  assert.equal(deliveryPolicy(new Set(['webhook-backoff-from-start'])).backoffFrom, 'start');
});

test('webhook-decorrelated-jitter draws each delay between 10 s and 3 times the one before, at most 90 s', () => {
  const low = deliveryPolicy(new Set(['webhook-decorrelated-jitter']), () => 0);
  const high = deliveryPolicy(new Set(['webhook-decorrelated-jitter']), () => 0.999999);
  assert.deepEqual([low.retryDelayMs(1), low.retryDelayMs(2, 25_000)], [10_000, 10_000]);
  assert.deepEqual([high.retryDelayMs(1), high.retryDelayMs(2, 25_000), high.retryDelayMs(3, 75_000)].map(x => Math.round(x / 1000)), [30, 75, 90]);
});
