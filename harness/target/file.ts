// The YAML config file of `run --config FILE` and the consent script of
// `--consent-script FILE`. Keys are the flag names in kebab-case or camelCase
// (`base-url` or `baseUrl`); `paths:` and `headers:` override docs/profile.md's
// defaults. An unknown key is an error, so a typo never silently tests the
// wrong thing.
import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { HarnessError } from '../errors.ts';
import { apiVersionSetting, CONSENT_DRIVERS, type ConsentStep, type PartialConfig } from './config.ts';
import { DEFAULT_HEADERS, DEFAULT_PATHS } from './profile.ts';
import { parseBanks } from './banks.ts';

const STRING_KEYS = ['authUrl', 'realm', 'clientId', 'clientSecret', 'baseUrl', 'controlUrl', 'webhookApiKey', 'sinkHost',
  'publicSinkUrl', 'browserPath', 'deviceId', 'psuIpAddress', 'redirectUrl'] as const;
const NUMBER_KEYS = ['sinkPort', 'timeScale', 'maxWait', 'sessionLifetime'] as const;
const OTHER_KEYS = ['profile', 'noProfile', 'consentDriver', 'consentScript', 'paths', 'headers', 'suites', 'banks', 'bankId', 'apiVersion'] as const;
const KNOWN = new Set<string>([...STRING_KEYS, ...NUMBER_KEYS, ...OTHER_KEYS]);

const camel = (k: string) => k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function bad(file: string, why: string): HarnessError {
  return new HarnessError('PIS_BAD_CONFIG', `Config file ${file}: ${why}.`);
}

/**
 * The most a config file or consent script may hold (1 MiB, arbitrary: a few
 * dozen keys fill a kilobyte). The YAML parser takes seconds and gigabytes on
 * tens of megabytes (30 MB: 21 s and 2.1 GB before its error).
 */
const MAX_YAML_BYTES = 1024 * 1024;

/** Reads at most MAX_YAML_BYTES + 1 bytes, so a huge file, a device or a pipe that never ends costs no more. */
function readCapped(file: string): { text: string; over: boolean } {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(MAX_YAML_BYTES + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length;) n += (got = readSync(fd, buf, n, buf.length - n, null));
    return { text: buf.subarray(0, n).toString('utf8'), over: n > MAX_YAML_BYTES };
  } finally { closeSync(fd); }
}

function readYaml(file: string, what: string): unknown {
  let text: string;
  try {
    const read = readCapped(file);
    if (read.over) throw new HarnessError('PIS_BAD_CONFIG', `The ${what} ${file} is over ${MAX_YAML_BYTES / 1024 / 1024} MiB, far more than its settings need: check that it is the right file.`);
    text = read.text;
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('PIS_BAD_CONFIG', `Cannot read the ${what} ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path.`);
  }
  try { return parse(text); } catch (e) {
    throw new HarnessError('PIS_BAD_CONFIG', `The ${what} ${file} is not valid YAML (${(e as Error).message.split('\n')[0]}): fix the syntax.`);
  }
}

/** Reads and checks a config file; `suites` comes back separately because it is not part of the target. */
export function loadConfigFile(file: string): { config: PartialConfig; suites?: string } {
  const data = readYaml(file, 'config file');
  if (data === null || data === undefined) return { config: {} };
  if (typeof data !== 'object' || Array.isArray(data)) throw bad(file, 'the top level must be a mapping of keys such as base-url and auth-url');
  const out: Record<string, unknown> = {};
  let suites: string | undefined;
  for (const [rawKey, v] of Object.entries(data as Record<string, unknown>)) {
    const k = camel(rawKey);
    if (!KNOWN.has(k)) throw bad(file, `unknown key '${rawKey}' (known: ${[...KNOWN].join(', ')})`);
    if (v === null || v === undefined) continue;
    if ((STRING_KEYS as readonly string[]).includes(k)) {
      if (typeof v !== 'string' && typeof v !== 'number') throw bad(file, `'${rawKey}' must be a string`);
      out[k] = String(v);
    } else if ((NUMBER_KEYS as readonly string[]).includes(k)) {
      const n = Number(v);
      const pos = k === 'timeScale' || k === 'sessionLifetime';
      if (!Number.isFinite(n) || n < 0 || (pos && n === 0)) throw bad(file, `'${rawKey}' must be a ${pos ? 'positive' : 'non-negative'} number, not '${v}'`);
      out[k === 'maxWait' || k === 'sessionLifetime' ? `${k}S` : k] = n;
    } else if (k === 'profile' || k === 'noProfile') {
      if (typeof v !== 'boolean') throw bad(file, `'${rawKey}' must be true or false`);
      out.profile = k === 'profile' ? v : !v;
    } else if (k === 'consentDriver') {
      if (!(CONSENT_DRIVERS as readonly unknown[]).includes(v)) throw bad(file, `'${rawKey}' must be one of ${CONSENT_DRIVERS.join(', ')}`);
      out.consentDriver = v;
    } else if (k === 'consentScript') {
      out.consentScript = typeof v === 'string' ? loadConsentScript(resolve(dirname(file), v)) : checkSteps(v, file);
    } else if (k === 'paths' || k === 'headers') {
      out[k] = overrides(v, k === 'paths' ? Object.keys(DEFAULT_PATHS) : Object.keys(DEFAULT_HEADERS), file, rawKey);
    } else if (k === 'banks' || k === 'bankId') {
      // banks: all | N | [id, ...] | "id,id"; bankId: one id (short for banks: [id]).
      if (out.banks) throw bad(file, 'bank-id is short for banks: give one of them, not both');
      const text = Array.isArray(v) ? v.join(',') : String(v);
      out.banks = parseBanks(k === 'bankId' ? text.split(',')[0]! : text, `Config file ${file}: '${rawKey}'`, 'PIS_BAD_CONFIG');
    } else if (k === 'apiVersion') {
      if (typeof v !== 'string' && typeof v !== 'number') throw bad(file, `'${rawKey}' must be an API version such as 3.2.0, or detect`);
      out.apiVersion = apiVersionSetting(String(v), `Config file ${file}: '${rawKey}'`, 'PIS_BAD_CONFIG');
    } else if (k === 'suites') {
      suites = Array.isArray(v) ? v.join(',') : String(v);
    }
  }
  return { config: out as PartialConfig, suites };
}

function overrides(v: unknown, names: string[], file: string, key: string): Record<string, string> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw bad(file, `'${key}' must be a mapping of names to strings`);
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(v)) {
    const name = camel(rawName);
    if (!names.includes(name)) throw bad(file, `unknown ${key} entry '${rawName}' (known: ${names.join(', ')})`);
    if (typeof value !== 'string' || !value) throw bad(file, `${key}.${rawName} must be a non-empty string`);
    out[name] = value;
  }
  return out;
}

/**
 * Reads the browser consent driver's script: a YAML list of {goto}, {click},
 * {fill, value}, {press, key}, {waitFor}, {waitForUrl}. A first {goto} replaces
 * the driver's own visit of the link ({href} in it is the link).
 */
export function loadConsentScript(file: string): ConsentStep[] {
  const data = readYaml(file, 'consent script');
  return checkSteps(data, file);
}

function checkSteps(data: unknown, file: string): ConsentStep[] {
  const list = (data && typeof data === 'object' && !Array.isArray(data) && 'steps' in data) ? (data as { steps: unknown }).steps : data;
  if (!Array.isArray(list) || !list.length) throw bad(file, 'the consent script must be a non-empty list of steps such as {click: "#approve"}');
  return list.map((s, i) => {
    const ok = s && typeof s === 'object' && (
      typeof s.goto === 'string' || typeof s.click === 'string' || typeof s.waitFor === 'string' || typeof s.waitForUrl === 'string'
      || (typeof s.fill === 'string' && typeof s.value === 'string') || (typeof s.press === 'string' && typeof s.key === 'string'));
    if (!ok) throw bad(file, `step ${i + 1} must be one of {goto: URL ({href} is the link)}, {click: SELECTOR}, {fill: SELECTOR, value: TEXT}, {press: SELECTOR, key: KEY}, {waitFor: SELECTOR}, {waitForUrl: PATTERN}`);
    return s as ConsentStep;
  });
}
