// What the schemas of requirements.yaml and proofs.yaml cannot state: ids
// agree with their sections, every requirement a check names exists and every
// testable must requirement is named by a check, and every check has a proof
// that it can fail or a reason it cannot. Each
// function returns the problems as sentences that name the fix; the tests
// under test/requirements/ and test/proofs/ assert there are none.
import type { Level } from '../results/model.ts';
import { PROOF_KINDS, type Proofs, type Requirement } from './load.ts';
import type { PlaceDecl } from '../results/places.ts';
import { checksByRequirement } from './view.ts';

/** A check as the registry of every check knows it. */
export interface CheckMeta { id: string; level: Level; requirements?: readonly string[]; bindsAt?: PlaceDecl }

/** A named way to break something, with the check-id prefix that must catch it. */
interface Breaker { name: string; prefix: string; level: Level }

const VERSION = (v: string) => v.split('.').map(Number);
function before(a: string, b: string): boolean {
  const [x, y] = [VERSION(a), VERSION(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

function duplicates(ids: readonly string[]): string[] {
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}

/** Problems of the requirement list on its own. */
export function listProblems(reqs: readonly Requirement[]): string[] {
  const out: string[] = [];
  for (const id of duplicates(reqs.map(r => r.id))) out.push(`requirement ${id} appears twice: give one of them another id`);
  for (const r of reqs) {
    const spec = /^R(\d+(?:\.\d+)?)-/.exec(r.id);
    if (spec) {
      if (r.section !== spec[1]) out.push(`requirement ${r.id} has section ${r.section ?? '(none)'}: set section to '${spec[1]}', the number in its id`);
      if (r.source) out.push(`requirement ${r.id} is a spec statement: remove its source (P- ids take docs/profile.md sources)`);
      if (r.level === 'profile') out.push(`requirement ${r.id} is a spec statement: its level is must or should, profile is for P- ids`);
    } else {
      if (!r.source) out.push(`requirement ${r.id} is a profile decision: give its source as docs/profile.md#<anchor>`);
      if (r.section) out.push(`requirement ${r.id} is a profile decision: remove its section`);
      if (r.level !== 'profile') out.push(`requirement ${r.id} is a profile decision: its level is profile`);
    }
    const since = r.since && r.since !== 'unversioned' ? r.since : '1.0.0';
    if (r.renamedIn && !before(since, r.renamedIn)) out.push(`requirement ${r.id} is renamed in ${r.renamedIn}, not after it appeared (${since})`);
    if (r.removedIn && !before(since, r.removedIn)) out.push(`requirement ${r.id} is removed in ${r.removedIn}, not after it appeared (${since})`);
  }
  return out;
}

/**
 * Problems between the requirement list and the checks that name requirements
 * in their definitions (the only place the link is written): every check
 * names requirements that exist; a requirement no check names says why
 * (untestable, or uncovered for one below must); one a check names says neither.
 */
export function linkProblems(reqs: readonly Requirement[], checks: readonly CheckMeta[]): string[] {
  const out: string[] = [];
  const ids = new Set(reqs.map(r => r.id));
  for (const c of checks) {
    if (!c.requirements?.length) {
      out.push(`check ${c.id} names no requirement: add the ids of contracts/requirements.yaml it enforces to its definition`);
      continue;
    }
    for (const rid of c.requirements) if (!ids.has(rid))
      out.push(`check ${c.id} names requirement ${rid}, which contracts/requirements.yaml does not have: fix the id or add the requirement`);
  }
  const named = checksByRequirement(checks);
  for (const r of reqs) {
    const by = named.get(r.id);
    const reason = r.untestable ? 'untestable' : r.uncovered ? 'uncovered' : undefined;
    if (by && reason) {
      out.push(`requirement ${r.id} is ${reason}, but ${by.join(', ')} ${by.length > 1 ? 'name' : 'names'} it: ` +
        `remove its ${reason} reason or the id from those checks`);
    } else if (!by && !reason) {
      out.push(`requirement ${r.id} is named by no check: add '${r.id}' to the requirements of the checks that enforce it, ` +
        'or say why none can (untestable)');
    }
    if (r.uncovered && r.level === 'must')
      out.push(`requirement ${r.id} is a must statement left uncovered: write a check that names it, or say why none can (untestable)`);
  }
  return out;
}

export interface ProofSources {
  checks: readonly CheckMeta[];
  /** Faults of harness/reference/catalog.yaml. */
  faults: readonly Breaker[];
  /** Faulty sample receivers. */
  receivers: readonly Breaker[];
  /** Names of the mutations and records defined in code. */
  mutations: readonly string[];
  records: readonly string[];
}

/** Problems of proofs.yaml against the checks and the places where proofs are defined. */
export function proofProblems(proofs: Proofs, src: ProofSources): string[] {
  const out: string[] = [];
  const known = new Set(src.checks.map(c => c.id));
  for (const kind of PROOF_KINDS) for (const [name, p] of Object.entries(proofs[kind]))
    for (const id of p.fails) if (!known.has(id)) out.push(`${kind} ${name} names check ${id}, which does not exist: fix the id`);

  const breakers = (kind: 'faults' | 'receivers', list: readonly Breaker[], where: string) => {
    for (const b of list) if (!proofs[kind][b.name])
      out.push(`${where} ${b.name} has no entry under ${kind} in contracts/proofs.yaml: name the checks it fails`);
    for (const [name, p] of Object.entries(proofs[kind])) {
      const b = list.find(x => x.name === name);
      if (!b) { out.push(`${kind} ${name} of contracts/proofs.yaml is not in ${where}s: remove it or add it there`); continue; }
      for (const id of p.fails) if (!id.startsWith(b.prefix + '.'))
        out.push(`${kind} ${name} names ${id}, outside its prefix ${b.prefix}: a proof fails checks under its own prefix only`);
    }
  };
  breakers('faults', src.faults, 'catalog fault');
  breakers('receivers', src.receivers, 'sample receiver fault');
  const named = (kind: 'mutations' | 'records', defined: readonly string[], where: string) => {
    for (const n of defined) if (!proofs[kind][n])
      out.push(`${where} defines ${n}, which contracts/proofs.yaml does not list under ${kind}: name the checks it fails`);
    for (const n of Object.keys(proofs[kind])) if (!defined.includes(n))
      out.push(`${kind} ${n} of contracts/proofs.yaml is not defined in ${where}: define it or remove the entry`);
  };
  named('mutations', src.mutations, 'test/suites/mutations.ts');
  named('records', src.records, 'test/sink/records.ts');

  for (const c of src.checks) {
    const proven = PROOF_KINDS.some(kind => Object.values(proofs[kind]).some(p => p.fails.includes(c.id)));
    const reason = proofs.cannotFail[c.id];
    if (!proven && !reason)
      out.push(`check ${c.id} has no proof that it can fail: add a fault, mutation, record or receiver to contracts/proofs.yaml that fails it, ` +
        'or its reason under cannotFail');
    if (proven && reason) out.push(`check ${c.id} has a proof and a reason it cannot fail: remove it from cannotFail`);
  }
  for (const id of Object.keys(proofs.cannotFail)) if (!known.has(id)) out.push(`cannotFail names check ${id}, which does not exist: remove it`);
  return out;
}
