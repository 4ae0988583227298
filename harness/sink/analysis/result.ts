// Builds the outcome of one webhook check: the check's definition (id, title,
// spec section, quote) and what the run showed (expected versus seen, then the
// attempts). Its level comes from its registration in index.ts.
import type { CheckDef, Judged } from '../../report/check.ts';
import type { DeliveryAttempt, DeliveryEvidence, Evidence } from '../../report/model.ts';
import { annotate, type AttemptView } from './view.ts';

/** At most this many attempts go into one check's evidence (the timeline shows them all). */
const MAX_EVIDENCE_ATTEMPTS = 40;

/** One violation: its attempts in order; `at` is the one that broke the rule (default: the last). */
export interface Finding { message: string; attempts: AttemptView[]; at?: AttemptView | AttemptView[] }

export function deliveries(attempts: readonly AttemptView[], violating?: readonly AttemptView[]): DeliveryEvidence {
  const seen = new Set<number>();
  const list: DeliveryAttempt[] = [];
  for (const a of attempts) if (!seen.has(a.d.seq)) { seen.add(a.d.seq); list.push(annotate(a)); }
  list.sort((a, b) => a.seq - b.seq);
  return { kind: 'delivery', attempts: list.slice(0, MAX_EVIDENCE_ATTEMPTS), ...(violating ? { primary: true, violating: [...new Set(violating.map(a => a.d.seq))] } : {}) };
}

/** A failed check: each finding is one violation with the attempts that show it. */
export function failed(info: CheckDef, expected: string, findings: Finding[], extra: Evidence[] = []): Judged {
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
  return {
    ...info, status: 'failed',
    message: findings[0].message + more,
    expected, seen: findings.map(f => f.message).slice(0, 5).join('; '),
    evidence: [...findings.slice(0, 10).map(f => ({ kind: 'note' as const, text: f.message })),
      deliveries(findings.flatMap(f => f.attempts), findings.flatMap(f => f.at ?? f.attempts.slice(-1))), ...extra],
    durationMs: 0,
  };
}

export function passed(info: CheckDef, message: string, evidence: Evidence[] = []): Judged {
  return { ...info, status: 'passed', message, evidence, durationMs: 0 };
}

export function skipped(info: CheckDef, why: string): Judged {
  return { ...info, status: 'skipped', message: why, evidence: [], durationMs: 0 };
}

/** Passed when there are no findings, else failed. */
export function verdict(info: CheckDef, expected: string, findings: Finding[], passMessage: string, evidence: Evidence[] = []): Judged {
  return findings.length ? failed(info, expected, findings, evidence) : passed(info, passMessage, evidence);
}
