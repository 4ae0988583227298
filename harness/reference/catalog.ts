// Typed loader of catalog.yaml: the named faults and quirks of the reference
// implementation. The YAML is the single source (it is data other engineers and
// the suites' self-tests read); this file only checks its shape once at load,
// so a typo in the catalog fails loudly instead of silently enabling nothing.
import { parse } from 'yaml';
import { HarnessError } from '../errors.ts';
import { readOwnYaml } from '../own-yaml.ts';
import type { Level } from '../results/model.ts';
import { atLeast, isApiVersion, type ApiVersion } from '../contracts/api-versions.ts';
import type { CatalogName } from './catalog-names.ts';

export interface Fault {
  kind: 'fault';
  name: string;
  description: string;
  /** The section of the service spec the fault breaks. */
  spec: string;
  /** The check-id prefix (docs/checks.md) that must catch it. */
  prefix: string;
  /** The level of the checks that catch it (a fault is never of level profile). */
  level: Exclude<Level, 'profile'>;
  /** The first API version it applies to (it breaks an operation that arrived then); absent: every version. */
  since?: ApiVersion;
}

export interface Quirk {
  kind: 'quirk';
  name: string;
  description: string;
  spec: string;
  /** The --config file (relative to the repository) that describes the quirk's target: the suites pass the quirk with it. */
  config?: string;
}

export type CatalogEntry = Fault | Quirk;

const CATALOG_FILE = new URL('./catalog.yaml', import.meta.url);
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const PREFIX = /^[a-z]+\.[a-z-]+$/;

function str(entry: Record<string, unknown>, key: string, where: string): string {
  const v = entry[key];
  if (typeof v !== 'string' || !v.trim()) throw new Error(`${where}: '${key}' must be a non-empty string`);
  return v;
}

/** Parses and validates catalog text; exported for the tests, which feed it broken catalogs. */
export function parseCatalog(text: string): { faults: Fault[]; quirks: Quirk[] } {
  return catalogOf(parse(text));
}

/** The catalog of a parsed YAML document, validated. */
function catalogOf(parsed: unknown): { faults: Fault[]; quirks: Quirk[] } {
  const doc = parsed as { faults?: unknown; quirks?: unknown } | null;
  if (!doc || !Array.isArray(doc.faults) || !Array.isArray(doc.quirks)) throw new Error("the catalog needs a 'faults' list and a 'quirks' list");
  const seen = new Set<string>();
  const named = (raw: unknown, i: number, list: string) => {
    const where = `${list}[${i}]`;
    if (!raw || typeof raw !== 'object') throw new Error(`${where} is not a mapping`);
    const e = raw as Record<string, unknown>;
    const name = str(e, 'name', where);
    if (!NAME.test(name)) throw new Error(`${where}: name '${name}' is not lower-case-with-dashes`);
    if (seen.has(name)) throw new Error(`${where}: name '${name}' appears twice`);
    seen.add(name);
    return { e, name, where };
  };
  const faults = doc.faults.map((raw, i): Fault => {
    const { e, name, where } = named(raw, i, 'faults');
    const prefix = str(e, 'prefix', where);
    if (!PREFIX.test(prefix)) throw new Error(`${where}: prefix '${prefix}' is not suite.area`);
    const level = str(e, 'level', where);
    if (level !== 'must' && level !== 'should') throw new Error(`${where}: level must be must or should, not '${level}'`);
    const since = e.since === undefined ? undefined : String(e.since);
    if (since !== undefined && !isApiVersion(since)) throw new Error(`${where}: since '${since}' is not an API version of spec 9`);
    return { kind: 'fault', name, description: str(e, 'description', where), spec: String(e.spec ?? ''), prefix, level, ...(since ? { since } : {}) };
  });
  const quirks = doc.quirks.map((raw, i): Quirk => {
    const { e, name, where } = named(raw, i, 'quirks');
    const config = e.config === undefined ? undefined : str(e, 'config', where);
    return { kind: 'quirk', name, description: str(e, 'description', where), spec: String(e.spec ?? ''), ...(config ? { config } : {}) };
  });
  return { faults, quirks };
}

function load(): { faults: Fault[]; quirks: Quirk[] } {
  try {
    return catalogOf(readOwnYaml(CATALOG_FILE));
  } catch (e) {
    throw new HarnessError('PIS_INTERNAL', `harness/reference/catalog.yaml is invalid (${(e as Error).message}): fix the entry it names.`, { cause: e });
  }
}

const CATALOG = load();

export const FAULTS: readonly Fault[] = CATALOG.faults;
export const QUIRKS: readonly Quirk[] = CATALOG.quirks;

export function findEntry(name: string): CatalogEntry | undefined {
  return FAULTS.find(f => f.name === name) ?? QUIRKS.find(q => q.name === name);
}

/**
 * Turns the names a user gave (flags, options) into the set every part of the
 * reference consults. An unknown name is a harness error: silently serving a
 * clean reference when a fault was asked for would make a suite look stronger
 * than it is.
 */
export function resolveFaults(names: Iterable<string> = [], version?: ApiVersion): Set<CatalogName> {
  const set = new Set<CatalogName>();
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    const entry = findEntry(name);
    if (!entry)
      throw new HarnessError('PIS_BAD_FLAG',
        `'${name}' is not a fault or quirk of the reference: run 'pis-conformance serve-reference --list-faults' for the names.`);
    // A fault of an operation the version does not have would silently change nothing.
    if (version && entry.kind === 'fault' && entry.since && !atLeast(version, entry.since))
      throw new HarnessError('PIS_BAD_FLAG', `The fault ${name} applies from API version ${entry.since}, and the reference serves ${version}: `
        + `give --api-version ${entry.since} or later, or leave the fault out.`);
    set.add(entry.name as CatalogName);
  }
  return set;
}

/**
 * The same switched-on names, recording in `log` every name asked about with
 * has(), switched on or not. A part of the reference that never asks about a
 * name cannot behave differently when it is switched on: the proof tests use
 * this to show which suites a fault or quirk can reach.
 */
export function recordingReads(faults: ReadonlySet<CatalogName>, log: Set<string>): Set<CatalogName> {
  const view = new Set(faults);
  const has = view.has.bind(view);
  view.has = (name: CatalogName) => { log.add(name); return has(name); };
  return view;
}

/** The catalog as text for --list-faults: one line per entry, grouped. */
export function describeCatalog(): string {
  const width = Math.max(...[...FAULTS, ...QUIRKS].map(e => e.name.length));
  const lines = ['Faults (each breaks one rule; the suites must catch it under the prefix shown):'];
  for (const f of FAULTS) {
    const since = f.since ? ` (API version ${f.since} and later)` : '';
    lines.push(`  ${f.name.padEnd(width)}  ${f.prefix.padEnd(24)} ${f.level.padEnd(6)} spec ${f.spec.padEnd(4)} ${f.description}${since}`);
  }
  lines.push('', 'Quirks (allowed by the spec; the suites must pass them):');
  for (const q of QUIRKS) lines.push(`  ${q.name.padEnd(width)}  spec ${q.spec.padEnd(4)} ${q.description}`);
  return lines.join('\n');
}
