// How the receiver checks judge deliveries: each ends with an Outcome of the
// one check vocabulary (harness/check/outcome.ts) that says expected vs seen
// and carries the failing exchanges. The level comes from the check's
// registration in checks.ts.
import { failed, notRun, passed, type Outcome } from '../check/outcome.ts';
import type { Delivery } from './transport.ts';
import { fmtMs } from './options.ts';

// A failure shows at most this many exchanges in full; the message counts the rest.
const MAX_SHOWN = 5;

/** How one exchange ended, in a few words: "200 in 3.1 ms", "no answer within 200 ms". */
export function answerOf(d: Delivery): string {
  return d.status !== undefined ? `${d.status} in ${fmtMs(d.ms)} ms` : d.error ?? 'no answer';
}

/** A check whose one needed delivery was not sent. */
export function notSentOutcome(d: Delivery): Outcome {
  return notRun(`not judged: ${d.label} was not sent (${d.notSent})`, d.remedy);
}

/** How a check judges its deliveries. */
export interface Judging {
  /** Whether an answered delivery is as it should be. */
  ok(d: Delivery): boolean;
  /** What was expected, in a few words ("exactly 200"). */
  expected: string;
  /** Appended to the message, so a reader knows what was judged against what. */
  note?: string;
  /**
   * A delivery that got no answer within the wait: a failure of this check,
   * or another check's finding (the reason names it), which leaves this one
   * not-run. A connection refused or reset is always a failure.
   */
  unanswered: 'fail' | { notRun: string };
  /**
   * For a time limit: the answers whose judgement this process's own stall
   * decides (they were `ok` at `ms`, but not at `ms + stallMs`). Without a
   * clear failure beside them the check is not-run: it cannot tell.
   */
  unsure?(d: Delivery): boolean;
}

/** Whether an answer came within `limitMs`: surely, surely not, or unsure because this process stalled as it came. */
export function withinLimit(d: Delivery, limitMs: number): 'yes' | 'no' | 'unsure' {
  if (d.ms > limitMs) return 'no';
  return d.ms + (d.stallMs ?? 0) > limitMs ? 'unsure' : 'yes';
}

const listed = (ds: readonly Delivery[]) =>
  ds.slice(0, 3).map(d => `${d.label}: ${answerOf(d)}`).join('; ') + (ds.length > 3 ? `; and ${ds.length - 3} more` : '');

/**
 * Passes only when every delivery was sent, answered and as expected; fails
 * with the first offenders' exchanges as evidence (request with redacted key,
 * answer, curl); is not-run when what is missing is another check's finding
 * or was never sent. A check whose deliveries got no answer never passes.
 */
export function every(deliveries: readonly Delivery[], j: Judging): Outcome {
  const note = j.note ?? '';
  if (!deliveries.length) return notRun('nothing was sent for this check');
  const unsent = deliveries.filter(d => d.notSent);
  const silent = deliveries.filter(d => !d.notSent && d.status === undefined && d.timedOut);
  const excused = j.unanswered !== 'fail';
  const bad = deliveries.filter(d => !d.notSent && (d.status !== undefined ? !j.ok(d) : !(excused && d.timedOut)));
  const n = deliveries.length;
  if (bad.length) {
    const seen = listed(bad);
    return failed(`${bad.length} of ${n} deliveries not as expected (${j.expected}): ${seen}${note}`, j.expected, seen, [
      // The first offender is the exchange the report opens with.
      ...bad.slice(0, MAX_SHOWN).map((d, i) => (i === 0 ? { ...d.evidence, primary: true } : d.evidence)),
      ...(bad.length > MAX_SHOWN ? [{ kind: 'note' as const, text: `${bad.length - MAX_SHOWN} more failing exchanges are not shown.` }] : []),
    ]);
  }
  const unsure = deliveries.filter(d => !d.notSent && d.status !== undefined && j.unsure?.(d));
  if (unsure.length) {
    const worst = Math.max(...unsure.map(d => d.stallMs ?? 0));
    return notRun(`not judged: ${unsure.length} of ${n} answers came as this process came out of a stall of its own (up to ${fmtMs(worst)} ms), ` +
      `so whether they were ${j.expected} cannot be told (first: ${unsure[0].label}: ${answerOf(unsure[0])})`, 'run again on a less loaded machine');
  }
  const fine = n - unsent.length - silent.length;
  if (silent.length && typeof j.unanswered === 'object')
    return notRun(`not judged: ${silent.length} of ${n} deliveries got no answer within the wait, ${j.unanswered.notRun}; ` +
      `${fine} answered as expected (${j.expected})${note}`);
  if (unsent.length)
    return notRun(`not judged: ${unsent.length} of ${n} deliveries were not sent (${unsent[0].notSent}); ${fine} sent were as expected (${j.expected})${note}`,
      unsent.find(d => d.remedy)?.remedy);
  return passed(`${n} of ${n} as expected: ${j.expected}${note}`);
}

/** Runs a check body and times it: its outcome and the ms it took, as Ctx.emit takes them. */
export async function timed(body: () => Promise<Outcome> | Outcome): Promise<[Outcome, number]> {
  const t0 = performance.now();
  const o = await body();
  return [o, performance.now() - t0];
}
