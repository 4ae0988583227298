// harness/config/options.ts: every option of the table is taken as a flag, as
// its environment variable and as a config key in both spellings, and each
// way reaches the same TargetConfig field; a wrong value or an unknown key is
// one sentence that names where it was given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { fromEnv, fromFlags, resolveTarget } from '../../harness/config/config.ts';
import { loadConfigFile } from '../../harness/config/file.ts';
import { spellings } from '../../harness/config/kinds.ts';
import { TARGET_OPTIONS } from '../../harness/config/options.ts';
import { parseOptions } from '../../harness/cli/option-table.ts';
import { RUN_OPTIONS } from '../../harness/cli/run-options.ts';
import { describeTarget } from '../../harness/config/description.ts';

const dir = mkdtempSync(join(tmpdir(), 'pis-options-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const SCRIPT = join(dir, 'consent.yaml');
writeFileSync(SCRIPT, "- click: '#approve'\n");
const STEPS = [{ click: '#approve' }];
const BASE = { authUrl: 'http://a.example', clientId: 'c', clientSecret: 's' };

/**
 * A good value of every option: as a flag or variable gives it (text; true
 * for a switch), as a config file gives it (yaml, default the text), and the
 * field's value it must become. A new option needs a row here.
 */
const SAMPLES: Record<string, { text?: string | true; yaml?: unknown; field: unknown }> = {
  'auth-url': { text: 'http://auth.example/', field: 'http://auth.example' },
  'realm': { text: 'merchants', field: 'merchants' },
  'client-id': { text: '12345', yaml: 12345, field: '12345' },
  'client-secret': { text: 'secret-value', field: 'secret-value' },
  'base-url': { text: 'https://api.example/ics/v3//', field: 'https://api.example/ics/v3' },
  'control-url': { text: 'http://ctl.example:8080', field: 'http://ctl.example:8080' },
  'webhook-api-key': { text: 'key-123', field: 'key-123' },
  'sink-host': { text: '0.0.0.0', field: '0.0.0.0' },
  'sink-port': { text: '8080', yaml: 8080, field: 8080 },
  'public-sink-url': { text: 'https://tunnel.example/hooks', field: 'https://tunnel.example/hooks' },
  'time-scale': { text: '0.5', yaml: 0.5, field: 0.5 },
  'max-wait': { text: '0', yaml: 0, field: 0 },
  'retry-wait': { text: '600', yaml: 600, field: 600 },
  'long-chains': { text: true, yaml: true, field: true },
  'session-lifetime': { text: '120', yaml: '120', field: 120 },
  'no-profile': { text: true, yaml: true, field: false },
  'profile': { yaml: false, field: false },
  'consent-driver': { text: 'manual', field: 'manual' },
  'consent-script': { text: SCRIPT, yaml: 'consent.yaml', field: STEPS },
  'consent-origins': { text: 'https://bank.example/login, http://sso.example:8443', yaml: ['https://bank.example/login', 'http://sso.example:8443'],
    field: ['https://bank.example', 'http://sso.example:8443'] },
  'banks': { text: 'dnb-no,nordea-fi', yaml: ['dnb-no', 'nordea-fi'], field: { kind: 'ids', ids: ['dnb-no', 'nordea-fi'] } },
  'bank-id': { text: 'dnb-no', field: { kind: 'ids', ids: ['dnb-no'] } },
  'api-version': { text: 'v2.0.0', field: '2.0.0' },
  'browser-path': { yaml: '/opt/chromium/chrome', field: '/opt/chromium/chrome' },
  'device-id': { yaml: 'device-7', field: 'device-7' },
  'psu-ip-address': { yaml: '10.0.0.1', field: '10.0.0.1' },
  'redirect-url': { yaml: 'https://merchant.example/back', field: 'https://merchant.example/back' },
  'paths': { yaml: { 'confirm-funds': '/cf' }, field: { confirmFunds: '/cf' } },
  'headers': { yaml: { requestId: 'x-req' }, field: { requestId: 'x-req' } },
  'description': { yaml: { 'confirm-funds': { available: '/result/ok' }, products: { 'dnb-no': ['sepa-credit'] } },
    field: describeTarget({ 'confirm-funds': { available: '/result/ok' }, products: { 'dnb-no': ['sepa-credit'] } }) },
};

let files = 0;
function configFile(doc: unknown): string {
  const f = join(dir, `target-${files++}.yaml`);
  writeFileSync(f, typeof doc === 'string' ? doc : stringify(doc));
  return f;
}

function throwsNaming(fn: () => unknown, code: string, named: string, label: string): void {
  assert.throws(fn, (e: Error & { code?: string }) => {
    assert.equal(e.code, code, `${label}: ${e.message}`);
    assert.ok(e.message.includes(named), `${label}: '${e.message}' does not name ${named}`);
    assert.equal(e.message.split(/[.?!] /).length, 1, `${label}: not one sentence: ${e.message}`);
    return true;
  }, label);
}

test('every option is taken as a flag, a variable and a config key in both spellings, and reaches the same field', () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), TARGET_OPTIONS.map(o => o.name).sort(), 'a sample for every option of the table');
  assert.deepEqual(fromFlags(parseOptions('run', '', [], RUN_OPTIONS, {})!), {}, 'no flag given: no setting from the flags');
  for (const o of TARGET_OPTIONS) {
    const s = SAMPLES[o.name]!;
    const got: [string, unknown][] = [];
    if (o.flag) {
      assert.ok(s.text !== undefined, `${o.name} has a flag: give its sample a text`);
      const argv = s.text === true ? [`--${o.name}`] : [`--${o.name}`, s.text];
      // Through run's own table and parser: every other switch of it comes out false, which leaves its setting alone.
      got.push([`--${o.name}`, fromFlags(parseOptions('run', '', argv, RUN_OPTIONS, {})!)[o.field]]);
    } else assert.ok(!RUN_OPTIONS.some(x => x.name === o.name), o.name);
    if (o.env) got.push([o.env, fromEnv({ [o.env]: String(s.text) })[o.field]]);
    for (const key of spellings(o.name)) {
      // A secret never goes in a file: the key is refused, naming the variable that takes it.
      if (o.secret) throwsNaming(() => loadConfigFile(configFile({ [key]: s.yaml ?? s.text })), 'PIS_BAD_CONFIG', o.env!, key);
      else got.push([`${key}:`, loadConfigFile(configFile({ [key]: s.yaml ?? s.text })).config[o.field]]);
    }
    for (const [how, value] of got) assert.deepEqual(value, s.field, `${o.name} given as ${how}`);
    const resolved = resolveTarget({ [o.field]: s.field }, BASE);
    if (o.field === 'paths' || o.field === 'headers') assert.deepEqual({ ...resolved[o.field], ...(s.field as object) }, resolved[o.field], o.name);
    else assert.deepEqual(resolved[o.field], s.field, `${o.name} in the resolved target`);
  }
});

test('defaults fill what no source gives; a required option names its flag and variable', () => {
  const cfg = resolveTarget(BASE);
  for (const o of TARGET_OPTIONS.filter(x => x.default !== undefined)) assert.deepEqual(cfg[o.field], o.default, o.name);
  for (const o of TARGET_OPTIONS.filter(x => x.required)) {
    const { [o.field as keyof typeof BASE]: _, ...rest } = BASE;
    throwsNaming(() => resolveTarget(rest), 'PIS_MISSING_OPTION', `give --${o.name}, set ${o.env}`, o.name);
  }
});

test('a value of the wrong type is refused naming the key as written, for every option in both spellings', () => {
  for (const o of TARGET_OPTIONS) {
    // true is of no other kind than a switch's; a mapping is of no switch's.
    const wrong = o.kind.flag === 'boolean' ? { a: 1 } : true;
    for (const key of spellings(o.name))
      throwsNaming(() => loadConfigFile(configFile({ [key]: wrong })), 'PIS_BAD_CONFIG', o.secret ? o.env! : `'${key}' must be `, key);
  }
});

test('bad values name the flag, the variable or the key, with the code of where they were given', () => {
  const bad: [string, string][] = [['sink-port', '70000'], ['time-scale', '0'], ['max-wait', '-1'], ['session-lifetime', 'soon'],
    ['consent-driver', 'telepathy'], ['consent-origins', 'file:///etc'], ['banks', '0'], ['bank-id', 'a,b'], ['api-version', '2.5.0'], ['base-url', 'ftp://x'], ['auth-url', 'not a url']];
  for (const [name, text] of bad) {
    const o = TARGET_OPTIONS.find(x => x.name === name)!;
    throwsNaming(() => fromFlags({ [name]: text }), 'PIS_BAD_FLAG', `--${name} `, `--${name} ${text}`);
    if (o.env) throwsNaming(() => fromEnv({ [o.env!]: text }), 'PIS_BAD_CONFIG', `${o.env} `, `${o.env}=${text}`);
    const file = configFile(`${name}: '${text}'\n`);
    throwsNaming(() => loadConfigFile(file), 'PIS_BAD_CONFIG', `${file}: '${name}' `, `${name}: ${text}`);
  }
  throwsNaming(() => fromEnv({ PIS_TIME_SCALE: 'fast' }), 'PIS_BAD_CONFIG', 'PIS_TIME_SCALE must be a positive number', 'env');
});

test('an unknown key names the nearest real one, at the top and in paths: and headers:', () => {
  for (const o of TARGET_OPTIONS) {
    // Two letters swapped: one edit away.
    const typo = `${o.name.slice(0, 1)}${o.name[2]}${o.name[1]}${o.name.slice(3)}`;
    throwsNaming(() => loadConfigFile(configFile({ [typo]: 1 })), 'PIS_BAD_CONFIG', `unknown key '${typo}': did you mean '${o.name}'?`, typo);
  }
  throwsNaming(() => loadConfigFile(configFile({ paths: { tokn: '/t' } })), 'PIS_BAD_CONFIG', "unknown paths entry 'tokn': did you mean 'token'?", 'paths');
  throwsNaming(() => loadConfigFile(configFile({ headers: { sesion: 'x' } })), 'PIS_BAD_CONFIG',
    "unknown headers entry 'sesion': did you mean 'session'?", 'headers');
  throwsNaming(() => loadConfigFile(configFile({ zzzzzz: 1 })), 'PIS_BAD_CONFIG', "unknown key 'zzzzzz': use one of auth-url, realm,", 'far');
});

test('one setting given twice in one source is refused; a script implies the browser driver in its own source only', () => {
  throwsNaming(() => loadConfigFile(configFile('base-url: http://a\nbaseUrl: http://b\n')), 'PIS_BAD_CONFIG', "'base-url' and 'baseUrl' both set", 'spellings');
  throwsNaming(() => loadConfigFile(configFile({ profile: true, 'no-profile': true })), 'PIS_BAD_CONFIG', "'profile' and 'no-profile' both set", 'profile');
  const file = loadConfigFile(configFile({ 'consent-script': [{ goto: '{href}' }, { click: '#ok' }] })).config;
  assert.equal(file.consentDriver, 'browser');
  assert.equal(resolveTarget(BASE, fromFlags({ 'consent-driver': 'follow' }), file).consentDriver, 'follow', 'a flag wins over what the file implies');
  assert.equal(loadConfigFile(configFile({ 'consent-script': 'consent.yaml', 'consent-driver': 'manual' })).config.consentDriver, 'manual');
  assert.deepEqual(loadConfigFile(configFile({ 'base-url': null, suites: ['token', 'data'] })), { config: {}, suites: 'token,data' }, 'an empty key is absent');
  throwsNaming(() => loadConfigFile(configFile({ suites: ['token', 'tokens'] })), 'PIS_BAD_CONFIG', "'suites.1' must be one of", 'suites');
});
