// What every API handler gets: the reference's shared state (clock, faults,
// stores) and the parsed request. Handlers return an Answer or throw an
// ApiError; the router turns both into HTTP.
import type { IncomingMessage } from 'node:http';
import type { TokenStore } from '../auth/token-store.ts';
import type { Clock } from '../clock.ts';
import type { PaymentStore } from './payment-store.ts';
import type { SessionStore } from './session-store.ts';
import type { TicketStore } from './tickets.ts';
import type { ApiVersion } from '../../contracts/api-versions.ts';
import type { CatalogName } from '../catalog-names.ts';

export interface ApiContext {
  /** The API version the reference serves (spec 9; versions.ts says what each one has). */
  version: ApiVersion;
  clock: Clock;
  faults: ReadonlySet<CatalogName>;
  tokens: TokenStore;
  sessions: SessionStore;
  payments: PaymentStore;
  tickets: TicketStore;
  /** Bank-page links open the page with an Approve button instead of granting on GET (for browser-driven consent). */
  interactiveConsent: boolean;
  /** http://host:port of the server, for links when a request has no usable Host header. */
  fallbackOrigin: string;
}

export interface Call {
  req: IncomingMessage;
  ctx: ApiContext;
  /** http://host:port as the client reached it; `${origin}/api` is {base_url}. */
  origin: string;
  baseUrl: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body of POST requests ({} when empty). */
  body: Record<string, unknown>;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, status = 200): Answer => ({ status, body });

/** Quirk extra-fields: records carry fields the profile does not list; a suite must ignore them. */
export function withExtras<T extends object>(faults: ReadonlySet<CatalogName>, record: T, extras: Record<string, unknown>): T {
  return faults.has('extra-fields') ? { ...record, ...extras } : record;
}
