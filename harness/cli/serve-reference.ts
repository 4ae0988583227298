// `serve-reference`: runs the bundled reference implementation alone and
// prints what a merchant needs to develop against it in five minutes: the
// URLs, the demo credentials, a curl for a token, and a curl that creates a
// checkout whose webhooks go to their own receiver. Runs until Ctrl-C/SIGTERM.
import { describeCatalog } from '../reference/catalog.ts';
import { startReference, type Reference } from '../reference/index.ts';
import { parseLifetimes } from '../reference/lifetimes.ts';
import { readTimeScale, specClock } from '../clock.ts';
import type { Command } from './command.ts';
import { optionsHelp, parseOptions, portOption, type CommandOption } from './option-table.ts';
import { onStop } from '../stop.ts';
import { API_VERSIONS, atLeast, LATEST_API_VERSION, parseApiVersion } from '../contracts/api-versions.ts';

const DEMO_SECRET = 'demo-secret';

/** Every option of serve-reference: its flags, --help rows and docs/options.md come from here. */
export const OPTIONS = [
  { name: 'host', kind: 'value', arg: 'H', shownDefault: '127.0.0.1', help: 'address to listen on' },
  portOption('port', { default: 0, shownDefault: '0: a free one' }),
  { name: 'time-scale', kind: 'value', arg: 'F', default: 1, read: readTimeScale, help: '1 spec second lasts F real seconds', more: [
    'e.g. 0.1 makes token lifetimes 360 s and the first webhook retry come after 1 s'] },
  { name: 'api-version', kind: 'value', arg: 'V', shownDefault: LATEST_API_VERSION, read: (text: string, what: string) => parseApiVersion(text, what),
    help: `the API version to serve (spec 9): ${API_VERSIONS.join(', ')}`, more: ['its operations under its names, nothing newer'] },
  { name: 'fault', kind: 'list', arg: 'NAME,...', help: 'switch on faults or quirks of the catalog (repeatable)' },
  { name: 'lifetimes', kind: 'value', arg: 'A,R[,C]', shownDefault: '3600,7200,3600, the spec\'s shown values', read: (text: string) => parseLifetimes(text),
    help: 'access token, refresh token and consent lifetimes in spec seconds', more: ['a consent left out lasts as long as the refresh token'] },
  { name: 'list-faults', kind: 'switch', help: 'print the catalog of faults and quirks and exit' },
  { name: 'realm', kind: 'value', arg: 'NAME', shownDefault: 'pis', help: 'realm in the token path' },
  { name: 'client-id', kind: 'value', arg: 'ID', shownDefault: 'demo-client', help: 'client id' },
  { name: 'client-secret', kind: 'value', arg: 'S', shownDefault: DEMO_SECRET, help: 'client secret' },
  { name: 'webhook-url', kind: 'value', arg: 'URL', help: "the organisation's registered webhook, used by checkouts that name none" },
  { name: 'webhook-api-key', kind: 'value', arg: 'K', help: 'the api-key sent with webhooks to --webhook-url' },
  { name: 'interactive-consent', kind: 'switch', help: 'consent and authorize links show a page with an Approve button (id "approve")', more: [
    'instead of granting at once, for browser-driven consent flows'] },
] as const satisfies readonly CommandOption[];

const help = `Usage: pis-conformance serve-reference [options]

Runs the reference implementation of the Payment Interconnectivity Service on
one loopback port: token endpoint, banking API, control API for checkouts, and
a webhook sender that follows spec section 6. Prints its URLs and ready curl
lines, and runs until Ctrl-C.

Options:
${optionsHelp(OPTIONS)}

Exit status 0 after a clean stop, 2 when it cannot start (port in use, bad flag,
unknown fault).`;

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The text printed once the server listens. Secrets other than the demo ones are shown as $VARIABLES. */
export function banner(ref: Reference, opts: { webhookUrl?: string; webhookApiKey?: string }): string {
  const secret = ref.clientSecret === DEMO_SECRET ? ref.clientSecret : '$PIS_CLIENT_SECRET';
  const scale = ref.timeScale === 1 ? 'real time' : `time scale ${ref.timeScale}: 1 spec second lasts ${ref.timeScale} real seconds`;
  const life = (s: number) => `${+specClock(ref.timeScale).toReal(s).toFixed(3)} s`;
  const checkout = {
    kind: 'normal',
    statuses: ['STARTED', 'PAYMENT_CREATED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'],
    ...(opts.webhookUrl ? {} : { webhook: { url: 'http://127.0.0.1:8080/webhook', apiKey: 'my-api-key' } }),
  };
  const token = `curl -s -X POST ${q(ref.tokenUrl)} -d grant_type=client_credentials -d client_id=${q(ref.clientId)} ` +
    `-d client_secret=${secret.startsWith('$') ? `"${secret}"` : q(secret)}`;
  return [
    `pis-conformance reference implementation is running (API version ${ref.apiVersion}, ${scale}).`,
    '',
    `  auth URL      ${ref.authUrl}`,
    `  token URL     ${ref.tokenUrl}`,
    `  base URL      ${ref.baseUrl}`,
    `  control URL   ${ref.controlUrl}`,
    `  realm         ${ref.realm}`,
    `  client id     ${ref.clientId}`,
    `  client secret ${ref.clientSecret === DEMO_SECRET ? DEMO_SECRET : '(as given with --client-secret)'}`,
    `  webhook       ${opts.webhookUrl
      ? `${opts.webhookUrl} (api-key ${opts.webhookApiKey ? 'as given with --webhook-api-key' : 'demo-webhook-key'})`
      : 'none registered: name one per checkout' +
        `${opts.webhookApiKey ? ' (--webhook-api-key needs --webhook-url to register one)' : ', or register one with --webhook-url'}`}`,
    `  faults        ${ref.faults.length ? ref.faults.join(', ') : 'none (a clean reference)'}`,
    `  lifetimes     access token ${life(ref.lifetimes.accessS)}, refresh token ${life(ref.lifetimes.refreshS)}, ` +
      `consent ${life(ref.lifetimes.consentS)}; first webhook retry after ${life(10)}`,
    '',
    'Get a token:',
    `  ${token}`,
    '',
    'Keep it and call the API (every call needs a bearer token and x-device-id):',
    `  TOKEN=$(${token} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    `  curl -s ${q(`${ref.baseUrl}/banks?countryCode=NO`)} -H "Authorization: Bearer $TOKEN" -H 'x-device-id: my-laptop'`,
    ...(atLeast(ref.apiVersion, '3.0.0') ? [
      '  Then POST /session {"bankId": "sparebank1-no"}, GET /consent/<sessionId> and open its link (a plain GET gives',
      '  consent), and call /accounts or /payments/<product> with x-session-id (paths and bodies: the profile, docs/profile.md).',
    ] : [
      '  Then POST /consent {"bankId": "sparebank1-no"} and open the link of its answer (a plain GET gives consent), and',
      '  call /accounts or /payments/<product> with x-consent-id: <consentId> (docs/profile.md, API versions).',
    ]),
    '',
    `Create a checkout whose webhooks go to your receiver${opts.webhookUrl ? ' (the registered one)' : ' (change url and apiKey)'}:`,
    `  curl -s -X POST ${q(`${ref.controlUrl}/checkouts`)} -H 'content-type: application/json' -d ${q(JSON.stringify(checkout))}`,
    `  Answer 200 to each webhook; any other answer, or none within ${life(5)}, is retried with exponential backoff (spec 6).`,
    `  See what was sent: curl -s ${q(`${ref.controlUrl}/checkouts/<id>/attempts`)}`,
    '',
    'Press Ctrl-C to stop.',
  ].join('\n');
}

export const command: Command = {
  name: 'serve-reference',
  help,
  options: OPTIONS,
  async run(argv) {
    const v = parseOptions('serve-reference', help, argv, OPTIONS);
    if (!v) return 0;
    if (v['list-faults']) {
      process.stdout.write(describeCatalog() + '\n');
      return 0;
    }
    const ref = await startReference({
      host: v.host, port: v.port, timeScale: v['time-scale'],
      faults: v.fault.flatMap(f => f.split(',')),
      realm: v.realm, clientId: v['client-id'], clientSecret: v['client-secret'],
      webhookUrl: v['webhook-url'], webhookApiKey: v['webhook-api-key'], interactiveConsent: v['interactive-consent'],
      lifetimes: v.lifetimes, apiVersion: v['api-version'],
    });
    process.stdout.write(banner(ref, { webhookUrl: v['webhook-url'], webhookApiKey: v['webhook-api-key'] }) + '\n');
    await new Promise<void>(resolve => onStop(() => resolve()));
    await ref.close();
    process.stdout.write('reference implementation stopped.\n');
    return 0;
  },
};
