// How a check is defined and registered, wherever its body lives:
// suites/checks/ for the API suites, harness/sink/checks/ for the webhook
// checks, harness/certify/ for the receiver checks. A check is defined once
// (CheckDef: id, title, spec section, the sentence it enforces, the
// requirements it covers) and given its level where it is registered (must,
// should, profile below), never in the definition and nowhere else: the caller
// decides severity, as the OpenID suite's callAndContinueOnFailure(Check,
// FAILURE, ...) does. What a check concludes is an Outcome (outcome.ts).
import type { CheckResult, Level, Suite } from '../results/model.ts';
import type { PlaceDecl } from '../results/places.ts';

export interface CheckDef {
  /** Stable dotted id, suite.area.name; the first two segments are the fixed prefixes of docs/checks.md. */
  id: string;
  title: string;
  /** Section of the service spec the check enforces (e.g. "6.5"), or `profile` for a decision of docs/profile.md. */
  spec: string;
  /** The sentence of the spec (or docs/profile.md) the check enforces. */
  quote: string;
  /** Requirement ids of contracts/requirements.yaml (R<section>-<slug>, P-<area>-<slug>) the check enforces. */
  requirements?: string[];
  /**
   * Requirement ids among `requirements` that arrived in a later API version
   * than the rest (spec 9): the check runs wherever the rest exist and judges
   * these parts only from the version each arrived in (harness/requirements/versions.ts).
   */
  addedLater?: string[];
  /**
   * Requirement ids of operations the check calls without judging them (a
   * domestic payment to see an amount limit): it runs only at the API
   * versions that have them.
   */
  needs?: string[];
  /**
   * The family of places the check binds and iterates (every operation, every
   * bank, every event position, ...; harness/results/places.ts), with `only`
   * when it exercises part of the family by design. No declaration: the rule
   * binds one place.
   */
  bindsAt?: PlaceDecl;
}

/** A check as registered: its definition plus the level its caller gave it and the suite its id names. */
export type Registered<D extends CheckDef = CheckDef> = D & { level: Level; suite: Suite; requirements: string[] };

const suiteOf = (id: string) => id.split('.')[0] as Suite;

function register<D extends CheckDef>(def: D, level: Level): Registered<D> {
  return { ...def, level, suite: suiteOf(def.id), requirements: def.requirements ?? [] };
}

/**
 * The three registrations, each with an optional body beside the definition
 * (`must(VALID, checkValid)`: a pair, where the body is not part of the definition).
 */
function registration(level: Level) {
  function at<D extends CheckDef>(def: D): Registered<D>;
  function at<D extends CheckDef, J>(def: D, judge: J): Registered<D> & { judge: J };
  function at<D extends CheckDef, J>(def: D, judge?: J): Registered<D> | (Registered<D> & { judge: J }) {
    const r = register(def, level);
    return judge === undefined ? r : { ...r, judge };
  }
  return at;
}

export const must = registration('must');
export const should = registration('should');
export const profile = registration('profile');

/** The registration fields a CheckResult carries (also what the annotation of a check's test holds). */
export type CheckMeta = Pick<CheckResult, 'id' | 'suite' | 'title' | 'spec' | 'level' | 'quote' | 'requirements'>;

export function metaOf(r: CheckMeta): CheckMeta {
  return { id: r.id, suite: r.suite, title: r.title, spec: r.spec, level: r.level, quote: r.quote, requirements: r.requirements };
}

/** A registry of checks by id. An id that was never registered is the harness's own bug and throws. */
export class CheckRegistry<R extends Registered = Registered> {
  private readonly byId = new Map<string, R>();
  constructor(readonly entries: readonly R[]) {
    for (const e of entries) {
      if (this.byId.has(e.id)) throw new Error(`check ${e.id} is registered twice`);
      this.byId.set(e.id, e);
    }
  }

  get(id: string): R {
    const e = this.byId.get(id);
    if (!e) throw new Error(`check ${id} is not registered`);
    return e;
  }

  has(id: string): boolean { return this.byId.has(id); }
}
