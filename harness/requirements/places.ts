// Places exercised out of places bound, per requirement: the column of
// `coverage` that tells a rule checked at one route from a rule checked at
// every route. A requirement names the family of places it binds (`places:` in
// contracts/requirements.yaml); its checks declare the places they exercise
// (`bindsAt` on their definitions). A check without a declaration exercises
// one place of the family. A requirement without `places:` binds the family its
// checks iterate when each of them iterates all of it, and one place otherwise.
import type { ApiVersion } from '../contracts/api-versions.ts';
import { membersOf } from '../places/index.ts';
import { pluralFamily, type PlaceDecl, type PlaceFamily } from '../results/places.ts';

export interface PlaceCoverage {
  /** The family the requirement binds; absent: the rule binds one place. */
  family?: PlaceFamily;
  /** How many places it binds at the version; absent when the target's data decide (every bank it lists). */
  bound?: number;
  /** How many of them its checks exercise, or `every` when a check iterates the whole family. */
  exercised: number | 'every';
  /** The bound places no check exercises (static families only). */
  missing?: string[];
  /** "12 of 23 operations", "every bank", "1 place". */
  text: string;
}

interface CheckPlaces { bindsAt?: PlaceDecl }

export function placeCoverage(family: PlaceFamily | undefined, checks: readonly CheckPlaces[], v: ApiVersion,
  only?: readonly string[]): PlaceCoverage {
  // Without a family of its own, a requirement binds the family its checks iterate only when every one of them iterates it whole.
  const whole = checks.map(c => c.bindsAt).filter((d): d is PlaceDecl => d !== undefined && !d.only);
  const fam = family ?? (whole.length && whole.length === checks.length && whole.every(d => d.family === whole[0].family) ? whole[0].family : undefined);
  if (!fam) return { exercised: 1, text: '1 place' };
  // A statement that binds some members only (placesOnly) is held to those.
  const members = only && family ? membersOf(fam, v)?.filter(m => only.includes(m)) : membersOf(fam, v);
  const named = new Set<string>();
  let every = false;
  let unnamed = 0;
  for (const c of checks) {
    if (c.bindsAt?.family !== fam) { unnamed++; continue; }
    if (!c.bindsAt.only) every = true; else for (const m of c.bindsAt.only) named.add(m);
  }
  const many = pluralFamily(fam);
  if (!members) {
    if (every) return { family: fam, exercised: 'every', text: `every ${fam} of the target` };
    const n = Math.max(named.size, unnamed ? 1 : 0);
    return { family: fam, exercised: n, text: `${n} ${n === 1 ? fam : many}, of every ${fam} of the target` };
  }
  const inFamily = every ? [...members] : members.filter(m => named.has(m));
  const count = every ? members.length : Math.min(members.length, Math.max(inFamily.length, unnamed && !inFamily.length ? 1 : 0));
  // Named members only: a check without a declaration exercises one place, not which.
  const missing = every || !named.size ? [] : members.filter(m => !named.has(m));
  return {
    family: fam, bound: members.length, exercised: count,
    ...(missing.length ? { missing } : {}),
    text: `${count} of ${members.length} ${members.length === 1 ? fam : many}`,
  };
}
