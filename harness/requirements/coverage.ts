// The requirement table of `pis-conformance coverage`: every requirement with
// the checks that name it in their definitions (view.ts), the proofs that
// those checks can fail, and its status; and the figures the README quotes.
// Pure: data in, data out.
import type { Level } from '../results/model.ts';
import { PROOF_KINDS, proofsOf, type Proofs, type Requirement } from './load.ts';
import type { CheckMeta } from './rules.ts';
import { placeCoverage, type PlaceCoverage } from './places.ts';
import { checksByRequirement } from './view.ts';
import { LATEST_API_VERSION, type ApiVersion } from '../contracts/api-versions.ts';

type CoverageStatus = 'covered' | 'partial' | 'uncovered' | 'untestable';

export interface CheckCoverage {
  id: string;
  level: Level;
  /** `fault NAME`, `mutation NAME`, `record NAME`, `receiver NAME`. */
  proofs: string[];
  /** Why nothing can make it fail (an informational check). */
  cannotFail?: string;
}

export interface CoverageRow {
  id: string;
  /** `spec 6.5` or `docs/profile.md#webhook`. */
  where: string;
  level: Level;
  binds: Requirement['binds'];
  since: string;
  renamedIn?: string;
  formerly?: string;
  removedIn?: string;
  quote: string;
  status: CoverageStatus;
  /** What is missing (partial), why it cannot be tested (untestable), or what a check would need (uncovered). */
  reason?: string;
  checks: CheckCoverage[];
  /** Places its checks exercise out of the places it binds. */
  places: PlaceCoverage;
}

export interface CoverageFigures {
  requirements: number;
  byLevel: Record<Level, number>;
  byStatus: Record<CoverageStatus, number>;
  checks: number;
  /** Checks with at least one proof that they can fail. */
  checksProven: number;
  /** Informational checks with a reason they cannot fail. */
  checksCannotFail: number;
  /** Checks with neither (the proof tests fail while there are any). */
  checksUnproven: string[];
  /**
   * Over the requirements that bind a family of places with members known
   * before a run (operations, products, event positions...): places bound,
   * places exercised, and how many such requirements are exercised at every
   * place; `perTarget`: requirements whose places the target's data decide
   * (every bank), and how many of them a check iterates whole.
   */
  places: { requirements: number; bound: number; exercised: number; atEvery: number; perTarget: number; perTargetEvery: number };
}

export interface Coverage { rows: CoverageRow[]; figures: CoverageFigures }

const SINGULAR: Record<typeof PROOF_KINDS[number], string> = { faults: 'fault', mutations: 'mutation', records: 'record', receivers: 'receiver' };

/** A requirement no check names and that gives no reason (the requirement tests fail on it) shows as not covered. */
const UNNAMED = 'no check names it in its definition';

function statusOf(r: Requirement, checks: readonly string[]): CoverageStatus {
  if (r.untestable) return 'untestable';
  if (r.uncovered || !checks.length) return 'uncovered';
  return r.coverage === 'partial' ? 'partial' : 'covered';
}

export function coverage(reqs: readonly Requirement[], proofs: Proofs, checks: readonly CheckMeta[],
  version: ApiVersion = LATEST_API_VERSION): Coverage {
  const metaById = new Map(checks.map(c => [c.id, c]));
  const checkInfo = new Map<string, CheckCoverage>();
  for (const c of checks) {
    checkInfo.set(c.id, {
      id: c.id, level: c.level,
      proofs: proofsOf(proofs, c.id).map(p => `${SINGULAR[p.kind]} ${p.name}`),
      ...(proofs.cannotFail[c.id] ? { cannotFail: proofs.cannotFail[c.id] } : {}),
    });
  }
  const named = checksByRequirement(checks);
  const rows = reqs.map((r): CoverageRow => {
    const ids = named.get(r.id) ?? [];
    const status = statusOf(r, ids);
    return {
      id: r.id, where: r.section ? `spec ${r.section}` : r.source!, level: r.level, binds: r.binds,
      since: r.since ?? '1.0.0',
      ...(r.renamedIn ? { renamedIn: r.renamedIn, formerly: r.formerly } : {}),
      ...(r.removedIn ? { removedIn: r.removedIn } : {}),
      quote: r.quote, status,
      ...(status === 'covered' ? {} : { reason: r.missing ?? r.untestable ?? r.uncovered ?? UNNAMED }),
      checks: ids.map(id => checkInfo.get(id)!),
      places: placeCoverage(r.places, ids.map(id => metaById.get(id)!), version, r.placesOnly),
    };
  });
  const all = [...checkInfo.values()];
  const count = <K extends string>(keys: readonly K[], of: (r: CoverageRow) => K) =>
    Object.fromEntries(keys.map(k => [k, rows.filter(r => of(r) === k).length])) as Record<K, number>;
  return {
    rows,
    figures: {
      requirements: rows.length,
      byLevel: count(['must', 'should', 'profile'] as const, r => r.level),
      byStatus: count(['covered', 'partial', 'uncovered', 'untestable'] as const, r => r.status),
      checks: all.length,
      checksProven: all.filter(c => c.proofs.length).length,
      checksCannotFail: all.filter(c => !c.proofs.length && c.cannotFail).length,
      checksUnproven: all.filter(c => !c.proofs.length && !c.cannotFail).map(c => c.id),
      places: placeFigures(rows),
    },
  };
}

function placeFigures(rows: readonly CoverageRow[]): CoverageFigures['places'] {
  const judged = rows.filter(r => r.status !== 'untestable' && r.status !== 'uncovered');
  const known = judged.filter(r => r.places.bound !== undefined);
  const perTarget = judged.filter(r => r.places.family && r.places.bound === undefined);
  const exercised = (p: PlaceCoverage) => (p.exercised === 'every' ? p.bound ?? 0 : p.exercised);
  return {
    requirements: known.length,
    bound: known.reduce((n, r) => n + r.places.bound!, 0),
    exercised: known.reduce((n, r) => n + exercised(r.places), 0),
    atEvery: known.filter(r => exercised(r.places) === r.places.bound).length,
    perTarget: perTarget.length,
    perTargetEvery: perTarget.filter(r => r.places.exercised === 'every').length,
  };
}
