// The checks of each requirement, computed: contracts/requirements.yaml does
// not list them, each check names its requirements in its definition
// (`CheckDef.requirements`), and this is the same link read the other way.
// `coverage`, the policy of `verify` and docs/checks.md read it from here.

/** What the view reads of a check. */
interface Naming { id: string; requirements?: readonly string[] }

/** Requirement id -> the ids of the checks that name it, in the checks' order. */
export function checksByRequirement(checks: readonly Naming[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of checks) for (const rid of new Set(c.requirements ?? [])) {
    const list = out.get(rid);
    if (list) list.push(c.id);
    else out.set(rid, [c.id]);
  }
  return out;
}

/** Each requirement with the checks that name it (an empty list when none does). */
export function withChecks<R extends { id: string }>(reqs: readonly R[], checks: readonly Naming[]): (R & { checks: string[] })[] {
  const by = checksByRequirement(checks);
  return reqs.map(r => ({ ...r, checks: by.get(r.id) ?? [] }));
}
