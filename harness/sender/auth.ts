// receiver.auth: a delivery without the registered api-key is never accepted.
// Spec 5.4: "Every webhook request carries the key in the api-key header; the
// receiver verifies it to confirm the sender." The spec does not say how a
// receiver refuses, so the must checks pass any answer but a 2xx (a 2xx takes
// the forged event, whatever its code); no answer at all is a failure too (the
// sender cannot tell a refusal from a receiver that hangs). How it refuses is
// judged beside them at should: a 4xx names the client's mistake, a 5xx or a
// dropped connection says the receiver failed and invites the sender to retry.
import { randomBytes } from 'node:crypto';
import type { CheckDef } from '../report/check.ts';
import { answerOf, notRun, notSentOutcome, result, timed, type Outcome } from './check.ts';
import { silence, type Ctx } from './context.ts';
import { freshBody } from './plan.ts';
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
];

const QUOTE = 'Every webhook request carries the key in the api-key header; the receiver verifies it to confirm the sender.';

/** One must check per probe, in probe order. */
export const AUTH_CHECKS: readonly CheckDef[] = PROBES.map(p => ({
  id: `receiver.auth.${p.name}`, requirements: ['R5.4-receiver-verifies-key'], title: p.title, spec: '5.4', quote: QUOTE,
}));

/** How every refusal was made, judged at should. */
export const REFUSED_WITH_4XX: CheckDef = {
  id: 'receiver.auth.refused-with-4xx', requirements: ['R5.4-receiver-verifies-key'], spec: '5.4', quote: QUOTE,
  title: 'Deliveries without the right api-key are refused with a 4xx, not a 5xx or a dropped connection',
};

const took = (d: Delivery) => d.status !== undefined && d.status >= 200 && d.status < 300;

/** The must judgement of one probe. */
function judgeProbe(ctx: Ctx, d: Delivery): Outcome {
  if (d.notSent) return notSentOutcome(d);
  if (took(d)) return {
    status: 'failed', expected: 'any answer but 2xx (401, 403 or 400 are usual)', seen: answerOf(d),
    message: `the receiver accepted a delivery whose api-key it should have refused: ${answerOf(d)}`, evidence: [{ ...d.evidence, primary: true }],
  };
  if (d.timedOut) {
    if (ctx.success.unanswered !== 'fail')
      return notRun(`not judged: no answer within the wait, as valid deliveries of receiver.accepts got none either (receiver.latency reports it)`);
    return {
      status: 'failed', expected: 'a refusal within the wait (401, 403 or 400 are usual)', seen: answerOf(d),
      message: `the receiver answers valid deliveries but left this one without an answer: ${answerOf(d)}; ` +
        'the service would take that for a lost delivery and send it again',
      evidence: [{ ...d.evidence, primary: true }],
    };
  }
  // A receiver that is not listening refuses nothing: receiver.robustness.stays-up reports it.
  if (d.status === undefined && /connection refused/.test(d.error ?? ''))
    return notRun(`not judged: ${answerOf(d)}, which receiver.robustness.stays-up reports`);
  // A connection closed without an answer is no answer: the service cannot tell it from a receiver that broke.
  if (d.status === undefined) {
    if (ctx.success.unanswered !== 'fail') return notRun(`not judged: ${answerOf(d)}, ${ctx.success.unanswered.notRun}`);
    return {
      status: 'failed', expected: 'an HTTP answer that is not a 2xx (401, 403 or 400 are usual)', seen: answerOf(d),
      message: `the receiver gave no answer to a delivery whose api-key it should have refused: ${answerOf(d)}; ` +
        'the service cannot tell that from a receiver that failed, and would send it again',
      evidence: [{ ...d.evidence, primary: true }],
    };
  }
  return { status: 'passed', message: `refused: ${answerOf(d)}` };
}

/** The should judgement of every refusal: 4xx. Probes that took the delivery, got no answer or were not sent are the must checks'. */
function judgeRefusals(probes: readonly Delivery[]): Outcome {
  const refused = probes.filter(d => !d.notSent && !d.timedOut && !took(d));
  if (!refused.length) return notRun('not judged: no delivery without the right api-key was refused (see the other receiver.auth checks)');
  const bad = refused.filter(d => d.status === undefined || d.status < 400 || d.status >= 500);
  if (!bad.length) return { status: 'passed', message: `refused with ${[...new Set(refused.map(d => d.status))].join(', ')}` };
  const seen = bad.map(d => `${d.label}: ${answerOf(d)}`).join('; ');
  return {
    status: 'failed', expected: 'a 4xx (401, 403 or 400 are usual)', seen,
    message: `${bad.length} of ${refused.length} refusals were not a 4xx: ${seen}; a 5xx or a dropped connection tells the service to try again`,
    evidence: bad.map((d, i) => (i ? d.evidence : { ...d.evidence, primary: true })),
  };
}

/** The probes go out side by side (independent checkouts); results are emitted in a fixed order. */
export async function runAuth(ctx: Ctx): Promise<void> {
  const quiet = silence(ctx);
  if (quiet) {
    for (const def of [...AUTH_CHECKS, REFUSED_WITH_4XX]) ctx.emit(result(def, notRun(quiet), 0));
    return;
  }
  const sent: Delivery[] = [];
  const checks = await Promise.all(PROBES.map((p, i) => timed(AUTH_CHECKS[i], async () => {
    const d = await ctx.t.post(freshBody(ctx.ids), { kind: 'auth', label: p.title.replace(/ is refused$/, ''), apiKey: p.key(ctx.opts.apiKey),
      ...(p.curl ? { curlKey: p.curl } : {}) });
    sent[i] = d;
    return judgeProbe(ctx, d);
  })));
  for (const c of checks) ctx.emit(c);
  ctx.emit(await timed(REFUSED_WITH_4XX, () => judgeRefusals(sent)));
}
