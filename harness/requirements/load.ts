// Loads contracts/requirements.yaml (every testable statement of the spec and
// the profile's decisions) and contracts/proofs.yaml (how each check is shown
// able to fail), each validated against its schema with the contracts' ajv.
// Rules a schema cannot state are in rules.ts. The checks of a requirement are
// not in the file: each check names its requirements, and view.ts computes
// the list the other way.
import { join } from 'node:path';
import { parse } from 'yaml';
import { HarnessError } from '../errors.ts';
import { readOwnYaml } from '../own-yaml.ts';
import { contracts, CONTRACTS_DIR, ID_BASE } from '../contracts/load.ts';
import type { Level } from '../results/model.ts';
import type { PlaceFamily } from '../results/places.ts';

type Binds = 'service' | 'sender' | 'receiver';

export interface Requirement {
  /** R<section>-<slug> for the spec, P-<area>-<slug> for the profile. */
  id: string;
  section?: string;
  /** docs/profile.md#<anchor> (P ids). */
  source?: string;
  quote: string;
  level: Level;
  binds: Binds;
  /** The API version the statement appeared in; absent: 1.0.0; `unversioned`: a later change without a number. */
  since?: string;
  renamedIn?: string;
  formerly?: string;
  removedIn?: string;
  coverage?: 'partial';
  missing?: string;
  untestable?: string;
  uncovered?: string;
  note?: string;
  /** The family of places the statement binds (every operation, every bank, every event...); absent: one place. */
  places?: PlaceFamily;
  /** The members of `places` the statement binds, when it binds some only; absent: every member. */
  placesOnly?: string[];
}

/** `versions`: older API versions a fault's proof runs at too (test/run/versions.test.ts). */
interface ProofEntry { fails: string[]; versions?: string[]; note?: string }

/** The four ways to make a check fail, as proofs.yaml names them. */
export const PROOF_KINDS = ['faults', 'mutations', 'records', 'receivers'] as const;
export type ProofKind = typeof PROOF_KINDS[number];

export interface Proofs extends Record<ProofKind, Record<string, ProofEntry>> {
  /** Check id -> why nothing can make it fail. */
  cannotFail: Record<string, string>;
}

export const REQUIREMENTS_FILE = join(CONTRACTS_DIR, 'requirements.yaml');

function validated<T>(file: string, schema: string, text?: string, before?: (doc: unknown) => void): T {
  const name = `contracts/${file}`;
  let doc: unknown;
  try {
    doc = text === undefined ? readOwnYaml(join(CONTRACTS_DIR, file)) : parse(text);
  } catch (e) {
    throw new HarnessError('PIS_INTERNAL', `${name} is not valid YAML (${(e as Error).message.split('\n')[0]}): fix the line it names.`, { cause: e });
  }
  before?.(doc);
  const validate = contracts().ajv.getSchema(ID_BASE + schema);
  if (!validate) throw new HarnessError('PIS_INTERNAL', `contracts/${schema} did not load: restore it from the repository.`);
  if (!validate(doc)) {
    const first = (validate.errors ?? []).slice(0, 3).map(e => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new HarnessError('PIS_INTERNAL', `${name} does not match contracts/${schema} (${first}): fix the entry at that path.`);
  }
  return doc as T;
}

/** The requirements, in file order; `text` replaces the file (tests feed broken lists). */
export function loadRequirements(text?: string): Requirement[] {
  return validated<{ requirements: Requirement[] }>('requirements.yaml', 'requirements.schema.yaml', text, named).requirements;
}

/** An entry that lists checks again: the sentence says where the link is written now. */
function named(doc: unknown): void {
  const list = (doc as { requirements?: unknown } | null)?.requirements;
  if (!Array.isArray(list)) return;
  const i = list.findIndex(r => r && typeof r === 'object' && 'checks' in r);
  if (i < 0) return;
  const id = String((list[i] as { id?: unknown }).id ?? `entry ${i + 1}`);
  throw new HarnessError('PIS_INTERNAL', `contracts/requirements.yaml lists checks under ${id}: remove them there and name ${id} ` +
    "in each check's requirements instead (the list is computed from the checks' definitions).");
}

export function loadProofs(text?: string): Proofs {
  return validated<Proofs>('proofs.yaml', 'proofs.schema.yaml', text);
}

/** Every proof of a kind that names `checkId`: `fault webhook-retry-early`, `record a retry 2 s after a 500`. */
export function proofsOf(proofs: Proofs, checkId: string): { kind: ProofKind; name: string }[] {
  return PROOF_KINDS.flatMap(kind => Object.entries(proofs[kind])
    .filter(([, p]) => p.fails.includes(checkId)).map(([name]) => ({ kind, name })));
}
