// A control API with only the first-agreed fields (docs/control-api.md): the
// checks of the optional sca, endToEndId and referenceId are not run, with the
// remedy, unless the target echoed the field or its bodies show it took it; a
// target description's control.honours is the first source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../harness/sink/checks/index.ts';
import { driveCheckouts, type DriveProgress } from '../../harness/sink/drive.ts';
import { SUITE_PLANS } from '../../harness/sink/plan.ts';
import { startSink } from '../../harness/sink/server.ts';
import { startReference } from '../../harness/reference/index.ts';
import { ALLOWED, KEY, RECORDS, S, conforming } from './records.ts';

const IDS = ['webhook.body.end-to-end-id', 'webhook.body.reference-id', 'webhook.states.sca-payment-created'];

test('a target that neither echoes nor shows an optional field: its check is not run, naming the remedy', () => {
  const { attempts, plan } = conforming();
  ALLOWED['a control API that takes none of the optional sca, endToEndId and referenceId'](attempts, plan);
  const checks = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S });
  for (const id of IDS) {
    const c = checks.find(x => x.id === id)!;
    assert.equal(c.status, 'skipped', `${id}: ${c.message}`);
    assert.equal(c.skipKind, 'not-run', 'not-run, not a pass');
    assert.match(c.message!, /did not echo "(sca|endToEndId|referenceId)" in its 201 answer.*echo the fields taken in the 201 answer/);
  }
});

test('an echoed field is judged: the target said it took it', () => {
  const { attempts, plan } = conforming();
  RECORDS['reference-id-ignored'](attempts, plan);
  const c = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S }).find(x => x.id === 'webhook.body.reference-id')!;
  assert.equal(c.status, 'failed');
  for (const p of plan.values()) if (p.control) delete p.control.echoed;
  const silent = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S }).find(x => x.id === 'webhook.body.reference-id')!;
  assert.equal(silent.status, 'passed', 'the other checkouts showed it; the one that did not is left out');
  assert.match(silent.message!, /1 whose target did not echo or show it left out/);
});

const describedAs = (plan: ReturnType<typeof conforming>['plan'], honours: ('sca' | 'endToEndId' | 'referenceId')[]) => {
  for (const p of plan.values()) if (p.control) p.control.described = honours;
};

test('the description is the first source: a field it says is not honoured is not run naming control.honours', () => {
  const { attempts, plan } = conforming();
  describedAs(plan, []);
  const checks = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S });
  for (const id of IDS) {
    const c = checks.find(x => x.id === id)!;
    assert.equal(c.status, 'skipped', `${id}: ${c.message}`);
    assert.equal(c.skipKind, 'not-run', 'not-run, not a pass');
    assert.match(c.message!, /the target description says the control API does not honour "(sca|endToEndId|referenceId)" \(description control\.honours\)/);
  }
});

test('a field the description says is honoured is judged without an echo', () => {
  const { attempts, plan } = conforming();
  ALLOWED['a control API that takes none of the optional sca, endToEndId and referenceId'](attempts, plan);
  describedAs(plan, ['sca', 'endToEndId', 'referenceId']);
  const checks = analyze(attempts, plan, { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S });
  for (const id of IDS) assert.equal(checks.find(x => x.id === id)!.status, 'failed', id);
});

test('the drive sends no field the description says the control API does not honour, and keeps what it said; it says its progress from its start', async () => {
  const ref = await startReference({ timeScale: 0.2, faults: [], webhookApiKey: KEY });
  const sink = await startSink({ timeScale: 0.2, apiKey: KEY });
  try {
    const progress: DriveProgress[] = [];
    const d = await driveCheckouts({ sink, controlUrl: ref.controlUrl, apiKey: KEY, plans: SUITE_PLANS.filter(p => p.name === 'sca'), honours: ['sca'],
      onProgress: p => progress.push(p) });
    // The status line hears of the drive before any checkout is made, and last that nothing is pending.
    assert.deepEqual({ ...progress[0]!, elapsedMs: 0 }, { attempts: 0, chains: 1, pending: ['sca'], elapsedMs: 0, capMs: 0.2 * 15 * 60_000 });
    assert.deepEqual(progress.at(-1)!.pending, []);
    const sent = d.control.map(e => e.request.body as Record<string, unknown>);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.sca, true);
    assert.ok(!('endToEndId' in sent[0]!) && !('referenceId' in sent[0]!), JSON.stringify(sent[0]));
    assert.deepEqual([...d.plan.values()][0]!.control?.described, ['sca']);
  } finally {
    await sink.close();
    await ref.close();
  }
});
