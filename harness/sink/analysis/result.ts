// Builds the outcome of one webhook check: the check's definition (id, title,
// spec section, quote) and what the run showed (expected versus seen, then the
// attempts). Its level comes from its registration in index.ts.
import type { CheckDef, Judged } from '../../report/check.ts';
import type { DeliveryAttempt, DeliveryEvidence, Evidence, SkipKind } from '../../report/model.ts';
import { describeTally, type PlaceLedger } from '../../report/places.ts';
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

/** A failed check: each finding is one violation with the attempts that show it. */
export function failed(info: CheckDef, expected: string, findings: Finding[], extra: Evidence[] = []): Judged {
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
  return {
    ...info, status: 'failed',
    message: findings[0].message + more,
    expected, seen: findings.slice(0, 5).map(f => f.message).join('; '),
    evidence: [...findings.slice(0, 10).map(f => ({ kind: 'note' as const, text: f.message })),
      deliveries(attemptsOf(findings), violatingOf(findings)), ...extra],
    durationMs: 0,
  };
}

export function passed(info: CheckDef, message: string, evidence: Evidence[] = []): Judged {
  return { ...info, status: 'passed', message, evidence, durationMs: 0 };
}

/** A check that did not run; without a kind it counts as not-run (it keeps a run from a verdict). */
export function skipped(info: CheckDef, why: string, kind?: SkipKind): Judged {
  return { ...info, status: 'skipped', message: why, evidence: [], durationMs: 0, ...(kind ? { skipKind: kind } : {}) };
}

/**
 * A check that judges what the control API was asked for, in a run that drove
 * no checkout (the passive `sink` command): outside what that command can
 * judge, so left out (not-selected) rather than missing; in a run that did drive
 * checkouts, `why` says what did not happen (not-run).
 */
export function withoutRequests(view: RunView, info: CheckDef, why: string): Judged {
  const drove = [...view.plan.values()].some(p => p.plan.request);
  return drove ? skipped(info, why)
    : skipped(info, 'needs checkouts created through the control API (the webhook suite of `run` with --control-url); ' +
      'a passive sink only sees what arrives', 'not-selected');
}

/** Passed when there are no findings, else failed. */
export function verdict(info: CheckDef, expected: string, findings: Finding[], passMessage: string, evidence: Evidence[] = []): Judged {
  return findings.length ? failed(info, expected, findings, evidence) : passed(info, passMessage, evidence);
}

/**
 * A check's outcome with the places it covered: a failure stays a failure
 * (its findings name the places), a pass becomes not-run when some bound place
 * was not exercised (with each place's reason), and a pass says where it held.
 */
export function placed(j: Judged, ledger: PlaceLedger): Judged {
  const places = ledger.tally();
  if (j.status === 'passed' && places.notExercised?.length) {
    const why = places.notExercised.map(n => `${n.place}: ${n.reason}`).join('; ');
    return { ...j, status: 'skipped', message: `exercised ${describeTally(places)}; not at ${why}`, places };
  }
  if (j.status === 'passed') return { ...j, message: `${j.message}; held at ${describeTally(places)}`, places };
  return { ...j, places };
}
