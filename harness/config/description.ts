// The target description (docs/profile.md, "The target description"): where
// each value the checks need lives in the target's bodies, the products each
// bank offers beyond supportedServices, the record fields each bank returns
// with values, the control-API fields the target honours, and the session's
// lifetime. The
// profile is the default description; a target's `description:` (in its
// --config file, or a YAML file the key names) replaces it key by key, checked
// against contracts/target-description.yaml. `run --describe` prints the one
// in force.
import { dirname, resolve } from 'node:path';
import { stringify } from 'yaml';
import { HarnessError } from '../errors.ts';
import { contracts, ID_BASE } from '../contracts/load.ts';
import type { ControlExtension } from '../contracts/types.ts';
import { badConfig, readYaml } from './yaml.ts';

/** A JSON Pointer (RFC 6901) in which a segment `*` stands for every element of an array (valuesAt). */
export type Place = string;

export interface TargetDescription {
  bank: { id: Place; country: Place };
  account: { iban: Place; bban: Place; currency: Place; balance: Place };
  session: { id: Place };
  consent: { url: Place; 'error-link': Place };
  payment: { fields: Record<string, Place>; id: Place; status: Place; 'authorize-link': Place };
  'confirm-funds': { fields: Record<string, Place>; available: Place };
  /** Products by bank id ('*': every bank) beyond supportedServices. */
  products: Record<string, string[]>;
  /** Record fields of spec 2.6 a bank returns with values, by bank id ('*': every bank the target does not name). */
  records: Record<string, string[]>;
  /** The optional checkout fields of docs/control-api.md the control API honours; absent: learnt from its 201 echo. */
  control: { honours?: ControlExtension[] };
  lifetimes: { session?: number };
}

/** The schema of a description under contracts/. */
export const DESCRIPTION_SCHEMA = 'target-description.yaml';

/** The record fields spec 2.6 says are "returned when the bank returns them; otherwise they are empty strings". */
const RECORD_FIELDS = ['ownerName', 'displayName', 'counterpartyAccount', 'counterpartyName', 'counterpartyAgent'] as const;

const same = (names: string[]): Record<string, Place> => Object.fromEntries(names.map(n => [n, `/${n}`]));

/** docs/profile.md as a description: what holds when a target describes nothing. */
export const PROFILE_DESCRIPTION: TargetDescription = {
  bank: { id: '/id', country: '/countryCode' },
  account: { iban: '/iban', bban: '/bban', currency: '/balances/0/currency', balance: '/balances/0/amount' },
  session: { id: '/sessionId' },
  consent: { url: '/links/*/href', 'error-link': '/links/*[rel!=authorize]/href' },
  payment: {
    fields: same(['debtorAccount', 'creditorAccount', 'debtorName', 'creditorName', 'instrumentedAmount', 'currency',
      'remittanceInformationUnstructured', 'endToEndIdentification', 'requestedExecutionDate', 'paymentMetadata', 'instantPayment']),
    id: '/paymentId', status: '/status', 'authorize-link': '/links/*[rel=authorize]/href',
  },
  'confirm-funds': { fields: same(['iban', 'amount', 'currency']), available: '/fundsAvailable' },
  products: {},
  // The reference's banks give every field of spec 2.6's rule on some of their records.
  records: { '*': [...RECORD_FIELDS] },
  control: {},
  lifetimes: {},
};

type Given = Partial<{ [K in keyof TargetDescription]: Partial<TargetDescription[K]> }>;

/** The first problem of `data` against contracts/target-description.yaml, or undefined. */
function problem(data: unknown): string | undefined {
  const validate = contracts().ajv.getSchema(ID_BASE + DESCRIPTION_SCHEMA);
  if (!validate) throw new HarnessError('PIS_INTERNAL', `contracts/${DESCRIPTION_SCHEMA} did not load: restore it from the repository.`);
  if (validate(data)) return undefined;
  const e = validate.errors![0]!;
  const where = e.instancePath ? `'description${e.instancePath.replace(/\//g, '.')}'` : "'description'";
  if (e.keyword === 'additionalProperties') return `${where} has an unknown key '${String(e.params.additionalProperty)}'`;
  if (e.keyword === 'pattern') return `${where} must be a JSON Pointer such as /links/*/href`;
  return `${where} ${e.message ?? 'is not valid'}`;
}

/**
 * The description a config file gives: the mapping itself, or a YAML file
 * (relative to the config file) that holds it; checked against the schema.
 */
export function readDescription(value: unknown, file: string | undefined, what: string): Given {
  const source = typeof value === 'string' ? (file ? resolve(dirname(file), value) : value) : file ?? what;
  const data = typeof value === 'string' ? readYaml(source, 'description file') : value;
  const p = problem(data ?? {});
  if (p) throw badConfig(source, `${p}: see contracts/${DESCRIPTION_SCHEMA}`);
  return (data ?? {}) as Given;
}

/** The profile's description with each key a target gave replaced (fields, products and records merge name by name). */
export function describeTarget(given: Given = {}): TargetDescription {
  const d = structuredClone(PROFILE_DESCRIPTION);
  const out = d as unknown as Record<string, Record<string, unknown>>;
  for (const [area, values] of Object.entries(given) as [string, Record<string, unknown>][]) {
    for (const [key, v] of Object.entries(values ?? {})) {
      const before = out[area]![key];
      out[area]![key] = before && typeof before === 'object' && v && typeof v === 'object' && !Array.isArray(v)
        ? { ...before as object, ...v as object } : v;
    }
  }
  return d;
}

/** The description as `run --describe` prints it: YAML a config file's `description:` takes back. */
export function descriptionYaml(d: TargetDescription): string {
  return stringify({ description: d }, { lineWidth: 0 });
}

const decode = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The segments of a place. */
function segments(place: Place): string[] {
  return place.split('/').slice(1).map(decode);
}

/** `*[name=value]` or `*[name!=value]`: the elements of an array whose member `name` is (or is not) `value`. */
const FILTER = /^\*\[([^=!\]]+)(!?=)([^\]]*)\]$/;

/**
 * Every value at `place` in `body`, in document order: a `*` segment visits
 * each element of an array, `*[rel=consent]` the elements whose member rel is
 * "consent", `*[rel!=authorize]` those whose rel is anything else or absent.
 */
export function valuesAt(body: unknown, place: Place): unknown[] {
  let found: unknown[] = [body];
  for (const seg of segments(place)) {
    const filter = FILTER.exec(seg);
    found = found.flatMap(v => {
      if (seg === '*') return Array.isArray(v) ? v : [];
      if (filter) {
        const [, name, op, wanted] = filter;
        const is = (e: unknown) => !!e && typeof e === 'object' && (e as Record<string, unknown>)[name!] === wanted;
        return Array.isArray(v) ? v.filter(e => (op === '=') === is(e)) : [];
      }
      if (Array.isArray(v)) return /^(0|[1-9]\d*)$/.test(seg) && Number(seg) < v.length ? [v[Number(seg)]] : [];
      return v && typeof v === 'object' && Object.hasOwn(v, seg) ? [(v as Record<string, unknown>)[seg]] : [];
    });
  }
  return found;
}

/** Sets `value` at `place` in `body`, making the objects on the way; a `*` segment is the first element of a new array. */
export function setAt(body: Record<string, unknown>, place: Place, value: unknown): void {
  const segs = segments(place);
  let at: Record<string, unknown> | unknown[] = body;
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    const key = seg.startsWith('*') ? 0 : seg;
    const holder = at as Record<string | number, unknown>;
    if (last) { holder[key] = value; return; }
    if (!holder[key] || typeof holder[key] !== 'object') holder[key] = segs[i + 1]!.startsWith('*') ? [] : {};
    at = holder[key] as Record<string, unknown>;
  });
}
