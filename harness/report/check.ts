// The one check vocabulary of the project. A check is defined once (CheckDef:
// id, title, spec section, the sentence it enforces, the requirements it
// covers) wherever its body lives: suites/checks/ for the API suites,
// harness/sink/analysis/ for the webhook checks, harness/sender/ for the
// receiver checks. Its level is given where it is registered (must, should,
// profile below), never in the definition: the caller decides severity, as the
// OpenID suite's callAndContinueOnFailure(Check, FAILURE, ...) does.
import type { CheckResult, Level, Suite } from './model.ts';
import type { PlaceDecl } from './places.ts';

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
   * bank, every event position, ...; harness/report/places.ts), with `only`
   * when it exercises part of the family by design. No declaration: the rule
   * binds one place.
   */
  bindsAt?: PlaceDecl;
}

/** A check as registered: its definition plus the level its caller gave it and the suite its id names. */
export type Registered<D extends CheckDef = CheckDef> = D & { level: Level; suite: Suite; requirements: string[] };

/** What a check body produces before its registration adds level and suite. */
export type Judged = Omit<CheckResult, 'level' | 'suite'>;

/** Name of the Playwright attachment carrying a check's CheckResult from the worker to the reporter. */
export const CHECK_ATTACHMENT = 'pis-check';
/** Name of the Playwright annotation carrying a check's registration (CheckMeta) for a test that ended without a result. */
export const CHECK_ANNOTATION = 'pis-check';

const suiteOf = (id: string) => id.split('.')[0] as Suite;

function register<D extends CheckDef>(def: D, level: Level): Registered<D> {
  return { ...def, level, suite: suiteOf(def.id), requirements: def.requirements ?? [] };
}

export const must = <D extends CheckDef>(def: D): Registered<D> => register(def, 'must');
export const should = <D extends CheckDef>(def: D): Registered<D> => register(def, 'should');
export const profile = <D extends CheckDef>(def: D): Registered<D> => register(def, 'profile');

/** The registration fields a CheckResult carries (also what the annotation of a check's test holds). */
export type CheckMeta = Pick<CheckResult, 'id' | 'suite' | 'title' | 'spec' | 'level' | 'quote' | 'requirements'>;

export function metaOf(r: Registered): CheckMeta {
  return { id: r.id, suite: r.suite, title: r.title, spec: r.spec, level: r.level, quote: r.quote, requirements: r.requirements };
}

/** Gives a judged outcome the level and suite of its registration. */
function registeredResult(r: Registered, j: Judged): CheckResult {
  return { ...j, ...metaOf(r) };
}

/**
 * A registry of checks by id: completes what check bodies judged with the
 * level their registration gave. An id that was never registered is the
 * harness's own bug and throws.
 */
export class CheckRegistry {
  private readonly byId = new Map<string, Registered>();
  constructor(readonly entries: readonly Registered[]) {
    for (const e of entries) {
      if (this.byId.has(e.id)) throw new Error(`check ${e.id} is registered twice`);
      this.byId.set(e.id, e);
    }
  }

  get(id: string): Registered {
    const e = this.byId.get(id);
    if (!e) throw new Error(`check ${id} is not registered`);
    return e;
  }

  has(id: string): boolean { return this.byId.has(id); }

  result(j: Judged): CheckResult { return registeredResult(this.get(j.id), j); }
}

/** A check's requirement ids as Playwright tags (@R6.5-min-delay): --grep matches them as it matches the title. */
export function requirementTags(c: { requirements?: readonly string[] }): string[] {
  return (c.requirements ?? []).map(r => `@${r}`);
}

/** What --grep is matched against for a check, as Playwright matches its test: id and title, then the tags. */
export function grepTitle(c: { id: string; title: string; requirements?: readonly string[] }): string {
  return [`${c.id} ${c.title}`, ...requirementTags(c)].join(' ');
}
