// The drive sends a timing probe again when the sink's own lateness blurred
// every measurement of its kind (harness/sink/drive.ts, Again): here the sink's
// record is made to say that the first slow answer and the first answer-500
// were stamped 10 s late, so waits-5s and min-delay could not judge them; the
// drive must send another answer after 6 s and another failure, and the checks
// judge on those. Against the bundled reference on a compressed clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startReference } from '../../harness/reference/index.ts';
import { analyzeRun } from '../../harness/sink/checks/index.ts';
import { driveCheckouts } from '../../harness/sink/drive.ts';
import { SUITE_PLANS } from '../../harness/sink/plan.ts';
import { startSink, type Sink } from '../../harness/sink/server.ts';
import { judgeable } from './stall.ts';

const KEY = 'drive-again-key-789';
/** 0.2 with a 200 ms floor, as the reference fault cases (reference-cases.ts): what is not made blurred is judged. */
const SCALE = 0.2;
const FLOOR_MS = 200;
const PLANS = SUITE_PLANS.filter(p => p.name === 'answer-500' || p.name === 'answer-after-6s');

/** The sink, but its record says the first attempt of each of `probes` was stamped up to 10 real s late. */
function blurFirst(sink: Sink, probes: readonly string[]): Sink {
  const first = new Map<string, number>();
  return {
    ...sink,
    attempts: () => sink.attempts().map(a => {
      if (probes.includes(a.probe) && !first.has(a.probe)) first.set(a.probe, a.seq);
      return first.get(a.probe) === a.seq ? { ...a, lagMs: 10_000 } : a;
    }),
  };
}

test('a blurred slow answer and a blurred backoff are each sent once more, and the checks judge on the new ones', async () => {
  const once = async () => {
    const ref = await startReference({ timeScale: SCALE, faults: [], webhookApiKey: KEY });
    const real = await startSink({ timeScale: SCALE, apiKey: KEY });
    const sink = blurFirst(real, ['slow-6s', 'status-500']);
    try {
      const d = await driveCheckouts({ sink, controlUrl: ref.controlUrl, apiKey: KEY, plans: PLANS, toleranceFloorMs: FLOOR_MS });
      const { checks } = analyzeRun(sink.attempts(), d.plan, { timeScale: SCALE, apiKey: KEY, observedUntilMs: d.observedUntilMs, toleranceFloorMs: FLOOR_MS });
      return { checks: checks.filter(c => /^webhook\.(timeout\.waits-5s|backoff\.min-delay)$/.test(c.id)), names: [...d.plan.values()].map(p => p.plan.name) };
    } finally {
      await real.close();
      await ref.close();
    }
  };
  // These two probes reach the first event of a normal checkout only: judged there (the other event positions are not reached).
  const judgedThere = (c: { places?: { exercised: string[]; failed: string[] } }) => c.places?.exercised.includes('normal first') && !c.places.failed.length;
  const { result: { checks, names }, blurred } = await judgeable(once, FLOOR_MS, r => r.checks.every(judgedThere));
  assert.deepEqual(names.filter(n => /again/.test(n)).sort(), ['answer-after-6s-again-1', 'backoff-again-1'], blurred);
  for (const c of checks) {
    assert.ok(judgedThere(c), `${c.id}: ${c.message}${blurred}`);
    assert.ok(c.evidence.some(e => e.kind === 'note' && /could not be judged.*left out/.test(e.text)), `${c.id} says what it left out`);
  }
});

test('a 6 s answer the sender read and still attempted again is sent once more there, so retry.after-timeout has a give-up to judge', async () => {
  // The lost race of a busy sender (its 5 s timer fired after the sink's 6 s answer, 100 ms later at time scale 0.1):
  // the record says the sink's first answer after 6 s at the middle event was read, while the reference attempted it again.
  const plans = SUITE_PLANS.filter(p => p.name === 'normal-middle-fails');
  const once = async () => {
    const ref = await startReference({ timeScale: SCALE, faults: [], webhookApiKey: KEY });
    const real = await startSink({ timeScale: SCALE, apiKey: KEY });
    let first: number | undefined;
    const sink: Sink = {
      ...real,
      attempts: () => real.attempts().map(a => {
        if (a.probe !== 'slow-6s' || (first ??= a.seq) !== a.seq) return a;
        const { closedMs: _, ...rest } = a;
        return { ...rest, answer: 200, answeredMs: a.arrivedMs + 6_000 * SCALE };
      }),
    };
    try {
      const d = await driveCheckouts({ sink, controlUrl: ref.controlUrl, apiKey: KEY, plans, toleranceFloorMs: FLOOR_MS });
      const { checks } = analyzeRun(sink.attempts(), d.plan, { timeScale: SCALE, apiKey: KEY, observedUntilMs: d.observedUntilMs, toleranceFloorMs: FLOOR_MS });
      return { checks: checks.filter(c => c.id === 'webhook.retry.after-timeout'), names: [...d.plan.values()].map(p => p.plan.name) };
    } finally {
      await real.close();
      await ref.close();
    }
  };
  const judged = (c: { places?: { exercised: string[]; failed: string[] } }) => c.places?.exercised.includes('normal middle') && !c.places.failed.length;
  const { result: { checks: [check], names }, blurred } = await judgeable(once, FLOOR_MS, r => !!judged(r.checks[0]!));
  assert.deepEqual(names.filter(n => /again/.test(n)), ['answer-after-6s-again-1-normal-middle'], blurred);
  assert.ok(judged(check!), `${check!.status}: ${check!.message}${blurred}`);
});
