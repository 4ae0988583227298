// The kinds of value a target option takes (harness/config/options.ts): for
// each, how a flag, an environment variable or a config key gives it, what
// the config file's JSON Schema says of it (contracts/target-config.yaml is
// generated from these), and the words an error uses for a good value.
import { dirname, resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { describeNumber, parseNumber, type NumberBounds } from '../flag-values.ts';
import { readTimeScale } from '../clock.ts';
import { API_VERSIONS, parseApiVersion, type ApiVersion } from '../contracts/api-versions.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import { parseBanks, type BankChoice } from './banks.ts';
import { checkSteps, loadConsentScript } from './consent-script.ts';
import type { ConsentStep } from './consent-script.ts';
import { DESCRIPTION_SCHEMA, describeTarget, readDescription, type TargetDescription } from './description.ts';

/** Where a value was given, for the sentence of its error. */
export interface Given {
  /** The flag, variable or config key as the user wrote it: `--max-wait`, `PIS_TIME_SCALE`, `Config file t.yaml: 'max-wait'`. */
  what: string;
  code: 'PIS_BAD_FLAG' | 'PIS_BAD_CONFIG';
  /** The config file the value is in: a file named in it is relative to it. */
  file?: string;
}

export interface Kind<T> {
  /** How node:util parseArgs reads its flag. */
  flag: 'string' | 'boolean';
  /** A good value in words, for --help and the sentence of an error: "a positive number". */
  expects: string;
  /** Its JSON Schema in the config file (type and bounds; `read` checks the rest). */
  schema: Record<string, unknown>;
  /** The value as a flag or variable gives it (text) or the config file (YAML), checked; else a HarnessError naming `at.what`. */
  read(value: unknown, at: Given): T;
}

/** A value as an error quotes it: scalars as written, a YAML list or mapping by what it is. */
export function shown(value: unknown): string {
  if (Array.isArray(value)) return value.length ? 'a list' : 'an empty list';
  return value !== null && typeof value === 'object' ? 'a mapping' : `'${String(value)}'`;
}

function wrong(at: Given, expects: string, value: unknown): HarnessError {
  return new HarnessError(at.code, `${at.what} must be ${expects}, not ${shown(value)}.`);
}

/** A string; YAML's numbers are taken as written (`client-id: 12345`). */
export const text: Kind<string> = {
  flag: 'string', expects: 'a string', schema: { type: ['string', 'number'] },
  read(v, at) {
    if (typeof v !== 'string' && typeof v !== 'number') throw wrong(at, text.expects, v);
    return String(v);
  },
};

/** An absolute http(s) URL, without trailing slashes (paths are joined to it). */
export const url: Kind<string> = {
  flag: 'string', expects: 'an absolute http:// or https:// URL', schema: { type: 'string' },
  read(v, at) {
    let u: URL;
    // Shown without the credentials it may carry, parsed or not.
    const shown = redactUrlUserinfo(String(v));
    try { u = new URL(String(v)); } catch {
      throw new HarnessError(at.code, `${at.what} '${shown}' is not a URL: give an absolute http:// or https:// address.`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new HarnessError(at.code, `${at.what} '${shown}' must start with http:// or https://.`);
    return String(v).replace(/\/+$/, '');
  },
};

/** A number within bounds; in the config file also as a quoted string, as before. */
export function number(bounds: NumberBounds): Kind<number> {
  const schema: Record<string, unknown> = { type: ['number', 'string'] };
  if (bounds.min !== undefined) schema.minimum = bounds.min;
  if (bounds.above !== undefined) schema.exclusiveMinimum = bounds.above;
  if (bounds.max !== undefined) schema.maximum = bounds.max;
  if (bounds.integer) schema.multipleOf = 1;
  return {
    flag: 'string', expects: describeNumber(bounds), schema,
    read: (v, at) => parseNumber(typeof v === 'number' ? v : String(v), at.what, bounds, at.code),
  };
}

/** A time scale: the spec clock checks it (harness/clock.ts); its schema is that of a positive number. */
export const timeScale: Kind<number> = {
  flag: 'string', expects: describeNumber({ above: 0 }), schema: number({ above: 0 }).schema,
  read(v, at) {
    if (typeof v !== 'string' && typeof v !== 'number') throw wrong(at, timeScale.expects, v);
    return readTimeScale(v, at.what, at.code);
  },
};

/** true or false; a flag of this kind is a switch (`--no-profile`), and `negate` makes it switch its setting off. */
export function boolean(negate = false): Kind<boolean> {
  const expects = 'true or false';
  return {
    flag: 'boolean', expects, schema: { type: 'boolean' },
    read(v, at) {
      if (typeof v !== 'boolean') throw wrong(at, expects, v);
      return negate ? !v : v;
    },
  };
}

/** One of a few words. */
export function oneOf<T extends string>(values: readonly T[]): Kind<T> {
  const expects = `one of ${values.join(', ')}`;
  return {
    flag: 'string', expects, schema: { enum: [...values] },
    read(v, at) {
      if (!(values as readonly unknown[]).includes(v)) throw wrong(at, expects, v);
      return v as T;
    },
  };
}

/** http(s) origins separated by commas (in the config file also a YAML list), each kept as its origin: scheme, host and port. */
export const origins: Kind<string[]> = {
  flag: 'string', expects: 'http:// or https:// origins separated by commas', schema: { type: ['string', 'array'], items: { type: 'string' } },
  read(v, at) {
    const items = (Array.isArray(v) ? v.map(String) : String(v).split(',')).map(s => s.trim()).filter(Boolean);
    if (!items.length) throw new HarnessError(at.code, `${at.what} names no origin: give one or more, such as https://bank.example.`);
    return items.map(s => new URL(url.read(s, at)).origin);
  },
};

/** --banks: all, a number, or ids; in the config file also a YAML list of ids. */
export const banks: Kind<BankChoice> = {
  flag: 'string', expects: 'all, a number of banks of at least 1, or bank ids separated by commas',
  schema: { type: ['string', 'integer', 'array'], minimum: 1, items: { type: 'string' }, minItems: 1 },
  read: (v, at) => parseBanks(Array.isArray(v) ? v.join(',') : String(v), at.what, at.code),
};

/** --bank-id: exactly one bank, so that a list or a number is not taken for something else. */
export const bankId: Kind<BankChoice> = {
  flag: 'string', expects: 'one bank id', schema: { type: ['string', 'number'] },
  read(v, at) {
    const id = String(v).trim();
    if (!id || id.includes(',')) {
      throw new HarnessError(at.code, `${at.what} must be one bank id, not '${String(v)}': name several banks, a number or all with banks instead.`);
    }
    return { kind: 'ids', ids: [id] };
  },
};

/** A version of spec 9 (`3.1.0` or `v3.1.0`), or `detect`. */
export const apiVersion: Kind<ApiVersion | 'detect'> = {
  flag: 'string', expects: `an API version (${API_VERSIONS.join(', ')}) or detect`, schema: { type: ['string', 'number'] },
  read: (v, at) => String(v).trim().toLowerCase() === 'detect' ? 'detect' : parseApiVersion(String(v), at.what, at.code, true),
};

/** A YAML file of consent steps; in the config file a path relative to it, or the steps themselves. */
export const consentScript: Kind<ConsentStep[]> = {
  flag: 'string', expects: 'a YAML file of consent steps, or (in the config file) the list of steps', schema: { type: ['string', 'array', 'object'] },
  read(v, at) {
    if (typeof v === 'string') return loadConsentScript(at.file ? resolve(dirname(at.file), v) : v);
    return checkSteps(v, at.file ?? at.what);
  },
};

/** The target description (docs/profile.md): a mapping, or a YAML file relative to the config file; config file only. */
export const description: Kind<TargetDescription> = {
  flag: 'string', expects: `a mapping of contracts/${DESCRIPTION_SCHEMA}, or a YAML file of one`, schema: { type: ['string', 'object'] },
  read: (v, at) => describeTarget(readDescription(v, at.file, at.what)),
};

const camel = (k: string) => k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const kebab = (k: string) => k.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`);

/** Both spellings a config file accepts for a name: `confirm-funds` and `confirmFunds`; one when they are the same. */
export function spellings(name: string): string[] {
  return [...new Set([kebab(name), camel(name)])];
}

/** A mapping of some of `names` (paths: or headers:) to non-empty strings: overrides of defaults, one by one. Config file only. */
export function overrides<N extends string>(names: readonly N[]): Kind<Partial<Record<N, string>>> {
  const entry = { type: 'string', minLength: 1 };
  const expects = `a mapping of some of ${names.map(kebab).join(', ')} to non-empty strings`;
  return {
    flag: 'string', expects,
    schema: { type: 'object', additionalProperties: false, properties: Object.fromEntries(names.flatMap(spellings).map(n => [n, entry])) },
    read(v, at) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw wrong(at, expects, v);
      const out: Partial<Record<N, string>> = {};
      for (const [name, value] of Object.entries(v)) {
        if (!(names as readonly string[]).includes(camel(name)) || typeof value !== 'string' || !value) throw wrong(at, expects, v);
        out[camel(name) as N] = value;
      }
      return out;
    },
  };
}
