// Cases of the webhook analysis against the bundled reference implementation,
// shared by reference-*.test.ts (split in files so that they run in separate
// processes: one event loop for all of them would delay the senders' requests).
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startReference } from '../../harness/reference/index.ts';
import { FAULTS } from '../../harness/reference/catalog.ts';
import { startSink } from '../../harness/sink/server.ts';
import { driveCheckouts } from '../../harness/sink/drive.ts';
import { analyzeRun } from '../../harness/sink/analysis/index.ts';
import { watchStalls } from './stall.ts';

/**
 * 0.2 leaves 400 real ms between the short-timeout fault's 3 s and the 5 s
 * window, so a tolerance floor of 200 ms (eight times CONTRACT.md's 25 ms: the
 * reference, the sink and the rest of the test suite share two cores, and one
 * event loop here) still tells every fault apart.
 */
const SCALE = 0.2;
const FLOOR_MS = 200;
const KEY = 'ref-webhook-key-456';

async function judge(faults: string[]) {
  const ref = await startReference({ timeScale: SCALE, faults, webhookApiKey: KEY });
  const sink = await startSink({ timeScale: SCALE });
  try {
    const d = await driveCheckouts({ sink, controlUrl: ref.controlUrl, apiKey: KEY });
    const { checks } = analyzeRun(sink.attempts(), d.plan, { timeScale: SCALE, apiKey: KEY, observedUntilMs: d.observedUntilMs, toleranceFloorMs: FLOOR_MS });
    return { checks, drive: d, recorded: sink.attempts(), logged: ref.attempts(), plan: d.plan };
  } finally {
    await sink.close();
    await ref.close();
  }
}

export const WEBHOOK_FAULTS = FAULTS.filter(f => f.prefix.startsWith('webhook.'));

/** The clean reference, or one quirk: every webhook check passes, and the sink saw what the reference sent. */
export function cleanCase(t: TestContext, quirk: string) {
  return t.test(`reference ${quirk || 'clean'}: every webhook check passes`, async tc => {
    const watch = watchStalls();
    const { checks, drive, recorded, logged, plan } = await judge(quirk ? [quirk] : []);
    const stall = watch.stop();
    const failed = checks.filter(c => c.status !== 'passed');
    // Skipped, not failed, when this process stalled beyond the tolerance: the times are the machine's, not the reference's.
    if (failed.length && stall > FLOOR_MS) return tc.skip(`event loop stalled ${stall.toFixed(0)} ms (tolerance ${FLOOR_MS} ms): timing not judgeable; seen: ${failed.map(c => c.id).join(', ')}`);
    assert.deepEqual(failed.map(c => `${c.id} ${c.status}: ${c.message}`), [], `stopped: ${drive.stoppedBecause}`);
    // Every attempt the reference logged reached the sink, and nothing else did.
    const ids = new Set([...plan.values()].map(p => p.control?.id).filter(Boolean));
    const ours = logged.filter(a => ids.has(a.checkoutId));
    assert.equal(recorded.length, ours.length, 'attempts recorded by the sink vs logged by the reference');
    for (const id of ids) {
      const sent = ours.filter(a => a.checkoutId === id).sort((a, b) => a.sentAtMs - b.sentAtMs).map(a => a.status);
      const got = recorded.filter(a => a.checkoutId === id).map(a => (JSON.parse(a.body) as { status: string }).status);
      assert.deepEqual(got, sent, `statuses of checkout ${id}`);
    }
  });
}

/** One webhook fault of catalog.yaml: its prefix fails at its level, nothing else fails. */
export function faultCase(t: TestContext, f: (typeof WEBHOOK_FAULTS)[number]) {
  return t.test(`reference with ${f.name}: ${f.prefix} fails, nothing else`, async tc => {
    const watch = watchStalls();
    const { checks } = await judge([f.name]);
    const stall = watch.stop();
    const failed = checks.filter(c => c.status === 'failed');
    const show = failed.map(c => `${c.id}: ${c.message}`).join('\n');
    const caught = failed.some(c => c.id.startsWith(`${f.prefix}.`) && c.level === f.level);
    if ((!caught || failed.some(c => !c.id.startsWith(`${f.prefix}.`))) && stall > FLOOR_MS)
      return tc.skip(`event loop stalled ${stall.toFixed(0)} ms (tolerance ${FLOOR_MS} ms): timing not judgeable; seen: ${show.replace(/\n/g, '; ') || 'no failure'}`);
    assert.ok(failed.some(c => c.id.startsWith(`${f.prefix}.`) && c.level === f.level), `${f.name}: no ${f.level} failure under ${f.prefix}:\n${show}`);
    assert.deepEqual(failed.filter(c => !c.id.startsWith(`${f.prefix}.`)).map(c => c.id), [], `${f.name}:\n${show}`);
  });
}
