// How a webhook check says what the run showed, in the one Outcome of
// harness/check/outcome.ts: findings (expected versus seen, then the attempts
// that show each violation) become a failure. The check's definition and level
// come from its registration in index.ts.
import type { DeliveryAttempt, DeliveryEvidence, Evidence } from '../../results/model.ts';
import { failed, notRun, notSelected, passed, type Outcome } from '../../check/outcome.ts';
import { annotate, type AttemptView, type RunView } from './view.ts';

/** At most this many attempts go into one check's evidence (the timeline shows them all). */
const MAX_EVIDENCE_ATTEMPTS = 40;

/** One violation: its attempts in order; `at` is the one that broke the rule (default: the last). */
export interface Finding { message: string; attempts: AttemptView[]; at?: AttemptView | AttemptView[] }

/**
 * The first MAX_EVIDENCE_ATTEMPTS distinct attempts, in order of seq (the rest are
 * not copied: a finding may name thousands); `violating` marks the ones that broke the rule.
 */
export function deliveries(attempts: Iterable<AttemptView>, violating?: Iterable<AttemptView>): DeliveryEvidence {
  const seen = new Set<number>();
  const list: DeliveryAttempt[] = [];
  for (const a of attempts) {
    if (seen.has(a.d.seq)) continue;
    seen.add(a.d.seq);
    list.push(annotate(a));
    if (list.length >= MAX_EVIDENCE_ATTEMPTS) break;
  }
  list.sort((a, b) => a.seq - b.seq);
  const marked = violating ? bounded(violating, MAX_EVIDENCE_ATTEMPTS, a => a.d.seq) : undefined;
  return { kind: 'delivery', attempts: list, ...(marked ? { primary: true, violating: marked } : {}) };
}

/** Up to `max` distinct keys of the items, in order. */
function bounded<T, K>(items: Iterable<T>, max: number, key: (x: T) => K): K[] {
  const out = new Set<K>();
  for (const x of items) { out.add(key(x)); if (out.size >= max) break; }
  return [...out];
}

/** Names in a message: the first ten, and how many more. */
export function listed(names: readonly string[], max = 10): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

function* attemptsOf(findings: readonly Finding[]): Iterable<AttemptView> {
  for (const f of findings) yield* f.attempts;
}

function* violatingOf(findings: readonly Finding[]): Iterable<AttemptView> {
  for (const f of findings) {
    const at = f.at ?? f.attempts.slice(-1);
    if (Array.isArray(at)) yield* at; else yield at as AttemptView;
  }
}

/** A failed outcome from its findings: each finding is one violation with the attempts that show it. */
export function fromFindings(expected: string, findings: Finding[], extra: Evidence[] = []): Outcome {
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
  return failed(findings[0].message + more, expected, findings.slice(0, 5).map(f => f.message).join('; '),
    [...findings.slice(0, 10).map(f => ({ kind: 'note' as const, text: f.message })), deliveries(attemptsOf(findings), violatingOf(findings)), ...extra]);
}

/**
 * A check that judges what the control API was asked for, in a run that drove
 * no checkout (the passive `sink` command): outside what that command can
 * judge, so left out (not-selected) rather than missing; in a run that did drive
 * checkouts, `why` says what did not happen (not-run).
 */
export function withoutRequests(view: RunView, why: string): Outcome {
  const drove = [...view.plan.values()].some(p => p.plan.request);
  return drove ? notRun(why)
    : notSelected('needs checkouts created through the control API (the webhook suite of `run` with --control-url); ' +
      'a passive sink only sees what arrives');
}

/** Passed when there are no findings, else failed. */
export function verdict(expected: string, findings: Finding[], passMessage: string, evidence: Evidence[] = []): Outcome {
  return findings.length ? fromFindings(expected, findings, evidence) : passed(passMessage, evidence);
}
