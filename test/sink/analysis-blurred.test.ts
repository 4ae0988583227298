// Timing checks on hand-made records where the sink's own lateness (lagMs)
// blurred some measurements: a check judges on the measurements of the same
// kind the sink took in time, is not run when none of a kind could be judged,
// and never passes on a blurred one alone. The drive reads the same judgement
// to know which probe to send again (backoffUnjudged, waits5sUnjudged).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeliveryAttempt } from '../../harness/results/model.ts';
import { analyze } from '../../harness/sink/checks/index.ts';
import { backoffUnjudged } from '../../harness/sink/checks/backoff.ts';
import { waits5sUnjudged } from '../../harness/sink/checks/timeout.ts';
import { buildView } from '../../harness/sink/checks/view.ts';
import type { SinkPlan } from '../../harness/sink/plan.ts';
import { KEY, S, att, conforming, moveTo } from './records.ts';

const OPTS = { timeScale: 1, apiKey: KEY, observedUntilMs: 300 * S, toleranceFloorMs: 25 };
const check = (attempts: DeliveryAttempt[], plan: SinkPlan, id: string) => analyze(attempts, plan, OPTS).find(c => c.id === id)!;
const view = (attempts: DeliveryAttempt[], plan: SinkPlan) => buildView(attempts, plan, OPTS);
const status = (x: DeliveryAttempt) => (JSON.parse(x.body) as { status?: string }).status;
/** Far beyond every cap (the widening stops at twice the tolerance: 0.4 s for a 10 s delay, 0.5 s at 5 s). */
const BLUR = 2_000;

/**
 * The conforming record with a second slow-6s checkout whose hang-up came
 * `hangUpS` after sending; without the event-position checkouts and the
 * trickled answer, so the two slow-6s probes are the only ones, at the first
 * event of a normal checkout.
 */
function withSecondSlowProbe(hangUpS: number) {
  const all = conforming();
  const attempts = all.attempts.filter(x => !x.checkoutId.startsWith('p-') && x.checkoutId !== 'trickle');
  const plan: SinkPlan = new Map([...all.plan].filter(([k]) => !k.startsWith('p-') && k !== 'trickle'));
  attempts.push(att({ id: 'slow6b', status: 'STARTED', at: 30, probe: 'slow-6s', answer: 'none', took: hangUpS }),
    att({ id: 'slow6b', status: 'STARTED', at: 30 + hangUpS + 10.1 }));
  plan.set('slow6b', { plan: { name: 'slow6b', answers: ['slow-6s'], request: { kind: 'normal', statuses: [] } }, control: { status: 201, id: 'slow6b' } });
  return { attempts, plan, first: attempts.find(x => x.checkoutId === 'slow6' && x.probe === 'slow-6s')! };
}

test('waits-5s judges on the hang-ups the sink stamped in time; not run when it stamped none in time', () => {
  const { attempts, plan, first } = withSecondSlowProbe(5);
  first.lagMs = BLUR;
  const c = check(attempts, plan, 'webhook.timeout.waits-5s');
  // Judged at the one position these probes reach (the others are not reached here, so the check is not run).
  assert.deepEqual([c.places?.exercised, c.places?.failed], [['normal first'], []], c.message);
  assert.ok(c.evidence.some(e => e.kind === 'note' && /1 of 2 hang-ups could not be judged.*left out; judged on the 1/.test(e.text)));
  assert.deepEqual(waits5sUnjudged(view(attempts, plan)), []);

  // Every hang-up blurred: not run, with the figures, and the drive is told to send another.
  const all = withSecondSlowProbe(5);
  for (const a of all.attempts) if (a.probe === 'slow-6s') a.lagMs = BLUR;
  const blurred = check(all.attempts, all.plan, 'webhook.timeout.waits-5s');
  assert.equal(blurred.status, 'skipped');
  assert.match(blurred.message!, /(\d+) of \1 hang-ups could not be judged/);
  assert.deepEqual(waits5sUnjudged(view(all.attempts, all.plan)), ['normal first']);

  // No hang-up at all, and the sink answered the 6 s probe while running late: the sender's clock may
  // have been held as long, so another slow probe is asked for (waits-5s itself has no hang-up to judge).
  const held = withSecondSlowProbe(5);
  held.attempts.splice(held.attempts.indexOf(held.attempts.find(x => x.checkoutId === 'slow6b')!), 2);
  held.plan.delete('slow6b');
  Object.assign(held.first, { answer: 200, answeredMs: held.first.arrivedMs + 6.4 * S, lagMs: 400 });
  delete held.first.closedMs;
  assert.deepEqual(waits5sUnjudged(view(held.attempts, held.plan)), ['normal first']);
  held.first.lagMs = 0;
  // Answered on time, and the sender attempted the event again: its give-up may have lost the race with the answer
  // (a busy sender's timer fires late), and retry.after-timeout has no give-up at that position: another is asked for.
  assert.deepEqual(waits5sUnjudged(view(held.attempts, held.plan)), ['normal first']);
  const afterTimeout = check(held.attempts, held.plan, 'webhook.retry.after-timeout');
  assert.deepEqual([afterTimeout.status, afterTimeout.message], ['skipped', 'the sender never gave up on an attempt, so there was nothing to retry']);
  // Taken for delivery (no attempt after it): late-answer-not-taken judges that; nothing is asked for.
  held.attempts.splice(held.attempts.findIndex(x => x.checkoutId === 'slow6' && x.probe === 'ok'), 1);
  assert.deepEqual(waits5sUnjudged(view(held.attempts, held.plan)), [], 'taken: the other checks judge it');
  assert.equal(check(held.attempts, held.plan, 'webhook.timeout.late-answer-not-taken').status, 'failed');

  // A sender that gives up at 4.5 s fails on the hang-up judged in time, whatever the blurred one showed.
  const early = withSecondSlowProbe(4.5);
  early.first.lagMs = BLUR;
  early.first.closedMs = early.first.arrivedMs + 4.5 * S;
  const fails = check(early.attempts, early.plan, 'webhook.timeout.waits-5s');
  assert.equal(fails.status, 'failed');
  assert.match(fails.message!, /hung up 4\.50 s after sending event 0 \(STARTED\) of checkout slow6b/);
  assert.deepEqual(waits5sUnjudged(view(early.attempts, early.plan)), [], 'a finding needs no other probe');
});

test('waits-5s counts a new connection\'s accept-to-request time into the sender\'s wait: a hang-up short only by it is not judged', () => {
  const WAITS = 'webhook.timeout.waits-5s';
  const hangUp = (s: number, connectingS?: number) => {
    const r = withSecondSlowProbe(s);
    const b = r.attempts.find(x => x.checkoutId === 'slow6b' && x.probe === 'slow-6s')!;
    if (connectingS !== undefined) b.connectedMs = b.arrivedMs - connectingS * S;
    return check(r.attempts, r.plan, WAITS);
  };
  // 3.75 s measured from the request, 1.25 s after the sink accepted its connection (a burst of new connections on a
  // busy machine, in a CI run): the sender may have waited the whole 5 s, so the hang-up is left unjudged, with the figure.
  assert.equal(hangUp(3.75).status, 'failed');
  const credited = hangUp(3.75, 1.25);
  assert.notEqual(credited.status, 'failed', credited.message);
  assert.ok(credited.evidence.some(e => e.kind === 'note' && /1\.25 s from the connection's accept to the request/.test(e.text)),
    JSON.stringify(credited.evidence.filter(e => e.kind === 'note')));
  // Short even with that time counted: it fails.
  const short = hangUp(3, 1.25);
  assert.equal(short.status, 'failed');
  assert.match(short.message!, /hung up 3\.00 s after sending event 0 \(STARTED\) of checkout slow6b/);
});

test('min-delay judges each place in a run of failures on the delays stamped in time; a place with none judged is not run', () => {
  // e500's first retry blurred: the other first retries (e201, e302, rst, held, slow6) were stamped in time.
  const one = conforming();
  one.attempts.find(x => x.checkoutId === 'e500' && x.answer === 500)!.lagMs = 500;
  const c = check(one.attempts, one.plan, 'webhook.backoff.min-delay');
  assert.equal(c.status, 'passed', c.message);
  assert.ok(c.evidence.some(e => e.kind === 'note' && /1 of \d+ retry delays could not be judged.*left out/.test(e.text)));
  assert.deepEqual(backoffUnjudged(view(one.attempts, one.plan)), { failures: 0, at: [] });

  // Held's second delay (10.09 s: near the minimum, where lateness matters) is the only second retry:
  // blurred, that place is not judged, and a run of two failures is asked for.
  const second = conforming();
  const held = second.attempts.filter(x => x.checkoutId === 'held');
  [0, 10.1, 20.2, 60.3, 60.4].forEach((t, i) => moveTo(held[i], t));
  held[1].lagMs = 500;
  held[2].lagMs = 500;
  // Without the event-position checkouts, whose second retries (each fails twice) would stand for it.
  second.attempts.splice(0, second.attempts.length, ...second.attempts.filter(x => !x.checkoutId.startsWith('p-')));
  for (const k of [...second.plan.keys()]) if (k.startsWith('p-')) second.plan.delete(k);
  const m = check(second.attempts, second.plan, 'webhook.backoff.min-delay');
  assert.equal(m.status, 'skipped');
  assert.match(m.message!, /retry delays could not be judged: the sink itself ran up to 0\.50 s late/);
  assert.deepEqual(backoffUnjudged(view(second.attempts, second.plan)), { failures: 2, at: ['normal first'] });

  // Every first retry blurred: not run.
  const first = conforming();
  for (const x of first.attempts) if (x.answer !== 200 && !(x.checkoutId === 'held' && x.arrivedMs > 0)) x.lagMs = 500;
  assert.equal(check(first.attempts, first.plan, 'webhook.backoff.min-delay').status, 'skipped');

  // A retry 2 s after the failure fails even when the other delays were blurred.
  const early = conforming();
  for (const x of early.attempts) if (x.checkoutId !== 'e500') x.lagMs = 500;
  early.attempts.find(x => x.checkoutId === 'e500' && x.answer === 200 && status(x) === 'STARTED')!.arrivedMs = 2 * S;
  assert.equal(check(early.attempts, early.plan, 'webhook.backoff.min-delay').status, 'failed');
  assert.deepEqual(backoffUnjudged(view(early.attempts, early.plan)), { failures: 0, at: [] }, 'a finding needs no other probe');
});

test('growth judges each event position on the chains stamped in time; with every chain at a position blurred it is not run', () => {
  const { attempts, plan } = conforming();
  // Without p-normal-first, whose chain would stand for held's at the first event of a normal checkout.
  attempts.splice(0, attempts.length, ...attempts.filter(x => x.checkoutId !== 'p-normal-first'));
  plan.delete('p-normal-first');
  // Held's delays 10.09, 20.09 then 16.1 s: a step down that jitter allows, which a blurred stamp could turn either way.
  const held = attempts.filter(x => x.checkoutId === 'held');
  [0, 10.1, 30.2, 46.31, 46.4].forEach((t, i) => moveTo(held[i], t));
  for (const x of held) x.lagMs = BLUR;
  const blurred = check(attempts, plan, 'webhook.backoff.growth');
  assert.equal(blurred.status, 'skipped');
  assert.match(blurred.message!, /exercised 5 of 6 event-positions; not at normal first: 1 of 1 chains of retry delays could not be judged/);
  assert.deepEqual(backoffUnjudged(view(attempts, plan)), { failures: 3, at: ['normal first'] });
  // A second chain of three failures, stamped in time: judged on it.
  [0, 10.1, 30.2].forEach(t => attempts.push(att({ id: 'again', status: 'STARTED', at: 100 + t, answer: 500 })));
  attempts.push(att({ id: 'again', status: 'STARTED', at: 170.3 }));
  plan.set('again', { plan: { name: 'again', answers: ['status-500', 'status-500', 'status-500'], request: { kind: 'normal', statuses: [] } },
    control: { status: 201, id: 'again' } });
  const c = check(attempts, plan, 'webhook.backoff.growth');
  assert.equal(c.status, 'passed', c.message);
  assert.ok(c.evidence.some(e => e.kind === 'note' && /left out; judged on the 6 chains/.test(e.text)));
  assert.deepEqual(backoffUnjudged(view(attempts, plan)), { failures: 0, at: [] });
  // The same second chain growing linearly (10, 20, 30 s) fails, blurred first chain or not.
  const flat = attempts.filter(x => x.checkoutId === 'again');
  [0, 10.1, 30.2, 60.3].forEach((t, i) => { flat[i].arrivedMs = (100 + t) * S; flat[i].answeredMs = (100 + t + 0.01) * S; });
  assert.equal(check(attempts, plan, 'webhook.backoff.growth').status, 'failed');
});

test("an attempt the sink stamped on time (lagMs 0) is not judged by the run's worst lateness", () => {
  const { attempts, plan } = conforming();
  for (const x of attempts) x.lagMs = 0;
  const checks = analyze(attempts, plan, { ...OPTS, schedulingDelayMs: BLUR });
  // The long chain is driven on request only (--long-chains): without it that check is not selected, never judged.
  assert.deepEqual(checks.filter(c => c.status !== 'passed' && c.skipKind !== 'not-selected').map(c => `${c.id}: ${c.message}`), []);
  assert.deepEqual(checks.filter(c => c.skipKind === 'not-selected').map(c => c.id), ['webhook.retry.long-chain']);
  // Without lagMs (a hand-made record, an older report) the run's worst applies.
  for (const x of attempts) delete x.lagMs;
  assert.equal(analyze(attempts, plan, { ...OPTS, schedulingDelayMs: BLUR }).find(c => c.id === 'webhook.timeout.waits-5s')!.status, 'skipped');
});
