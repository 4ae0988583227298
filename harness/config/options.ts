// Every target option of `run`, one entry each: its flag, its config key, its
// environment variable, the kind of value it takes, its default, whether it is
// a secret, and its help. The flags of `run`, the reading of flags, variables
// and the config file, the defaults and required options of resolveTarget,
// the --help rows, the environment list, contracts/target-config.yaml and the
// tables of docs/cli.md and README.md all come from this table
// (scripts/options-doc.ts writes the generated files; a test fails when one lags).
import { API_VERSIONS, LATEST_API_VERSION } from '../contracts/api-versions.ts';
import { PORT } from '../flag-values.ts';
import * as kind from './kinds.ts';
import type { Kind } from './kinds.ts';
import { CONSENT_DRIVERS, type PartialConfig } from './target-config.ts';
import { DEFAULT_HEADERS, DEFAULT_PATHS, type PathName } from './profile.ts';
import { PROFILE_DESCRIPTION } from './description.ts';

type Field = keyof PartialConfig;

export interface TargetOption {
  /** The flag without its dashes and the config key, in kebab-case; the file takes camelCase too (`max-wait`, `maxWait`). */
  name: string;
  /** The field of TargetConfig it sets. */
  field: Field;
  /** False: a key of the config file only, no flag. */
  flag: boolean;
  env?: string;
  kind: Kind<unknown>;
  /** What resolveTarget fills in when no source gives it. */
  default?: unknown;
  /** The default in words, where it is not a plain value (`a free port`), or applied elsewhere. */
  shownDefault?: string;
  /** No run against a named target without it. */
  required?: boolean;
  /** Passed on only through the environment, never written to a report. */
  secret?: boolean;
  /** Its value in --help: `--auth-url URL`. */
  arg?: string;
  /** What it is, in one line: --help, docs/cli.md and the environment list say it. */
  help: string;
  /** Further lines of --help: one text, wrapped (docs/cli.md joins them). */
  more?: string[];
  /** Other commands that read its variable, and the flag it stands for there when that has another name. */
  envAlso?: { commands: string; flag?: string };
  /** Settings it implies in the same source when that source does not give them. */
  implies?: PartialConfig;
}

/** One entry, its kind and default checked against the field's type. */
function option<const N extends string, const Flag extends boolean, F extends Field>(o: Omit<TargetOption, 'name' | 'flag' | 'field' | 'kind' | 'default'> & {
  name: N; flag: Flag; field: F; kind: Kind<NonNullable<PartialConfig[F]>>; default?: PartialConfig[F];
}): TargetOption & { name: N; flag: Flag; field: F; kind: Kind<NonNullable<PartialConfig[F]>> } {
  return o;
}

const OPTIONS = [
  option({ name: 'auth-url', field: 'authUrl', flag: true, env: 'PIS_AUTH_URL', kind: kind.url, required: true, arg: 'URL',
    help: '{auth_url} of the spec' }),
  option({ name: 'realm', field: 'realm', flag: true, env: 'PIS_REALM', kind: kind.text, default: 'pis', arg: 'NAME', help: 'the <realm> in the token path' }),
  option({ name: 'client-id', field: 'clientId', flag: true, env: 'PIS_CLIENT_ID', kind: kind.text, required: true, arg: 'ID', help: 'the OAuth client id' }),
  option({ name: 'client-secret', field: 'clientSecret', flag: true, env: 'PIS_CLIENT_SECRET', kind: kind.text, required: true, secret: true, arg: 'S',
    help: 'the OAuth client secret', more: ['prefer the variable: a command line shows in ps'] }),
  option({ name: 'base-url', field: 'baseUrl', flag: true, env: 'PIS_BASE_URL', kind: kind.url, arg: 'URL', help: '{base_url} of the spec: the banking API',
    more: ['not needed for --suites token: token.use and token.expiry then skip'] }),
  option({ name: 'control-url', field: 'controlUrl', flag: true, env: 'PIS_CONTROL_URL', kind: kind.url, arg: 'URL',
    help: "the target's control API (webhook suite)", more: ['docs/control-api.md; without it the webhook suite does not run and says why'] }),
  option({ name: 'webhook-api-key', field: 'webhookApiKey', flag: true, env: 'PIS_WEBHOOK_API_KEY', kind: kind.text, secret: true, arg: 'KEY',
    help: 'the api-key a webhook sender presents', envAlso: { commands: 'certify-receiver, sink', flag: '--api-key' } }),
  option({ name: 'sink-host', field: 'sinkHost', flag: true, kind: kind.text, default: '127.0.0.1', arg: 'H', help: 'where the webhook sink listens' }),
  option({ name: 'sink-port', field: 'sinkPort', flag: true, kind: kind.number(PORT), default: 0, shownDefault: '0, a free port', arg: 'P',
    help: "the webhook sink's port" }),
  option({ name: 'public-sink-url', field: 'publicSinkUrl', flag: true, kind: kind.url, arg: 'URL',
    help: 'the address the target must call, when it differs from host and port (a tunnel)' }),
  option({ name: 'time-scale', field: 'timeScale', flag: true, env: 'PIS_TIME_SCALE', kind: kind.timeScale, default: 1, arg: 'F',
    help: '1 spec second = F real seconds', envAlso: { commands: 'certify-receiver, sink' }, more: [
      'for every spec duration; a control API whose /health answers a timeScale',
      'sets it, and a given one that differs from it stops the run'] }),
  option({ name: 'max-wait', field: 'maxWaitS', flag: true, kind: kind.number({ min: 0 }), default: 60, arg: 'S',
    help: 'real seconds a check may wait for something to happen, e.g. token expiry' }),
  option({ name: 'retry-wait', field: 'retryWaitS', flag: true, kind: kind.number({ above: 0 }), default: 100, arg: 'S',
    help: "spec seconds the webhook drive waits for a sender's next attempt before it stops", more: [
      'spec 6.5 sets a minimum retry delay and no maximum: a retry that would come',
      'later is not judged (not run, with the figure); raise it for a longer backoff'] }),
  option({ name: 'long-chains', field: 'longChains', flag: true, kind: kind.boolean(), default: false,
    help: 'drive a chain of 6 failures of one event too (webhook.retry.long-chain)', more: [
      'about 630 spec s more: a sender that gives up on an event early loses it',
      'before the 7 days of spec 6.7; without it that check is not selected'] }),
  option({ name: 'session-lifetime', field: 'sessionLifetimeS', flag: true, kind: kind.number({ above: 0 }), arg: 'S',
    help: 'spec seconds a consented session lasts on the target (the spec does not say)',
    more: ['with it, and a --max-wait that fits, a check sees a session expire'] }),
  option({ name: 'no-profile', field: 'profile', flag: true, kind: kind.boolean(true),
    help: "leave out the checks of docs/profile.md's decisions (level profile)" }),
  option({ name: 'profile', field: 'profile', flag: false, kind: kind.boolean(), default: true, help: 'false: the same as --no-profile' }),
  option({ name: 'consent-driver', field: 'consentDriver', flag: true, kind: kind.oneOf(CONSENT_DRIVERS), default: 'follow', arg: 'D',
    help: 'follow (GET the link and its redirects), browser, or manual' }),
  option({ name: 'consent-script', field: 'consentScript', flag: true, kind: kind.consentScript, arg: 'FILE', implies: { consentDriver: 'browser' },
    help: 'YAML list of steps for the browser driver: {click: SEL}, {fill: SEL, value: TEXT}, ...',
    more: ['implies --consent-driver browser; in the config file a path relative to it, or the list itself'] }),
  option({ name: 'consent-origins', field: 'consentOrigins', flag: true, kind: kind.origins, arg: 'ORIGIN,ORIGIN',
    shownDefault: "none: only the target's own", help: 'origins besides those of the target URLs that consent links may lead to',
    more: ['a bank login page elsewhere; the follow and browser drivers go nowhere else'] }),
  option({ name: 'banks', field: 'banks', flag: true, kind: kind.banks, arg: 'all|N|ID,ID', shownDefault: 'every listed bank, at most 20',
    help: 'the banks the data and payments suites visit', more: ['a longer list is sampled to cover every country and supportedServices set'] }),
  option({ name: 'bank-id', field: 'banks', flag: true, kind: kind.bankId, arg: 'ID', help: 'one bank: short for --banks ID' }),
  option({ name: 'api-version', field: 'apiVersion', flag: true, env: 'PIS_API_VERSION', kind: kind.apiVersion, arg: 'V', shownDefault: LATEST_API_VERSION,
    help: 'the API version to test, or detect', more: [
      `${API_VERSIONS.join(', ')} (spec 9): only the checks`,
      'of that version run, on its paths; with no target the bundled reference serves it'] }),
  option({ name: 'browser-path', field: 'browserPath', flag: false, kind: kind.text, shownDefault: '/usr/bin/chromium when it exists', arg: 'FILE',
    help: 'Chromium for the browser consent driver' }),
  option({ name: 'device-id', field: 'deviceId', flag: false, kind: kind.text, default: 'pis-conformance', arg: 'ID',
    help: 'sent in x-device-id (docs/profile.md); any stable string' }),
  option({ name: 'psu-ip-address', field: 'psuIpAddress', flag: false, kind: kind.text, default: '127.0.0.1', arg: 'IP',
    help: 'sent in x-psu-ip-address where the suites exercise that header' }),
  option({ name: 'redirect-url', field: 'redirectUrl', flag: false, kind: kind.url, default: 'http://127.0.0.1/pis-conformance/callback', arg: 'URL',
    help: 'sent in x-redirect-url: where the bank sends the end user after consent' }),
  option({ name: 'paths', field: 'paths', flag: false, kind: kind.overrides(Object.keys(DEFAULT_PATHS) as PathName[]), arg: 'NAME: PATH',
    help: "overrides of docs/profile.md's paths, one by one (token, banks, ...)" }),
  option({ name: 'headers', field: 'headers', flag: false, kind: kind.overrides(Object.keys(DEFAULT_HEADERS) as (keyof typeof DEFAULT_HEADERS)[]),
    arg: 'NAME: HEADER', help: "overrides of docs/profile.md's header names, one by one (device, session, ...)" }),
  option({ name: 'description', field: 'description', flag: false, kind: kind.description, default: PROFILE_DESCRIPTION, arg: 'MAPPING|FILE',
    shownDefault: 'docs/profile.md',
    help: 'where the values the checks need live in the bodies, products, record fields given, control-API fields honoured, lifetimes (docs/profile.md)',
    more: ['run --describe prints it'] }),
] as const;

/** The table itself when it sets every field of PartialConfig (but the run's own bundledReference and timeScaleFromTarget), else never. */
type Complete<T extends readonly { field: Field }[]> =
  [Exclude<Field, T[number]['field'] | 'bundledReference' | 'timeScaleFromTarget'>] extends [never] ? T : never;

// A field of TargetConfig that no option sets fails to compile here: a setting that can be given has its entry.
export const TARGET_OPTIONS: readonly TargetOption[] = OPTIONS satisfies Complete<typeof OPTIONS>;

/** The config file's keys (both spellings of each name) and their options. */
export const CONFIG_KEYS: ReadonlyMap<string, TargetOption> = new Map(TARGET_OPTIONS.flatMap(o => kind.spellings(o.name).map(k => [k, o] as const)));

/** The default of an option in words, or undefined. */
export function shownDefault(o: TargetOption): string | undefined {
  return o.shownDefault ?? (o.default === undefined ? undefined : String(o.default));
}

/** Rows of run --help: the option as `left` shows it, its help and default, its variable in a column at the right, its further lines. */
function helpRows(options: readonly TargetOption[], left: (o: TargetOption) => string): string {
  const rows = options.map(o => {
    const def = shownDefault(o);
    return { o, text: `${o.help}${def === undefined ? '' : ` (default ${def})`}` };
  });
  const column = Math.max(0, ...rows.filter(r => r.o.env).map(r => r.text.length)) + 2;
  return rows.flatMap(({ o, text }) => [
    `  ${left(o).padEnd(24)}${o.env ? `${text.padEnd(column)}${o.env}` : text}`,
    ...(o.more ?? []).map(line => `${' '.repeat(26)}${line}`),
  ]).join('\n');
}

/** The rows of run --help's Target section. */
export function targetHelp(): string {
  return helpRows(TARGET_OPTIONS.filter(o => o.flag), o => `--${o.name}${o.arg ? ` ${o.arg}` : ''}`);
}

/** The rows of run --help for the keys of the config file that have no flag. */
export function configOnlyHelp(): string {
  return helpRows(TARGET_OPTIONS.filter(o => !o.flag), o => `${o.name}: ${o.arg ?? ''}`.trimEnd());
}

/** The target's environment variables as the environment list shows them (harness/cli/environment.ts). */
export function targetVariables(): { name: string; commands: string; meaning: string }[] {
  return TARGET_OPTIONS.filter(o => o.env).map(o => ({
    name: o.env!,
    commands: ['run', o.envAlso?.commands].filter(Boolean).join(', '),
    meaning: `${o.help} (--${o.name}${o.envAlso?.flag ? `, ${o.envAlso.flag}` : ''}${shownDefault(o) ? `; default ${shownDefault(o)}` : ''})`
      + (o.secret ? '; never written to a report' : ''),
  }));
}
