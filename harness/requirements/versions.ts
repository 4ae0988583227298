// The API versions at which a requirement, and so a check, exists (spec 9).
// A requirement exists from its `since` (absent: 1.0.0) until its `removedIn`;
// `unversioned` (a later change section 9 lists without a number) counts as
// the latest version. A renamed requirement exists on both sides of the
// rename: the path table of harness/config/profile.ts gives each side's name.
//
// A check exists at a version where every requirement it names exists, except
// those it lists in `addedLater` (judged only from the version each arrived
// in), and where every requirement it `needs` (an operation it calls without
// judging it) exists too. At any other version `run` leaves it out as
// not-selected, naming the version.
import { readOwnYaml } from '../own-yaml.ts';
import { API_VERSIONS, atLeast, isApiVersion, LATEST_API_VERSION, type ApiVersion } from '../contracts/api-versions.ts';
import type { CheckDef } from '../check/def.ts';
import { withChecks } from './view.ts';

/** What the version rules read of a requirement. */
interface Versioned { id: string; since?: string; removedIn?: string }

/** The first version a requirement exists at, and the version it was removed in. */
export interface Window { since: ApiVersion; removedIn?: ApiVersion }

function windowOf(r: Versioned): Window {
  const since = r.since === undefined ? API_VERSIONS[0] : r.since === 'unversioned' ? LATEST_API_VERSION : r.since;
  if (!isApiVersion(since)) throw new Error(`requirement ${r.id} has since '${r.since}', not a version of spec 9`);
  if (r.removedIn !== undefined && !isApiVersion(r.removedIn)) throw new Error(`requirement ${r.id} has removedIn '${r.removedIn}', not a version of spec 9`);
  return { since, ...(r.removedIn ? { removedIn: r.removedIn as ApiVersion } : {}) };
}

export function existsAt(w: Window, v: ApiVersion): boolean {
  return atLeast(v, w.since) && (w.removedIn === undefined || !atLeast(v, w.removedIn));
}

/** The requirement windows by id, from contracts/requirements.yaml read once (no schema validation here: the tests and `coverage` validate it). */
let cached: Map<string, Window> | undefined;
export function requirementWindows(): Map<string, Window> {
  if (!cached) {
    const doc = readOwnYaml(new URL('../../contracts/requirements.yaml', import.meta.url)) as { requirements: Versioned[] };
    cached = new Map(doc.requirements.map(r => [r.id, windowOf(r)]));
  }
  return cached;
}

/**
 * The windows `run` read, handed to Playwright's runner and workers in the run
 * context: each would otherwise parse requirements.yaml again to register its
 * checks (a seventh of a second of CPU per process at its start).
 */
export function useRequirementWindows(entries: readonly (readonly [string, Window])[]): void {
  cached = new Map(entries);
}

type VersionedCheck = Pick<CheckDef, 'id' | 'requirements' | 'addedLater' | 'needs'>;

function windowsOf(c: VersionedCheck, ids: readonly string[], windows: Map<string, Window>): Window[] {
  return ids.map(id => {
    const w = windows.get(id);
    if (!w) throw new Error(`check ${c.id} names requirement ${id}, which contracts/requirements.yaml does not have`);
    return w;
  });
}

/** True when the check exists at `v`. */
export function checkExistsAt(c: VersionedCheck, v: ApiVersion, windows = requirementWindows()): boolean {
  const core = (c.requirements ?? []).filter(id => !c.addedLater?.includes(id));
  return windowsOf(c, [...core, ...(c.needs ?? [])], windows).every(w => existsAt(w, v));
}

/** The requirements of the check that exist at `v`: what its result names at that version. */
export function requirementsAt(c: VersionedCheck, v: ApiVersion, windows = requirementWindows()): string[] {
  const ids = c.requirements ?? [];
  const ws = windowsOf(c, ids, windows);
  return ids.filter((_, i) => existsAt(ws[i]!, v));
}

/** The versions the check exists at, oldest first. */
function checkVersions(c: VersionedCheck, windows = requirementWindows()): ApiVersion[] {
  return API_VERSIONS.filter(v => checkExistsAt(c, v, windows));
}

/**
 * Why the check is not at `v`, for the not-selected listing: "appeared in
 * 3.0.0" or "removed in 3.0.0"; undefined when it is there.
 */
export function whyNotAt(c: VersionedCheck, v: ApiVersion, windows = requirementWindows()): string | undefined {
  const versions = checkVersions(c, windows);
  if (versions.includes(v)) return undefined;
  if (!versions.length) return 'at no API version';
  return atLeast(v, versions[0]!) ? `removed after ${versions[versions.length - 1]}` : `appeared in ${versions[0]}`;
}

/**
 * The requirement list as it stands at `v` (`coverage --api-version V`): the
 * requirements that exist at V, each with the checks that name it and run at
 * V (view.ts). A requirement whose checks all run only from a later version
 * is not covered at V, and says so.
 */
export function requirementsAtVersion<R extends Versioned & { untestable?: string; uncovered?: string }>(
  reqs: readonly R[], v: ApiVersion, checks: readonly VersionedCheck[],
): (R & { checks: string[] })[] {
  const runs = new Set(checks.filter(c => checkExistsAt(c, v)).map(c => c.id));
  return withChecks(reqs.filter(r => existsAt(windowOf(r), v)), checks).map(r => {
    if (!r.checks.length || r.untestable || r.uncovered) return r;
    const here = r.checks.filter(id => runs.has(id));
    if (here.length) return { ...r, checks: here };
    const later = r.checks;
    return { ...r, checks: [], uncovered: `at ${v} no check judges it: ${later.join(', ')} ${later.length > 1 ? 'run' : 'runs'} only from a later version` };
  });
}
