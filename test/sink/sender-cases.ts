// Cases of the webhook analysis and driver against small senders that do right
// and wrong things (test/sink/sender.ts), shared by sender-*.test.ts (split in
// files so they run in separate processes): each fault fails its check prefix
// and nothing else.
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startSink } from '../../harness/sink/server.ts';
import { driveCheckouts } from '../../harness/sink/drive.ts';
import { analyze } from '../../harness/sink/analysis/index.ts';
import { startSender, type SenderFlags } from './sender.ts';
import { watchStalls } from './stall.ts';

/** As in reference-cases.ts: 400 real ms between a 3 s and the 5 s window, a 200 ms tolerance floor for a busy machine. */
const SCALE = 0.2;
const FLOOR_MS = 200;
const KEY = 'test-webhook-key-123';

async function judge(flags: SenderFlags) {
  const sender = await startSender(SCALE, flags);
  const sink = await startSink({ timeScale: SCALE });
  try {
    const d = await driveCheckouts({ sink, controlUrl: sender.controlUrl, apiKey: KEY });
    return { checks: analyze(sink.attempts(), d.plan, { timeScale: SCALE, apiKey: KEY, observedUntilMs: d.observedUntilMs, toleranceFloorMs: FLOOR_MS }), drive: d, attempts: sink.attempts() };
  } finally {
    await sink.close();
    await sender.close();
  }
}

export const CASES: Array<{ name: string; flags: SenderFlags; prefix?: string; level?: 'must' | 'should' }> = [
  { name: 'correct', flags: {} },
  { name: 'jitter', flags: { jitter: 0.25 } },
  { name: 'duplicates', flags: { duplicates: true } },
  { name: 'extra fields', flags: { extraFields: true } },
  { name: 'older body variant', flags: { older: true }, prefix: 'webhook.body', level: 'should' },
  { name: 'gentle growth x1.5 with jitter', flags: { growth: 1.5, jitter: 0.25 } },
  { name: 'early retries', flags: { firstDelayMs: 2_000 }, prefix: 'webhook.backoff' },
  { name: 'no growth', flags: { growth: 1 }, prefix: 'webhook.backoff' },
  { name: 'no retry', flags: { noRetry: true }, prefix: 'webhook.retry' },
  { name: '2xx success', flags: { anyTwoHundred: true }, prefix: 'webhook.retry' },
  { name: 'no timeout', flags: { timeoutMs: Infinity }, prefix: 'webhook.timeout' },
  { name: 'short timeout', flags: { timeoutMs: 3_000 }, prefix: 'webhook.timeout' },
  { name: 'no ack gating', flags: { noAckGating: true }, prefix: 'webhook.order' },
  { name: 'global queue', flags: { globalQueue: true }, prefix: 'webhook.parallel' },
  { name: 'retries without api-key', flags: { noKeyOnRetries: true }, prefix: 'webhook.auth' },
  { name: 'amount as string', flags: { amountString: true }, prefix: 'webhook.body' },
  { name: 'forbidden sequence accepted', flags: { acceptForbidden: true }, prefix: 'webhook.states' },
];

/** One sender case as a subtest of t. */
export function senderCase(t: TestContext, c: (typeof CASES)[number]) {
  return t.test(`sender: ${c.name} -> ${c.prefix ? `${c.prefix} fails, nothing else` : 'every webhook check passes'}`, async tc => {
    const watch = watchStalls();
    const { checks, drive } = await judge(c.flags);
    const stall = watch.stop();
    const failedMust = checks.filter(x => x.status === 'failed' && x.level === (c.level ?? 'must'));
    const failedAny = checks.filter(x => x.status === 'failed');
    const show = failedAny.map(x => `${x.id}: ${x.message}`).join('\n');
    const unexpected = c.prefix ? !failedMust.some(x => x.id.startsWith(c.prefix + '.')) || failedAny.some(x => !x.id.startsWith(c.prefix + '.')) : failedAny.length > 0;
    // Skipped, not failed, when this process stalled beyond the tolerance: the times are the machine's, not the sender's.
    if (unexpected && stall > FLOOR_MS) return tc.skip(`event loop stalled ${stall.toFixed(0)} ms (tolerance ${FLOOR_MS} ms): timing not judgeable; seen: ${show.replace(/\n/g, '; ') || 'no failure'}`);
    if (!c.prefix) {
      assert.deepEqual(failedAny.map(x => x.id), [], `${c.name} (stopped: ${drive.stoppedBecause}):\n${show}`);
      const skippedIds = checks.filter(x => x.status === 'skipped').map(x => x.id);
      assert.deepEqual(skippedIds, [], `unexpected skips: ${skippedIds}`);
    } else {
      assert.ok(failedMust.some(x => x.id.startsWith(c.prefix + '.')), `${c.name}: expected a failure under ${c.prefix}:\n${show}`);
      assert.deepEqual(failedAny.filter(x => !x.id.startsWith(c.prefix + '.')).map(x => x.id), [], `${c.name}: failures outside ${c.prefix}:\n${show}`);
    }
  });
}
