// A case whose timing the sink's lateness blurred runs again: at a whole check
// ("could not be judged"), at one place of it (the sink's own lateness named),
// and at an API check whose remedy asks for a quieter machine. A whole run that
// three busy tries left short only of what the load kept from being judged is
// too busy to judge; one with a failure or another check not run is not. A
// fault case runs again when a named check it missed passed on a skewed run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeable, shortForLoad, tooBusyToJudge } from './stall.ts';
import { faultUnjudged, runSkew, tooBusyForCase } from './reference-cases.ts';

const PLACE_BLURRED = "exercised 4 of 6 event-positions; not at normal first: the sender gave up after 4.20 s: with the sink's own lateness " +
  'around the attempt (0.58 s, measured) and a head start of up to 0.00 s (the sender\'s quickest turnaround) it waited between 3.61 s and ' +
  '4.78 s, on both sides of 4.00 s';

const REMEDY_BUSY = { message: 'the refresh token of exchange 2 was refused 2.31 s (real) after it was asked for, at or past its refresh_expires_in',
  remedy: 'run with a larger --time-scale, or on a less busy machine, so that a chain\'s exchanges end within the refresh token\'s lifetime' };

for (const skipped of [{ message: '2 of 2 hang-ups could not be judged: the sink itself ran up to 0.60 s late around them (measured lag)' },
  { message: PLACE_BLURRED }, REMEDY_BUSY]) {
  test(`a run judged again when the machine was too busy: ${skipped.message.slice(0, 60)}…`, async () => {
    const runs = [{ checks: [{ status: 'skipped', ...skipped }] }, { checks: [{ status: 'passed' }] }];
    let made = 0;
    const { result, blurred } = await judgeable(async () => runs[made++]!, 10_000, r => r.checks.every(c => c.status === 'passed'));
    assert.equal(made, 2);
    assert.equal(result.checks[0]!.status, 'passed');
    assert.equal(blurred, '');
  });
}

test('a run whose skip is not the sink\'s lateness is not made again', async () => {
  let made = 0;
  const { result } = await judgeable(async () => { made++; return { checks: [{ status: 'skipped', message: 'no batch checkout was created' }] }; },
    10_000, r => r.checks.every(c => c.status === 'passed'));
  assert.equal(made, 1);
  assert.equal(result.checks[0]!.status, 'skipped');
});

test('a whole run too busy to judge: only checks not run for the load, after busy tries; not with a failure or another skip', () => {
  const blurred = '\n(the machine was too busy to judge timing on each of 3 tries: this process stalled 900 ms, 700 ms, 800 ms against a tolerance of 150 ms)';
  const busy = { id: 'webhook.timeout.waits-5s', level: 'must', status: 'skipped', message: PLACE_BLURRED };
  const opaque = { id: 'token.use.tampered-token-refused', level: 'must', status: 'skipped', message: 'the tokens are opaque' };
  const passed = { id: 'data.banks.list', level: 'must', status: 'passed' };
  const expected = (c: { id: string }) => c.id === opaque.id;
  assert.match(tooBusyToJudge([passed, busy, opaque], blurred, expected) ?? '', /^the machine was too busy to judge the run: webhook\.timeout\.waits-5s not run: .*stalled 900 ms/s);
  assert.equal(tooBusyToJudge([passed, busy, opaque], '', expected), undefined, 'a calm try is asserted on');
  assert.equal(tooBusyToJudge([passed, busy, opaque], blurred), undefined, 'another check not run');
  assert.equal(tooBusyToJudge([passed, busy, opaque, { ...passed, id: 'data.banks.get', status: 'failed' }], blurred, expected), undefined, 'a failure');
  assert.equal(tooBusyToJudge([passed, opaque], blurred, expected), undefined, 'nothing short of passing');
  assert.equal(tooBusyToJudge([passed, { ...busy, level: 'should' }, opaque], blurred, expected), undefined, 'a should check');
  // A check not applicable (or not selected) keeps no run from its verdict: it needs no `expected` to be left aside.
  const tampered = { ...opaque, id: 'token.use.tampered-token-refused', skipKind: 'not-applicable' };
  assert.deepEqual(shortForLoad([passed, busy, tampered, { ...passed, id: 'data.banks.get', status: 'skipped', skipKind: 'not-selected' }])
    ?.map(c => c.id), [busy.id]);
  assert.equal(shortForLoad([passed, busy, { ...tampered, skipKind: 'not-run' }]), undefined, 'a check not run for another reason');
});

test('a clean webhook case is skipped only when both its runs stalled past the tolerance and it only left checks not run', () => {
  const notRun = { problems: ['webhook.backoff.growth skipped: which one chain cannot tell apart'], notRunOnly: true };
  const reason = tooBusyForCase({ ...notRun, stall: 299 }, { ...notRun, stall: 253 }, 200);
  assert.match(reason ?? '', /stalled 299 ms, then 253 ms alone, past the 200 ms tolerance, and only these checks were left not run: webhook\.backoff\.growth/);
  // Judged once only, a calm run, a failure among the problems (or a fault case, which never says notRunOnly), nothing wrong: judged as it is.
  assert.equal(tooBusyForCase({ ...notRun, stall: 299 }, undefined, 200), undefined);
  assert.equal(tooBusyForCase({ ...notRun, stall: 299 }, { ...notRun, stall: 150 }, 200), undefined);
  assert.equal(tooBusyForCase({ ...notRun, stall: 150 }, { ...notRun, stall: 299 }, 200), undefined);
  assert.equal(tooBusyForCase({ ...notRun, stall: 299 }, { problems: ['webhook.order.ack-gated failed: …'], notRunOnly: false, stall: 299 }, 200), undefined);
  assert.equal(tooBusyForCase({ ...notRun, stall: 299 }, { problems: [], notRunOnly: true, stall: 299 }, 200), undefined);
});

test('a fault case is judged again alone when what it missed passed on a run the sink saw skewed, never when it saw it as sent', () => {
  // Attempts of one checkout in real ms at time scale 1: the reference's send and end, the sink's arrival and answer.
  const at = (checkoutId: string, sentAtMs: number, endedAtMs: number) =>
    ({ checkoutId, event: 0, status: 'STARTED', attempt: 1, copy: 1, sentAtMs, endedAtMs, outcome: 'http-500' as const, written: true, headers: {} });
  const got = (checkoutId: string, arrivedMs: number, answeredMs: number) => ({ checkoutId, body: '{}', arrivedMs, answeredMs, answer: 500 });
  const logged = [at('a', 0, 5), at('a', 2_000, 2_005), at('b', 0, 5), at('b', 2_000, 2_005)];
  // Checkout b's second attempt reached the sink 350 ms later than the reference's 2 s gap: a backoff read 2.35 s.
  const skewed = runSkew(1, logged, [got('a', 100, 105), got('a', 2_100, 2_105), got('b', 40, 45), got('b', 2_390, 2_395)]);
  assert.equal(skewed.checkoutId, 'b');
  assert.equal(Math.round(skewed.skewMs), 350);
  assert.equal(runSkew(1, logged, [got('a', 100, 105), got('a', 2_110, 2_115), got('b', 40, 45), got('b', 2_040, 2_045)]).skewMs, 10);
  const missedPass = { missed: ['passed'], outsideSkewsMs: [], levelMet: false, floorMs: 200 };
  assert.equal(faultUnjudged({ ...missedPass, runSkewMs: 350 }), true);
  assert.equal(faultUnjudged({ ...missedPass, runSkewMs: 150 }), false, 'a pass on a run the sink saw as sent is a missed fault');
  assert.equal(faultUnjudged({ ...missedPass, missed: ['skipped'], runSkewMs: 0 }), true, 'a named check not run');
  assert.equal(faultUnjudged({ ...missedPass, missed: ['absent'], runSkewMs: 350 }), false, 'a check missing from the results');
  assert.equal(faultUnjudged({ ...missedPass, runSkewMs: 350, outsideSkewsMs: [350, 120] }), false, 'a failure outside met no skew');
  assert.equal(faultUnjudged({ ...missedPass, missed: [], runSkewMs: 350, outsideSkewsMs: [350] }), false, 'the level missed, nothing named missed');
  assert.equal(faultUnjudged({ ...missedPass, missed: [], levelMet: true, runSkewMs: 0, outsideSkewsMs: [350] }), true);
});
