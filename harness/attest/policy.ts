// The policy of `verify --policy` (contracts/attest-policy.yaml): what a
// relying party accepts besides a valid signature. By default nothing failed
// and every must requirement of the certificate's API version
// (contracts/requirements.yaml; those a run judges: binds service or sender)
// is among the passed checks: at least one of its checks passed and none
// failed or did not run. With `acceptDeviations`, a failed check that an
// unexpired declared deviation covers does not refuse the certificate; an
// expired one does.
import { API_VERSIONS, isApiVersion } from '../contracts/api-versions.ts';
import { loadRequirements } from '../requirements/load.ts';
import { requirementsAtVersion } from '../requirements/versions.ts';
import type { CheckDef } from '../check/def.ts';
import type { Statement } from './statement.ts';
import { readYamlFile } from './yaml-file.ts';

export interface Policy { apiVersions?: string[]; acceptDeviations?: boolean }

export function loadPolicy(file: string): Policy {
  return readYamlFile<Policy>(file, 'attest-policy.yaml', '--policy').doc;
}

type Versioned = Pick<CheckDef, 'id' | 'requirements' | 'addedLater' | 'needs'>;

export function policyFindings(s: Statement, policy: Policy, catalog: readonly Versioned[], today: string): string[] {
  const p = s.predicate, c = p.conformance;
  const out: string[] = [];
  const version = c?.apiVersion;
  if (!version || !isApiVersion(version))
    return [`The certificate names no API version of spec 9 (${API_VERSIONS.join(', ')}), so its requirements cannot be checked.`];
  if (policy.apiVersions && !policy.apiVersions.includes(version))
    out.push(`The certificate is for API version ${version}; the policy accepts ${policy.apiVersions.join(', ')}.`);
  const excused = new Set<string>();
  for (const d of c.deviations ?? []) {
    const what = d.check ? `check ${d.check}` : `requirement ${d.requirement}`;
    if (!policy.acceptDeviations)
      out.push(`The certificate declares a deviation for ${what}, and the policy does not accept declared deviations (acceptDeviations).`);
    else if (d.expires < today) out.push(`The declared deviation for ${what} expired on ${d.expires}.`);
    else for (const id of d.covers ?? []) excused.add(id);
  }
  for (const id of p.failedTests) if (!excused.has(id)) out.push(`${id} ${(c.notRunTests ?? []).includes(id) ? 'did not run' : 'failed'}.`);
  const passed = new Set(p.passedTests);
  const bad = new Set([...p.failedTests.filter(id => !excused.has(id)), ...(c.notRunTests ?? [])]);
  for (const r of requirementsAtVersion(loadRequirements(), version, catalog)) {
    if (r.level !== 'must' || r.binds === 'receiver' || !r.checks?.length || r.untestable || r.uncovered) continue;
    const met = r.checks.some(id => passed.has(id) || excused.has(id)) && !r.checks.some(id => bad.has(id));
    if (!met) out.push(`Requirement ${r.id} is not among the passed checks (${r.checks.join(', ')}).`);
  }
  return out;
}
