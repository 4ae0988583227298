// receiver.latency: how long the receiver takes to answer, per kind of delivery.
// Spec 6.6: "The service waits 5 seconds in total for a response. Without a
// response in that time the event counts as not delivered and is retried."
// The samples travel in the check's evidence (one samples item per kind, with
// the limit and the advice as marks) so that the report's latency picture can be
// redrawn from results.json alone.
import type { MeasurementEvidence, SamplesEvidence } from '../results/model.ts';
import type { CheckDef } from '../check/def.ts';
import { every, timed, withinLimit } from './check.ts';
import { failed, notRun, passed } from '../check/outcome.ts';
import type { Ctx } from './context.ts';
import { describeLimit, fmtMs, P99_ADVICE_SPEC_MS, RESPONSE_WAIT_SPEC_MS } from './options.ts';
import { summarizeMs, type Summary } from '../report/stats.ts';
import type { Delivery, DeliveryKind } from './transport.ts';

const LATENCY_KINDS: DeliveryKind[] = ['normal', 'batch', 'older', 'burst'];

function line(s: Summary): string {
  return `p50 ${fmtMs(s.p50)}, p95 ${fmtMs(s.p95)}, p99 ${fmtMs(s.p99)}, max ${fmtMs(s.max)} (n=${s.n})`;
}

/** Evidence for the report: a summary and the raw samples of each kind, with the limit and the advice as marks. */
export function latencyEvidence(log: readonly Delivery[], limitMs: number, adviceMs: number): (MeasurementEvidence | SamplesEvidence)[] {
  const out: (MeasurementEvidence | SamplesEvidence)[] = [];
  for (const kind of LATENCY_KINDS) {
    const ms = log.filter(d => d.kind === kind && d.status !== undefined).map(d => d.ms);
    const unanswered = log.filter(d => d.kind === kind && d.status === undefined && !d.notSent).length;
    if (!ms.length) continue;
    out.push({ kind: 'measurement', name: `latency ${kind}`, expected: `every answer under ${fmtMs(limitMs)} ms, p99 under ${fmtMs(adviceMs)} ms`,
      seen: line(summarizeMs(ms)) + (unanswered ? `; ${unanswered} more got no answer` : ''), unit: 'ms' });
    out.push({ kind: 'samples', name: `latency samples ${kind}`, series: kind, unit: 'ms', values: ms.map(x => +x.toFixed(2)),
      marks: { limit: limitMs, advice: adviceMs } });
  }
  return out;
}

const WAIT = 'The service waits 5 seconds in total for a response. ' +
  'Without a response in that time the event counts as not delivered and is retried at the next backoff.';

export const LATENCY = {
  underLimit: { id: 'receiver.latency.under-limit', requirements: ['R6.6-receiver-within-5s'], title: 'Every delivery is answered within 5 s', spec: '6.6',
    quote: WAIT },
  // Arbitrary advice (see P99_ADVICE_SPEC_MS): not in the spec, hence registered as should.
  p99: { id: 'receiver.latency.p99', requirements: ['R6.6-receiver-within-5s'], title: 'The 99th percentile of answer times is under 1 s', spec: '6.6',
    quote: WAIT },
} satisfies Record<string, CheckDef>;

/**
 * Judges the valid deliveries sent outside bursts (`alone`: accepts and
 * idempotency; robustness runs later); answers within a burst are
 * receiver.concurrency's, and are shown here for comparison only.
 */
export async function runLatency(ctx: Ctx, alone: readonly Delivery[]): Promise<void> {
  const { limitMs, toleranceMs, p99AdviceMs, clock } = ctx.t.timing;
  const evidence = latencyEvidence(ctx.t.log, limitMs, p99AdviceMs);
  const limit = describeLimit(RESPONSE_WAIT_SPEC_MS, clock);

  ctx.emit(LATENCY.underLimit, ...await timed(() => {
    // A connection refused or reset is no answer time: the prefix that sent the delivery judges it.
    const o = every(alone.filter(d => d.status !== undefined || d.timedOut || d.notSent),
      { ok: d => d.ms <= limitMs + toleranceMs, expected: `answered within ${limit}, tolerance ${fmtMs(toleranceMs)} ms`, unanswered: 'fail',
        unsure: d => withinLimit(d, limitMs + toleranceMs) === 'unsure' });
    return { ...o, evidence: [...o.evidence, ...evidence] };
  }));

  ctx.emit(LATENCY.p99, ...await timed(() => {
    const ms = alone.filter(d => d.status !== undefined).map(d => d.ms);
    if (!ms.length) return notRun('not judged: no valid delivery was answered within the wait, which receiver.latency.under-limit reports');
    const s = summarizeMs(ms);
    const advice = describeLimit(P99_ADVICE_SPEC_MS, clock);
    const ok = s.p99 <= p99AdviceMs + clock.tolerance(p99AdviceMs);
    const msg = `deliveries outside bursts: ${line(s)} ms; advice p99 under ${advice}`;
    return ok ? passed(msg, evidence) : failed(msg, `p99 under ${advice}`, `p99 ${fmtMs(s.p99)} ms`, evidence);
  }));
}
