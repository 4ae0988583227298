// What a check concludes, in one vocabulary for every kind of check: the API
// suites (whose exceptions suites/support/check.ts maps onto it), the webhook
// checks (harness/sink/checks/) and the receiver checks (harness/certify/).
// An Outcome is made by one of the constructors below and becomes a
// CheckResult in one place, toResult(), which adds the registration (id,
// level, suite, ...) and the time the check took.
import type { CheckResult, CheckStatus, Evidence, SkipKind } from '../results/model.ts';
import { describeTally, type PlaceLedger, type PlaceTally } from '../results/places.ts';
import { metaOf, type CheckMeta } from './def.ts';

export interface Outcome {
  status: CheckStatus;
  /** One line: on failure what was wrong, on a pass what was seen (optional), on a skip why. */
  message?: string;
  expected?: string;
  seen?: string;
  evidence: Evidence[];
  /** Set on skipped outcomes only. */
  skipKind?: SkipKind;
  /** For a check that did not run: what the user can do so it runs (e.g. "give --control-url"). */
  remedy?: string;
  /** For a check that binds a family of places (its definition's bindsAt): what this run exercised. */
  places?: PlaceTally;
}

/** The target kept the rule; `message` says what was seen, when there is something to say. */
export function passed(message?: string, evidence: Evidence[] = []): Outcome {
  return { status: 'passed', ...(message ? { message } : {}), evidence };
}

/** The target broke the rule: `message` says how, `expected` and `seen` are shown beside it. */
export function failed(message: string, expected: string | undefined, seen: string | undefined, evidence: Evidence[] = []): Outcome {
  return { status: 'failed', message, ...(expected !== undefined ? { expected } : {}), ...(seen !== undefined ? { seen } : {}), evidence };
}

/** The check could not be exercised: the run is incomplete. `remedy`: what makes it run, when the user can do something. */
export function notRun(reason: string, remedy?: string, evidence: Evidence[] = []): Outcome {
  return skipped('not-run', reason, evidence, remedy);
}

/** The target says it does not offer what the check needs: the run stays complete. */
export function notApplicable(reason: string, evidence: Evidence[] = []): Outcome {
  return skipped('not-applicable', reason, evidence);
}

/** Outside what the command or the selection asked for (--suites, --grep, --no-profile, a passive sink). */
export function notSelected(reason: string): Outcome {
  return skipped('not-selected', reason, []);
}

function skipped(skipKind: SkipKind, message: string, evidence: Evidence[], remedy?: string): Outcome {
  return { status: 'skipped', skipKind, message, ...(remedy ? { remedy } : {}), evidence };
}

/**
 * An outcome with the places it covered: a failure stays a failure (its
 * message names the places), a pass becomes not-run when some bound place was
 * not exercised (with each place's reason), and a pass says where it held.
 */
export function placed(o: Outcome, ledger: PlaceLedger): Outcome {
  const places = ledger.tally();
  if (o.status === 'passed' && places.notExercised?.length) {
    const why = places.notExercised.map(n => `${n.place}: ${n.reason}`).join('; ');
    return { ...o, status: 'skipped', skipKind: 'not-run', message: `exercised ${describeTally(places)}; not at ${why}`, places };
  }
  if (o.status === 'passed') return { ...o, message: [o.message, `held at ${describeTally(places)}`].filter(Boolean).join('; '), places };
  return { ...o, places };
}

/** The one way a CheckResult is made: a check's registration, what it concluded and how long it took. */
export function toResult(r: CheckMeta, o: Outcome, durationMs: number): CheckResult {
  return {
    ...metaOf(r), status: o.status,
    ...(o.status === 'skipped' ? { skipKind: o.skipKind ?? 'not-run' } : {}),
    ...(o.message ? { message: o.message } : {}),
    ...(o.remedy ? { remedy: o.remedy } : {}),
    ...(o.expected !== undefined ? { expected: o.expected } : {}),
    ...(o.seen !== undefined ? { seen: o.seen } : {}),
    evidence: o.evidence, durationMs,
    ...(o.places ? { places: o.places } : {}),
  };
}
