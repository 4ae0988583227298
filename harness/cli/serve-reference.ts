// `serve-reference`: runs the bundled reference implementation alone and
// prints what a merchant needs to develop against it in five minutes: the
// URLs, the demo credentials, a curl for a token, and a curl that creates a
// checkout whose webhooks go to their own receiver. Runs until Ctrl-C/SIGTERM.
import { describeCatalog } from '../reference/catalog.ts';
import { startReference, type Reference } from '../reference/index.ts';
import { parseLifetimes } from '../reference/lifetimes.ts';
import { numberFlag, PORT } from '../flag-values.ts';
import { readTimeScale, specClock } from '../clock.ts';
import { parseFlags, type Command } from './command.ts';
import { onStop } from '../stop.ts';
import { API_VERSIONS, atLeast, LATEST_API_VERSION, parseApiVersion } from '../contracts/api-versions.ts';

const DEMO_SECRET = 'demo-secret';

const help = `Usage: pis-conformance serve-reference [options]

Runs the reference implementation of the Payment Interconnectivity Service on
one loopback port: token endpoint, banking API, control API for checkouts, and
a webhook sender that follows spec section 6. Prints its URLs and ready curl
lines, and runs until Ctrl-C.

Options:
  --host H               address to listen on (default 127.0.0.1)
  --port P               port (default 0: a free one)
  --time-scale F         1 spec second lasts F real seconds (default 1); e.g.
                         0.1 makes token lifetimes 360 s and the first webhook
                         retry come after 1 s
  --api-version V        the API version to serve (spec 9): ${API_VERSIONS.join(', ')}
                         (default ${LATEST_API_VERSION}): its operations under its names,
                         nothing newer
  --fault NAME,...       switch on faults or quirks of the catalog (repeatable)
  --lifetimes A,R[,C]    access token, refresh token and consent lifetimes in
                         spec seconds (default 3600,7200,3600, the spec's shown
                         values; a consent left out lasts as long as the
                         refresh token)
  --list-faults          print the catalog of faults and quirks and exit
  --realm NAME           realm in the token path (default pis)
  --client-id ID         client id (default demo-client)
  --client-secret S      client secret (default demo-secret)
  --webhook-url URL      the organisation's registered webhook, used by
                         checkouts that name none
  --webhook-api-key K    the api-key sent with webhooks to --webhook-url
  --interactive-consent  consent and authorize links show a page with an
                         Approve button (id "approve") instead of granting at
                         once, for browser-driven consent flows
  -h, --help             this text

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
  async run(argv) {
    const parsed = parseFlags('serve-reference', help, argv, {
      'host': { type: 'string' },
      'port': { type: 'string' },
      'time-scale': { type: 'string' },
      'fault': { type: 'string', multiple: true },
      'lifetimes': { type: 'string' },
      'list-faults': { type: 'boolean' },
      'realm': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-api-key': { type: 'string' },
      'interactive-consent': { type: 'boolean' },
      'api-version': { type: 'string' },
    });
    if (!parsed) return 0;
    const v = parsed.values;
    if (v['list-faults']) {
      process.stdout.write(describeCatalog() + '\n');
      return 0;
    }
    const port = numberFlag('port', v.port, 0, PORT);
    const timeScale = v['time-scale'] === undefined ? 1 : readTimeScale(v['time-scale'], '--time-scale');
    const ref = await startReference({
      host: v.host, port, timeScale,
      faults: (v.fault ?? []).flatMap(f => f.split(',')),
      realm: v.realm, clientId: v['client-id'], clientSecret: v['client-secret'],
      webhookUrl: v['webhook-url'], webhookApiKey: v['webhook-api-key'], interactiveConsent: v['interactive-consent'],
      lifetimes: v.lifetimes ? parseLifetimes(v.lifetimes) : undefined,
      apiVersion: v['api-version'] === undefined ? undefined : parseApiVersion(v['api-version'], '--api-version'),
    });
    process.stdout.write(banner(ref, { webhookUrl: v['webhook-url'], webhookApiKey: v['webhook-api-key'] }) + '\n');
    await new Promise<void>(resolve => onStop(() => resolve()));
    await ref.close();
    process.stdout.write('reference implementation stopped.\n');
    return 0;
  },
};
