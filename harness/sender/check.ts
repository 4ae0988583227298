// The small vocabulary every receiver check is written in: an outcome that
// says expected vs seen and carries the failing exchanges, judged against a
// check's definition (harness/report/check.ts). The level comes from the
// check's registration in checks.ts.
import type { CheckDef, Judged } from '../report/check.ts';
import type { Evidence, SkipKind } from '../report/model.ts';
import type { Delivery } from './transport.ts';
import { fmtMs } from './options.ts';

export interface Outcome {
  status: 'passed' | 'failed' | 'skipped';
  message?: string;
  expected?: string;
  seen?: string;
  evidence?: Evidence[];
  /** For a skip: not-run (default; the run is incomplete) or not-applicable. */
  skipKind?: Exclude<SkipKind, 'not-selected'>;
  /** For a check that did not run: what makes it run, e.g. "give --state-url". */
  remedy?: string;
}

// A failure shows at most this many exchanges in full; the message counts the rest.
const MAX_SHOWN = 5;

export function result(def: CheckDef, o: Outcome, durationMs: number): Judged {
  return {
    ...def, status: o.status, evidence: o.evidence ?? [], durationMs,
    ...(o.status === 'skipped' ? { skipKind: o.skipKind ?? 'not-run' } : {}),
    ...(o.message ? { message: o.message } : {}),
    ...(o.remedy ? { remedy: o.remedy } : {}),
    ...(o.expected !== undefined ? { expected: o.expected } : {}),
    ...(o.seen !== undefined ? { seen: o.seen } : {}),
  };
}

/** How one exchange ended, in a few words: "200 in 3.1 ms", "no answer within 200 ms". */
export function answerOf(d: Delivery): string {
  return d.status !== undefined ? `${d.status} in ${fmtMs(d.ms)} ms` : d.error ?? 'no answer';
}

/**
 * Passes when every delivery satisfies `ok`; otherwise fails with the first
 * offenders' exchanges as evidence (request with redacted key, answer, curl).
 */
export function every(deliveries: readonly Delivery[], ok: (d: Delivery) => boolean, expected: string, note = ''): Outcome {
  const bad = deliveries.filter(d => !ok(d));
  if (!deliveries.length) return { status: 'skipped', message: 'nothing was sent for this check' };
  if (!bad.length) return { status: 'passed', message: `${deliveries.length} of ${deliveries.length} as expected: ${expected}${note}` };
  const seen = bad.slice(0, 3).map(d => `${d.label}: ${answerOf(d)}`).join('; ') + (bad.length > 3 ? `; and ${bad.length - 3} more` : '');
  return {
    status: 'failed',
    message: `${bad.length} of ${deliveries.length} deliveries not as expected (${expected}): ${seen}${note}`,
    expected, seen,
    evidence: [
      // The first offender is the exchange the report opens with.
      ...bad.slice(0, MAX_SHOWN).map((d, i) => (i === 0 ? { ...d.evidence, primary: true } : d.evidence)),
      ...(bad.length > MAX_SHOWN ? [{ kind: 'note' as const, text: `${bad.length - MAX_SHOWN} more failing exchanges are not shown.` }] : []),
    ],
  };
}

/** Runs a check body and times it. */
export async function timed(def: CheckDef, body: () => Promise<Outcome> | Outcome): Promise<Judged> {
  const t0 = performance.now();
  const o = await body();
  return result(def, o, performance.now() - t0);
}
