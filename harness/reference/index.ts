// startReference(): the bundled reference implementation in one call. One
// HTTP server on one port serves the token endpoint, the banking API under
// /api, the simulated bank's pages under /bank and the control API under
// /control, all on one compressed clock and with the faults and quirks of
// catalog.yaml that were asked for.
import type { AddressInfo } from 'node:net';
import { TokenStore } from './auth/token-store.ts';
import { createTokenEndpoint } from './auth/token-endpoint.ts';
import type { ApiContext } from './api/context.ts';
import { PaymentStore } from './api/payment-store.ts';
import { createApi } from './api/router.ts';
import { SessionStore } from './api/session-store.ts';
import { TicketStore } from './api/tickets.ts';
import { recordingReads, resolveFaults } from './catalog.ts';
import { realClock, type Clock } from './clock.ts';
import { SHOWN_LIFETIMES, type Lifetimes } from './lifetimes.ts';
import { createControl, type EventRecord, type ReferenceAttempt } from './control.ts';
import { createReferenceServer } from './server.ts';
import { listenError } from '../errors.ts';
import { LATEST_API_VERSION, type ApiVersion } from '../contracts/api-versions.ts';

;

export interface ReferenceOptions {
  host?: string;
  port?: number;
  /** Real seconds per spec second (docs/report.md, time scale). */
  timeScale?: number;
  /** Fault and quirk names of catalog.yaml; an unknown name is a HarnessError. */
  faults?: string[];
  realm?: string;
  clientId?: string;
  clientSecret?: string;
  /** The api-key of the organisation's registered webhook (spec 5.4). */
  webhookApiKey?: string;
  /** The organisation's registered webhook URL, used by checkouts that name none (not part of docs/control-api.md: a reference-only addition). */
  webhookUrl?: string;
  /** Consent and authorize links open a page with an Approve button (id "approve") instead of granting on a plain GET. */
  interactiveConsent?: boolean;
  /** Access token, refresh token and consent lifetimes in spec seconds (default: the spec's shown 3600 and 7200, consent 3600). */
  lifetimes?: Partial<Lifetimes>;
  /** The API version to serve (spec 9): its operations under its names, nothing newer. Default the latest. */
  apiVersion?: ApiVersion;
}

export interface Reference {
  /** {auth_url}: the token endpoint is `${authUrl}/auth/realms/${realm}/protocol/openid-connect/token`. */
  authUrl: string;
  realm: string;
  tokenUrl: string;
  /** {base_url} of the API. */
  baseUrl: string;
  controlUrl: string;
  clientId: string;
  clientSecret: string;
  timeScale: number;
  lifetimes: Lifetimes;
  apiVersion: ApiVersion;
  /** The names that were switched on. */
  faults: string[];
  clock: Clock;
  attempts(): ReferenceAttempt[];
  events(): EventRecord[];
  /** Resolves once every event of the checkout (of all checkouts, without an id) was delivered or dropped. */
  settled(checkoutId?: string): Promise<void>;
  /**
   * Every catalog name (switched on or not) the token endpoint and the API asked
   * about while serving: a name never asked about cannot have changed an answer
   * they gave. The control API and the dispatcher are not counted (see events()).
   */
  faultsRead(): string[];
  close(): Promise<void>;
}

export async function startReference(options: ReferenceOptions = {}): Promise<Reference> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const realm = options.realm ?? 'pis';
  const clientId = options.clientId ?? 'demo-client';
  const clientSecret = options.clientSecret ?? 'demo-secret';
  const apiVersion = options.apiVersion ?? LATEST_API_VERSION;
  const faults = resolveFaults(options.faults ?? [], apiVersion);
  const read = new Set<string>();
  const apiFaults = recordingReads(faults, read);
  const clock = realClock(options.timeScale ?? 1);

  const lifetimes: Lifetimes = { ...SHOWN_LIFETIMES, ...options.lifetimes };
  const tokens = new TokenStore(clock, apiFaults, lifetimes);
  const ctx: ApiContext = {
    version: apiVersion, clock, faults: apiFaults, tokens,
    sessions: new SessionStore(clock, apiFaults, lifetimes.consentS),
    payments: new PaymentStore(clock),
    tickets: new TicketStore(),
    interactiveConsent: options.interactiveConsent ?? false,
    fallbackOrigin: '',
  };
  const defaultWebhook = options.webhookUrl ? { url: options.webhookUrl, apiKey: options.webhookApiKey ?? 'demo-webhook-key' } : undefined;
  const control = createControl({ clock, faults, defaultWebhook });
  const server = createReferenceServer({
    realm, ctx, control,
    token: createTokenEndpoint({ clientId, clientSecret, tokens, faults: apiFaults }),
    api: createApi(ctx),
  });
  // Idle keep-alive sockets stay open longer than any client keeps them (undici: 4 s), so the
  // client always closes first: when a busy event loop fires both timers late, a server-side
  // close could otherwise race a request already written on the socket ("other side closed").
  // close() ends them all at once, so the long timeout never holds a shutdown up.
  server.keepAliveTimeout = 65_000;

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => { server.off('error', reject); resolve(); });
    });
  } catch (e) {
    await control.close();
    throw listenError(e, 'reference implementation', host, port);
  }
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const origin = `http://${urlHost}:${bound}`;
  ctx.fallbackOrigin = origin;

  let closing: Promise<void> | undefined;
  return {
    authUrl: origin, realm, tokenUrl: `${origin}/auth/realms/${encodeURIComponent(realm)}/protocol/openid-connect/token`,
    baseUrl: `${origin}/api`, controlUrl: `${origin}/control`,
    clientId, clientSecret, timeScale: clock.scale, lifetimes, apiVersion, faults: [...faults], clock,
    attempts: () => control.attempts(),
    events: () => control.events(),
    settled: id => control.settled(id),
    faultsRead: () => [...read].sort(),
    close() {
      closing ??= (async () => {
        await control.close();
        await new Promise<void>(resolve => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
