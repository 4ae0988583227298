// Cases of the webhook analysis and driver against small senders that do right
// and wrong things (test/sink/sender.ts), shared by sender-*.test.ts (split in
// files so they run in separate processes): each fault fails its check prefix
// and nothing else.
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'undici';
import { startSink } from '../../harness/sink/server.ts';
import { driveCheckouts } from '../../harness/sink/drive.ts';
import { analyze } from '../../harness/sink/checks/index.ts';
import { webhookKeys } from '../../harness/sink/keys.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';
import { startSender, type SenderFlags } from './sender.ts';
import { judgeable } from './stall.ts';
import { PARALLEL_PLANS } from './reference-cases.ts';
import type { CheckoutPlan } from '../../harness/sink/plan.ts';

/** As in reference-cases.ts: 400 real ms between a 3 s and the 5 s window, a 200 ms tolerance floor for a busy machine. */
const SCALE = 0.2;
const FLOOR_MS = 200;
const KEY = 'test-webhook-key-123';

/**
 * Strangers posting to the sink while the sender is judged, every 50 ms: no
 * api-key or another one, junk, other methods, made-up path slots and checkout
 * ids, a body that never ends. None of it may change the verdict.
 */
function strangers(sinkUrl: string): { stop(): Promise<number> } {
  let n = 0;
  const sent: Array<Promise<unknown>> = [];
  const shapes: Array<() => { path: string; headers: Record<string, string>; body: string; method?: 'GET' }> = [
    () => ({ path: '/', headers: {}, body: JSON.stringify(buildWebhookBody({ kind: 'normal', id: `stranger-${n}`, status: 'PAYMENT_COMPLETED' })) }),
    () => ({ path: `/hooks/guess-${n}`, headers: { 'api-key': 'not-the-key' },
      body: JSON.stringify(buildWebhookBody({ kind: 'normal', id: `stranger-${n}`, status: 'STARTED' })) }),
    () => ({ path: '/webhook', headers: { 'api-key': 'x'.repeat(40) }, body: 'not json at all' }),
    () => ({ path: '/webhook', headers: {}, body: '', method: 'GET' }),
  ];
  const t = setInterval(() => {
    const s = shapes[n++ % shapes.length]();
    sent.push(request(`${sinkUrl}${s.path}`, { method: s.method ?? 'POST', headers: s.headers, body: s.method ? undefined : s.body })
      .then(r => r.body.text(), () => undefined));
  }, 50);
  const endless = connect(Number(new URL(sinkUrl).port), '127.0.0.1');
  endless.on('error', () => {});
  let drip: NodeJS.Timeout | undefined;
  endless.on('connect', () => {
    endless.write('POST /hooks/endless HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n');
    drip = setInterval(() => endless.write('1\r\n \r\n'), 100);
  });
  return { async stop() { clearInterval(t); clearInterval(drip); endless.destroy(); await Promise.all(sent); return n; } };
}

async function judge(flags: SenderFlags, withStrangers = false, plans?: readonly CheckoutPlan[]) {
  const sender = await startSender(SCALE, flags);
  const sink = await startSink({ timeScale: SCALE, apiKey: KEY });
  const others = withStrangers ? strangers(sink.url) : undefined;
  try {
    const d = await driveCheckouts({ sink, controlUrl: sender.controlUrl, apiKey: KEY, keys: webhookKeys(), ...(plans ? { plans } : {}) });
    await others?.stop();
    return { checks: analyze(sink.attempts(), d.plan, { timeScale: SCALE, apiKey: KEY, observedUntilMs: d.observedUntilMs, toleranceFloorMs: FLOOR_MS }),
      drive: d, attempts: sink.attempts() };
  } finally {
    await others?.stop();
    await sink.close();
    await sender.close();
  }
}

export const CASES: Array<{ name: string; flags: SenderFlags; prefix?: string; level?: 'must' | 'should'; strangers?: boolean;
  /** Only these plans: a sender with one queue for every checkout would send the growth chains one after another (5 x 70 spec s). */
  plans?: readonly CheckoutPlan[] }> = [
  { name: 'correct, while strangers post to the sink', flags: {}, strangers: true },
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
  { name: 'global queue', flags: { globalQueue: true }, prefix: 'webhook.parallel', plans: PARALLEL_PLANS },
  { name: 'retries without api-key', flags: { noKeyOnRetries: true }, prefix: 'webhook.auth' },
  { name: 'originalAmount as string', flags: { amountString: true }, prefix: 'webhook.body' },
  { name: 'forbidden sequence accepted', flags: { acceptForbidden: true }, prefix: 'webhook.states' },
];

/** One sender case as a subtest of t. */
export function senderCase(t: TestContext, c: (typeof CASES)[number]) {
  return t.test(`sender: ${c.name} -> ${c.prefix ? `${c.prefix} fails, nothing else` : 'every webhook check passes'}`, async () => {
    const level = c.level ?? 'must';
    // The long chain is driven on request only (--long-chains): without it that check is not selected, which is no skip to explain.
    const selected = <C extends { skipKind?: string }>(checks: C[]) => checks.filter(x => x.skipKind !== 'not-selected');
    const ok = (checks: Array<{ id: string; status: string; level: string; skipKind?: string }>) => {
      const failed = checks.filter(x => x.status === 'failed');
      return c.prefix ? failed.some(x => x.level === level && x.id.startsWith(c.prefix + '.')) && failed.every(x => x.id.startsWith(c.prefix + '.'))
        : selected(checks).every(x => x.status === 'passed');
    };
    const { result: { checks, drive, attempts }, blurred } = await judgeable(() => judge(c.flags, c.strangers, c.plans), FLOOR_MS, r => ok(r.checks));
    if (c.strangers) {
      const apiKey = checks.find(x => x.id === 'webhook.auth.api-key')!;
      assert.match(JSON.stringify(apiKey.evidence), /\d+ attempts were not counted as the sender's and not judged/);
      assert.ok(attempts.filter(a => a.apiKeyCheck?.verdict !== 'registered').length >= 20, 'the strangers were recorded');
    }
    const failedMust = checks.filter(x => x.status === 'failed' && x.level === level);
    const failedAny = checks.filter(x => x.status === 'failed');
    const show = `${failedAny.map(x => `${x.id}: ${x.message}`).join('\n')}${blurred}`;
    if (!c.prefix) {
      assert.deepEqual(failedAny.map(x => x.id), [], `${c.name} (stopped: ${drive.stoppedBecause}):\n${show}`);
      const skipped = selected(checks).filter(x => x.status === 'skipped').map(x => `${x.id}: ${x.message}`);
      assert.deepEqual(skipped, [], `unexpected skips${blurred}`);
    } else {
      assert.ok(failedMust.some(x => x.id.startsWith(c.prefix + '.')), `${c.name}: expected a failure under ${c.prefix}:\n${show}`);
      assert.deepEqual(failedAny.filter(x => !x.id.startsWith(c.prefix + '.')).map(x => x.id), [], `${c.name}: failures outside ${c.prefix}:\n${show}`);
    }
  });
}
