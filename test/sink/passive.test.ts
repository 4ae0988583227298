// The passive sink gives each new checkout the next probe of its cycle that fits the checkout's kind: an entry named
// for a batch checkout's place waits for a batch checkout, whatever order the sender's checkouts arrive in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { PASSIVE_CYCLE, passiveChooser, type CheckoutPlan } from '../../harness/sink/plan.ts';
import { startSink } from '../../harness/sink/server.ts';
import { kindOfHead } from '../../harness/sink/routes.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';

const KEY = 'passive-key-12345';

test('the chooser: entries in cycle order, an entry for one kind passed over until a checkout of that kind comes', () => {
  const cycle: CheckoutPlan[] = [
    { name: 'a', answers: [] }, { name: 'b', answers: [], wants: 'batch' }, { name: 'c', answers: [] }, { name: 'd', answers: [], wants: 'normal' },
  ];
  const next = passiveChooser(cycle);
  const got = (['normal', 'normal', 'batch', undefined, 'normal', 'batch', 'batch'] as const).map(k => next(k).name);
  // normal: a; normal: c (b passed over); batch: b (it waited); unknown: a (d is for normal checkouts, passed over);
  // normal: d (it waited); then the cycle goes on where it was: batch: b; batch: c.
  assert.deepEqual(got, ['a', 'c', 'b', 'a', 'd', 'b', 'c']);
  // A cycle whose every entry wants the other kind still answers.
  assert.equal(passiveChooser([{ name: 'x', answers: [], wants: 'batch' }])('normal').name, 'x');
  // A released entry goes to the next checkout of its kind, before the cycle goes on.
  const again = passiveChooser(cycle);
  assert.deepEqual([again('normal').name, again('normal').name, again('normal').name].join(), 'a,c,d');
  again.release(cycle[3]!);
  assert.deepEqual([again('batch').name, again('normal').name, again('normal').name].join(), 'b,d,a');
});

test('the sink: a checkout cancelled after STARTED hands its middle place to the next checkout of its kind', async () => {
  const middle = PASSIVE_CYCLE.find(p => p.wants === 'normal' && p.failAt === 'middle')!;
  const sink = await startSink({ timeScale: 0.05, apiKey: KEY, passive: [middle, { name: 'clean', answers: [] }] });
  try {
    const send = (id: string, status: string) => request(`${sink.url}/webhook`, { method: 'POST',
      headers: { 'content-type': 'application/json', 'api-key': KEY }, body: JSON.stringify(buildWebhookBody({ kind: 'normal', id, status })) })
      .then(async r => { await r.body.text(); return r.statusCode; }, () => 'no answer');
    // ck-1 takes the middle place, then ends without a middle event; ck-2 comes next and takes it.
    assert.equal(await send('ck-1', 'STARTED'), 200);
    assert.equal(await send('ck-1', 'CANCELLED'), 200);
    assert.equal(await send('ck-2', 'STARTED'), 200);
    const plans = new Map([...sink.plan()].map(([id, p]) => [id, p.plan.name]));
    assert.deepEqual([plans.get('ck-1'), plans.get('ck-2')], [middle.name, middle.name]);
    // Its middle event is the one probed (the first probe of the place holds the answer back past the window: no answer here).
    assert.equal(await Promise.race([send('ck-2', 'PAYMENT_INITIATED'), new Promise(r => setTimeout(() => r('held'), 200))]), 'held');
    // Without the release the cycle goes on: the next normal checkout would get 'clean' and the place would never come.
    assert.equal(await send('ck-3', 'STARTED'), 200);
    assert.equal(new Map([...sink.plan()].map(([id, p]) => [id, p.plan.name])).get('ck-3'), 'clean');
  } finally { await sink.close(); }
});

test('the sink: normal and batch checkouts arriving interleaved each get the places of their kind', async () => {
  const sink = await startSink({ timeScale: 0.05, apiKey: KEY });
  try {
    // The cycle's place entries come last (normal middle, normal final, batch first, middle, final); a sender's
    // checkouts reach them alternating. Taken in arrival order, a batch checkout would get a normal place.
    const places = PASSIVE_CYCLE.filter(p => p.wants).length;
    const kinds: Array<'normal' | 'batch'> =
      [...Array<'normal' | 'batch'>(PASSIVE_CYCLE.length - places).fill('normal'), 'batch', 'normal', 'batch', 'normal', 'batch'];
    for (const [i, kind] of kinds.entries()) {
      // Each first attempt as the probe answers it (one resets the connection).
      await request(`${sink.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'api-key': KEY },
        body: JSON.stringify(buildWebhookBody({ kind, id: `ck-${i}`, status: 'STARTED' })) }).then(r => r.body.text(), () => undefined);
    }
    const planned = sink.plan();
    const planOf = new Map([...planned].map(([id, p]) => [id, p.plan.name]));
    const batchPlans = kinds.flatMap((k, i) => k === 'batch' ? [planOf.get(`ck-${i}`)] : []);
    assert.deepEqual(batchPlans, ['batch-first-fails', 'batch-middle-fails', 'batch-final-fails']);
    const normalPlans = kinds.flatMap((k, i) => k === 'normal' ? [planOf.get(`ck-${i}`)!] : []);
    assert.ok(normalPlans.includes('normal-middle-fails') && normalPlans.includes('normal-final-fails'), normalPlans.join(', '));
    assert.ok(!normalPlans.some(p => p.startsWith('batch-')), normalPlans.join(', '));
  } finally { await sink.close(); }
});

test('the kind of a body: a payments array, a payment object, and the older variant (no id) at no place', () => {
  assert.equal(kindOfHead(JSON.stringify(buildWebhookBody({ kind: 'batch', id: 'b-1', status: 'STARTED' }))), 'batch');
  assert.equal(kindOfHead(JSON.stringify(buildWebhookBody({ kind: 'normal', id: 'n-1', status: 'STARTED' }))), 'normal');
  assert.equal(kindOfHead(JSON.stringify(buildWebhookBody({ kind: 'older', id: 'o-1', status: 'STARTED' }))), undefined);
  assert.equal(kindOfHead('{"id": "x", "payments" :\n [ {} ]}'), 'batch');
  assert.equal(kindOfHead('not json'), undefined);
});
