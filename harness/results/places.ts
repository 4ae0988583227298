// Where a rule binds. A rule about "an account or payment endpoint" binds every
// such operation of the version under test, a rule about a bank's records every
// bank, a refresh rule every exchange of a chain, a delivery rule every event
// of a checkout. A check declares the family of places it binds (PlaceDecl, on
// its CheckDef), iterates the members of that family in a run, and reports how
// many it exercised out of how many the run bound (PlaceTally, on its
// CheckResult). The static members of each family are the tables of
// harness/places/.

/** The families of places a rule can bind. */
export type PlaceFamily =
  /** An operation of the API version under test (harness/places/operations.ts). */
  | 'operation'
  /** An account or payment operation: one that needs a consented session (spec 4.4, 7). */
  | 'session-operation'
  /** A bank the target lists (the run's bank sample). */
  | 'bank'
  /** A country among the banks the target lists. */
  | 'country'
  /** A payment product (domestic, SEPA credit, scheduled, instant). */
  | 'product'
  /** A state of a session: new (no consent), consented, expired, deleted. */
  | 'session-state'
  /** An exchange of a refresh chain: the first, the second, ... */
  | 'refresh-exchange'
  /** A kind of token a call may carry: missing, made-up, expired, tampered. */
  | 'token-kind'
  /** A position of an event in a checkout (first, middle, final; normal and batch). */
  | 'event-position'
  /** A position of an event that has a previous event in its checkout (middle, final): where the gate of spec 6.8 binds. */
  | 'gated-event-position'
  /** A CheckoutStatus of spec 2.2. */
  | 'checkout-status'
  /** A transition between two checkout statuses that spec 3.1 allows, in a normal or a batch checkout. */
  | 'transition'
  /** A class of answer to a webhook delivery (a status code, a timeout, a reset). */
  | 'answer-class'
  /** An answer class that is a status code (not a timeout or a reset): where spec 6.4 binds. */
  | 'status-answer-class'
  /** An abortReason value of spec 2.2. */
  | 'abort-reason'
  /** A field of a request body, left out or given empty (a payment's required fields). */
  | 'field';

/**
 * Where a check binds, declared once on its definition: the family, and `only`
 * when by design it exercises part of the family (named members), so that
 * coverage can say "exercised at 1 of 12 operations" without running anything.
 */
export interface PlaceDecl {
  family: PlaceFamily;
  only?: readonly string[];
}

/**
 * What one run of a check covered: the places the run bound (the family's
 * members at this target and version), those it exercised, those where the
 * rule broke, and why each unexercised place was not.
 */
export interface PlaceTally {
  family: PlaceFamily;
  bound: string[];
  exercised: string[];
  failed: string[];
  /** Places bound but not exercised, each with its reason. */
  notExercised?: { place: string; reason: string }[];
}

/** "exercised 11 of 12 operations": the short form the terminal, the report and --list use. */
export function describeTally(t: PlaceTally): string {
  const unit = t.bound.length === 1 ? t.family : pluralFamily(t.family);
  const broke = t.failed.length ? `, broke at ${t.failed.length}` : '';
  return `${t.exercised.length} of ${t.bound.length} ${unit}${broke}`;
}

/** The family's name for more than one member. */
export function pluralFamily(f: PlaceFamily): string {
  if (f === 'country') return 'countries';
  if (f === 'answer-class') return 'answer classes';
  if (f === 'status-answer-class') return 'status answer classes';
  if (f.endsWith('status')) return `${f}es`;
  return `${f}s`;
}

/**
 * Keeps the tally of one check's run: the places bound, then each place as it
 * is exercised, fails or cannot be exercised. A place that failed counts as
 * exercised.
 */
export class PlaceLedger {
  private readonly exercised = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly notExercised = new Map<string, string>();
  constructor(readonly family: PlaceFamily, readonly bound: readonly string[]) {}

  pass(place: string): void { this.exercised.add(place); this.notExercised.delete(place); }
  fail(place: string): void { this.pass(place); this.failed.add(place); }
  skip(place: string, reason: string): void { if (!this.exercised.has(place)) this.notExercised.set(place, reason); }

  /** Bound places neither exercised nor given a reason. */
  unvisited(): string[] { return this.bound.filter(p => !this.exercised.has(p) && !this.notExercised.has(p)); }

  tally(): PlaceTally {
    const notExercised = [
      ...[...this.notExercised].map(([place, reason]) => ({ place, reason })),
      ...this.unvisited().map(place => ({ place, reason: 'not reached' })),
    ];
    return {
      family: this.family, bound: [...this.bound],
      exercised: this.bound.filter(p => this.exercised.has(p)),
      failed: this.bound.filter(p => this.failed.has(p)),
      ...(notExercised.length ? { notExercised } : {}),
    };
  }
}
