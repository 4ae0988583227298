// Checks that several operations share: the session-bound call with its
// consent-link error (spec 4.4, 7), and the optional headers x-psu-ip-address
// and x-redirect-url (spec 4.4, docs/profile.md codes 1004 and 1005).
import { isIP } from 'node:net';
import { findBank, type SeedBank } from '../data/banks.ts';
import type { Call } from './context.ts';
import { consentRequired, invalidPsuIp, invalidRedirect, missingHeader } from './errors.ts';
import { header } from './http.ts';
import type { Session } from './session-store.ts';
import { has } from './versions.ts';

/** The header a session-bound call names its session in; before 3.0.0 its consent (docs/profile.md, API versions). */
export function sessionHeader(call: Call): string {
  return has(call.ctx, 'sessions') ? 'x-session-id' : 'x-consent-id';
}

/** The consent-link error's href: absolute per docs/profile.md, relative under the session-consent-link-relative fault. */
export function consentHref(call: Call, sessionId: string): string {
  // Before 3.0.0 the consent request is POST /consent (with the consent's id in x-consent-id).
  const path = has(call.ctx, 'sessions') ? `/consent/${encodeURIComponent(sessionId)}` : '/consent';
  return call.ctx.faults.has('session-consent-link-relative') ? path : `${call.baseUrl}${path}`;
}

/**
 * Spec 4.4 and 7: "When a request to an account or payment endpoint uses a new
 * or expired session, the service returns a specific error carrying a link to
 * the consent request URL". Deleted and unknown sessions answer the same: a
 * service that forgets expired sessions cannot tell them from unknown ones.
 */
export function requireSession(call: Call, kind: 'accounts' | 'payment' | 'other' = 'other'): { session: Session; bank: SeedBank } {
  const name = sessionHeader(call);
  const id = header(call.req, name);
  if (!id) throw missingHeader(name);
  const { sessions, faults } = call.ctx;
  const session = sessions.get(id);
  const refuse = (why: string) => consentRequired(id, consentHref(call, id), why);
  if (!session) throw refuse('the session is not known or has expired; start consent for it');
  if (session.deleted) throw refuse('the session was deleted');
  const status = sessions.consentStatus(session);
  if (status === 'EXPIRED') throw refuse('the consent of this session has expired');
  // Fault session-no-consent-needed: a new session is served accounts (and only accounts) as if consent were given;
  // fault session-payments-no-consent-needed: the same for payment initiation (and only that).
  const skip = (kind === 'accounts' && faults.has('session-no-consent-needed'))
    || (kind === 'payment' && faults.has('session-payments-no-consent-needed'));
  if (status === 'PENDING' && !skip) throw refuse('no consent was given for this session yet');
  return { session, bank: findBank(session.bankId)! };
}

/** x-psu-ip-address is optional on account and payment endpoints, but must be an IP address when given (from 2.0.0; before, no such header). */
export function psuIp(call: Call, required: boolean): string | undefined {
  if (!has(call.ctx, 'psu-ip-address')) return undefined;
  const value = header(call.req, 'x-psu-ip-address');
  if (value === undefined || value === '') {
    if (required) throw missingHeader('x-psu-ip-address');
    return undefined;
  }
  if (!isIP(value.trim())) throw invalidPsuIp(value);
  return value;
}

/** x-redirect-url, when given, must be an absolute http(s) URL the bank page can send the browser to (from 2.0.0; before, no such header). */
export function redirectUrl(call: Call): string | undefined {
  if (!has(call.ctx, 'redirect-url')) return undefined;
  const value = header(call.req, 'x-redirect-url');
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try { url = new URL(value); } catch { throw invalidRedirect(value); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidRedirect(value);
  return url.href;
}
