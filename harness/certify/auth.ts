// receiver.auth: a delivery without the registered api-key is never taken.
// Spec 5.4: "Every webhook request carries the key in the api-key header; the
// receiver verifies it to confirm the sender." The spec says the receiver
// verifies the key, not how it answers a forgery. With --state-url the must
// checks judge what the receiver did with the forged event: its state must
// show no trace of it, whatever the answer (read after a valid delivery sent
// behind the forged ones has shown in the state, so a receiver that applies
// events from a queue is read once it caught up). Without --state-url a 2xx
// leaves the must check not-run: a receiver may verify the key and drop the
// event with a 200. No answer at all is a failure either way (the sender
// cannot tell a refusal from a receiver that hangs). How it refuses is judged
// beside them at should: a 4xx names the client's mistake; a 5xx or a dropped
// connection invites the sender to retry, and a 2xx tells it the event was
// delivered. "Every webhook request": each probe is forged at three places,
// the first event of a new checkout, the final one of a checkout the receiver
// holds at PAYMENT_INITIATED (a forged PAYMENT_COMPLETED marks an order paid),
// so a receiver that verifies the key only when a checkout starts is seen, and
// the first event of a new batch checkout, so one that verifies it in its
// normal flow only is seen too.
import { randomBytes } from 'node:crypto';
import type { CheckDef } from '../check/def.ts';
import { PlaceLedger } from '../results/places.ts';
import { answerOf, notSentOutcome, timed } from './check.ts';
import { failed, notApplicable, notRun, passed, type Outcome } from '../check/outcome.ts';
import { silence, type Ctx } from './context.ts';
import { AUTH_PLACES, eventBody, type AuthPlace, type Checkout } from './plan.ts';
import { readState, settledStates, SETTLE_SPEC_MS, type StateRead } from './state.ts';
import type { Delivery } from './transport.ts';

interface Probe {
  name: string;
  title: string;
  /** The api-key header to send (null: none), from the registered key. */
  key: (real: string) => string | null;
  /** How the curl line writes a key derived from the registered one (so the report never shows most of it). */
  curl?: string;
}

/** A random key of the given length, never derived from the real one (the report shows it). */
function randomKey(length: number): string {
  let s = '';
  while (s.length < length) s += randomBytes(32).toString('base64url');
  return s.slice(0, Math.max(1, length));
}

const PROBES: Probe[] = [
  { name: 'missing-key', title: 'A delivery without the api-key header is refused', key: () => null },
  { name: 'wrong-key', title: 'A delivery with a wrong api-key is refused', key: () => `wrong-${randomKey(16)}` },
  { name: 'same-length-key', title: 'A delivery with a wrong api-key of the same length is refused', key: real => {
    let k = randomKey(real.length);
    while (k === real) k = randomKey(real.length);
    return k;
  } },
  { name: 'empty-key', title: 'A delivery with an empty api-key header is refused', key: () => '' },
  // A receiver that compares only a prefix of the key (startsWith, a fixed-length compare) takes these.
  { name: 'key-with-suffix', title: 'A delivery with the api-key and one more character is refused', key: real => `${real}x`, curl: '${PIS_WEBHOOK_API_KEY}x' },
  { name: 'truncated-key', title: 'A delivery with the api-key without its last character is refused', key: real => [...real].slice(0, -1).join(''),
    curl: '${PIS_WEBHOOK_API_KEY%?}' },
  // A key that differs only in letter case is another key (a receiver that compares case-insensitively takes it).
  { name: 'case-changed-key', title: 'A delivery with the api-key in the other letter case is refused', key: swapCase, curl: '${PIS_WEBHOOK_API_KEY~~}' },
];

/** Every letter in the other case ("Ab1" -> "aB1"); a key without cased letters comes back unchanged. */
function swapCase(s: string): string {
  return [...s].map(c => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}


const QUOTE = 'Every webhook request carries the key in the api-key header; the receiver verifies it to confirm the sender.';

/** One must check per probe, in probe order. */
export const AUTH_CHECKS: readonly CheckDef[] = PROBES.map(p => ({
  id: `receiver.auth.${p.name}`, requirements: ['R5.4-receiver-verifies-key'], title: p.title, spec: '5.4', quote: QUOTE,
  bindsAt: { family: 'event-position', only: AUTH_PLACES.map(x => x.place) },
}));

/** How every refusal was made, judged at should. */
export const REFUSED_WITH_4XX: CheckDef = {
  id: 'receiver.auth.refused-with-4xx', requirements: ['R5.4-receiver-verifies-key'], spec: '5.4', quote: QUOTE,
  title: 'Deliveries without the right api-key are refused with a 4xx, not a 5xx or a dropped connection',
};

const took = (d: Delivery) => d.status !== undefined && d.status >= 200 && d.status < 300;

/**
 * What the receiver's state shows of a probe's checkout: undefined without
 * --state-url, a reason when it could not be told, or the read.
 */
type Trace = StateRead | string | undefined;

/**
 * The must judgement of one probe at one place; `was`: the status the checkout's valid events left (none for a new checkout),
 * `forged`: the status of the forged event.
 */
function judgeProbe(ctx: Ctx, d: Delivery, given: Trace, was?: string, forged?: string): Outcome {
  if (d.notSent) return notSentOutcome(d);
  // A state that is neither what the valid events left nor the forged status says nothing of the forged event.
  const trace: Trace = was && typeof given === 'object' && given.status !== was && given.status !== forged
    ? `its state shows ${given.status ?? given.problem}, not the ${was} its valid events left, so it cannot show whether the forged event changed it`
    : given;
  const read = typeof trace === 'object' ? trace : undefined;
  if (read?.status && read.status !== was) {
    return failed(`the receiver took a delivery whose api-key it should have refused (answered ${answerOf(d)}): its state shows the checkout ${read.status}` +
      `${was ? `, not ${was} as its valid events left it` : ''}`,
    `no trace of the forged event in the receiver's state${was ? ` (the checkout still ${was})` : ''}`, `state ${read.status} after ${answerOf(d)}`,
    [{ ...d.evidence, primary: true }, read.read.evidence]);
  }
  if (took(d)) {
    if (trace === undefined)
      return notRun(`not judged: the receiver answered ${answerOf(d)}; whether it verified the key and dropped the event shows only in its state ` +
        '(receiver.auth.refused-with-4xx reports the answer)', 'give --state-url');
    if (typeof trace === 'string') return notRun(`not judged: the receiver answered ${answerOf(d)}, and ${trace}`);
    if (trace.read.status === undefined) return notRun(`not judged: the receiver answered ${answerOf(d)}, and ${trace.problem}`);
    return passed(`answered ${answerOf(d)} but its state has no trace of the event ` +
      `(${was ? `still ${was}` : trace.problem}); receiver.auth.refused-with-4xx reports the 2xx`);
  }
  if (d.timedOut) {
    if (ctx.success.unanswered !== 'fail')
      return notRun(`not judged: no answer within the wait, as valid deliveries of receiver.accepts got none either (receiver.latency reports it)`);
    return failed(`the receiver answers valid deliveries but left this one without an answer: ${answerOf(d)}; ` +
      'the service would take that for a lost delivery and send it again',
    'a refusal within the wait (401, 403 or 400 are usual)', answerOf(d), [{ ...d.evidence, primary: true }]);
  }
  // A receiver that is not listening refuses nothing: receiver.robustness.stays-up reports it.
  if (d.status === undefined && /connection refused/.test(d.error ?? ''))
    return notRun(`not judged: ${answerOf(d)}, which receiver.robustness.stays-up reports`);
  // A connection closed without an answer is no answer: the service cannot tell it from a receiver that broke.
  if (d.status === undefined) {
    if (ctx.success.unanswered !== 'fail') return notRun(`not judged: ${answerOf(d)}, ${ctx.success.unanswered.notRun}`);
    return failed(`the receiver gave no answer to a delivery whose api-key it should have refused: ${answerOf(d)}; ` +
      'the service cannot tell that from a receiver that failed, and would send it again',
    'an HTTP answer that is not a 2xx (401, 403 or 400 are usual)', answerOf(d), [{ ...d.evidence, primary: true }]);
  }
  const state = read ? `, and its state has no trace of it${was ? ` (still ${was})` : ''}`
    : typeof trace === 'string' ? `; the state was not compared: ${trace}` : '';
  return passed(`refused: ${answerOf(d)}${state}`);
}

/**
 * One probe's outcome over its places: failed where it broke (naming the
 * place), not run when a place could not be judged, passed when it held at each.
 */
function overPlaces(checks: readonly { at: AuthPlace; o: Outcome }[]): Outcome {
  const ledger = new PlaceLedger('event-position', AUTH_PLACES.map(x => x.place));
  for (const { at, o } of checks) {
    if (o.status === 'failed') ledger.fail(at.place);
    else if (o.status === 'passed') ledger.pass(at.place);
    else ledger.skip(at.place, o.message ?? 'not judged');
  }
  const places = ledger.tally();
  const at = (x: { at: AuthPlace; o: Outcome }) => `at the ${x.at.place} event (${x.at.status}): ${x.o.message}`;
  const broke = checks.filter(x => x.o.status === 'failed');
  if (broke.length) return { ...broke[0].o, message: broke.map(at).join('; '), places,
    evidence: broke.flatMap(x => x.o.evidence ?? []) };
  const open = checks.find(x => x.o.status === 'skipped');
  if (open) return { ...open.o, message: checks.map(at).join('; '), places };
  return { ...passed(checks.map(at).join('; ')), places };
}

/** The should judgement of every answer: a 4xx. Probes that got no answer or were not sent are the must checks'. */
function judgeRefusals(probes: readonly Delivery[]): Outcome {
  const answered = probes.filter(d => !d.notSent && !d.timedOut);
  if (!answered.length) return notRun('not judged: no delivery without the right api-key was answered (see the other receiver.auth checks)');
  const bad = answered.filter(d => d.status === undefined || d.status < 400 || d.status >= 500);
  if (!bad.length) return passed(`refused with ${[...new Set(answered.map(d => d.status))].join(', ')}`);
  const seen = bad.map(d => `${d.label}: ${answerOf(d)}`).join('; ');
  const why = [
    ...(bad.some(d => !took(d)) ? ['a 5xx or a dropped connection tells the service to try again'] : []),
    ...(bad.some(took) ? ['a 2xx tells the service the event was delivered, so events it sends under a key the receiver no longer takes ' +
      '(after a key change) are dropped, not retried'] : []),
  ].join('; ');
  return failed(`${bad.length} of ${answered.length} answers were not a 4xx: ${seen}; ${why}`, 'a 4xx (401, 403 or 400 are usual)', seen,
    bad.map((d, i) => (i ? d.evidence : { ...d.evidence, primary: true })));
}

/**
 * With --state-url: after the forged deliveries, one valid delivery of a new
 * checkout, and its state read until it shows (a queued receiver has then
 * applied what came before it); then a checkout never sent, which must show
 * no status; then each probe's checkout once.
 */
async function traces(ctx: Ctx, ids: readonly string[]): Promise<Trace[]> {
  const template = ctx.opts.stateUrl;
  if (!template) return ids.map(() => undefined);
  if (ctx.success.refused) return ids.map(() => ctx.success.refused!);
  const w = ctx.ids.checkout('auth-after');
  const d = await ctx.t.post(eventBody(w, 'STARTED'), { kind: 'normal', label: `a valid delivery after the forged ones (checkout ${w.id})` });
  if (!ctx.success.ok(d)) return ids.map(() => `a valid delivery sent after it got ${answerOf(d)}, so the state could not be compared`);
  const [s] = await settledStates(ctx.t, template, [w.id], r => r.status === 'STARTED', ctx.t.timing.clock.toReal(SETTLE_SPEC_MS));
  if (!s.settled)
    return ids.map(() => `the state of a valid checkout delivered after it showed ${s.status ?? s.problem}, not STARTED, so its state cannot be trusted here`);
  // A state URL that shows a status for a checkout never sent cannot show that a forged event left none.
  const never = await readState(ctx.t, template, ctx.ids.next('never-sent'));
  if (never.status || never.read.status === undefined)
    return ids.map(() => `the state URL answered ${never.status ? `status ${never.status}` : never.problem} for a checkout never sent, ` +
      'so it cannot show whether the forged event left a trace');
  return Promise.all(ids.map(id => readState(ctx.t, template, id)));
}

/**
 * A probe at one place: the checkout's valid events first, with the registered
 * key, each once the previous one was answered; then the forged one. Undefined
 * (with why) when a valid event was refused, so the place cannot be judged.
 */
async function forge(ctx: Ctx, c: Checkout, at: AuthPlace, key: string, label: string, curl?: string): Promise<Delivery | string> {
  for (const [i, status] of at.before.entries()) {
    const d = await ctx.t.post(eventBody(c, status, at.kind, i), { kind: at.kind, label: `${label}: valid ${status} before the forged ${at.status}` });
    if (!ctx.success.ok(d)) return `the valid ${status} sent before the forged ${at.status} got ${answerOf(d)}, which receiver.accepts reports`;
  }
  return ctx.t.post(eventBody(c, at.status, at.kind, at.before.length),
    { kind: 'auth', label: `${label} (${at.kind} ${at.status})`, apiKey: key, ...(curl ? { curlKey: curl } : {}) });
}

/** The probes go out side by side at each place (independent checkouts); results are emitted in a fixed order. */
export async function runAuth(ctx: Ctx): Promise<void> {
  const quiet = silence(ctx);
  if (quiet) {
    for (const def of [...AUTH_CHECKS, REFUSED_WITH_4XX]) ctx.emit(def, notRun(quiet));
    return;
  }
  const real = ctx.opts.apiKey;
  const work = PROBES.flatMap(p => AUTH_PLACES.map(at => ({ p, at, c: ctx.ids.checkout('auth') })));
  const send = ({ p, at, c }: (typeof work)[number]) => {
    const key = p.key(real);
    const label = p.title.replace(/ is refused$/, '');
    return key === real ? ctx.t.skip('auth', label, 'the registered api-key has no letter whose case could change')
      : forge(ctx, c, at, key as string, label, p.curl);
  };
  // Place after place, each place's probes side by side: a burst of one probe per key, as before the places were three.
  // All at once, a receiver that answers one request at a time answers the last of them late, which is
  // receiver.concurrency's finding, not receiver.latency's or a refusal's.
  const sent: Awaited<ReturnType<typeof send>>[] = [];
  for (const at of AUTH_PLACES) {
    const here = work.flatMap((w, k) => (w.at === at ? [k] : []));
    const answers = await Promise.all(here.map(k => send(work[k]!)));
    here.forEach((k, j) => { sent[k] = answers[j]!; });
  }
  // A probe not sent because it cannot be made (a key without letters) is no refusal to judge.
  const forged = sent.flatMap((d, k) => (typeof d === 'string' || (d.notSent && work[k].p.key(real) === real) ? [] : [d]));
  const trace = await traces(ctx, work.map(w => w.c.id));
  PROBES.forEach((p, i) => {
    const mine = work.flatMap((w, k) => (w.p === p ? [{ at: w.at, d: sent[k], trace: trace[k] }] : []));
    const first = mine.find(x => typeof x.d !== 'string')?.d as Delivery | undefined;
    const o = first?.notSent && p.key(real) === real
      ? notApplicable(`not applicable: ${first.notSent}`)
      : overPlaces(mine.map(x => ({ at: x.at, o: typeof x.d === 'string' ? notRun(`not judged: ${x.d}`)
        : judgeProbe(ctx, x.d, x.trace, x.at.before.at(-1), x.at.status) })));
    ctx.emit(AUTH_CHECKS[i], o, mine.reduce((n, x) => n + (typeof x.d === 'string' ? 0 : x.d.ms), 0));
  });
  ctx.emit(REFUSED_WITH_4XX, ...await timed(() => judgeRefusals(forged)));
}
