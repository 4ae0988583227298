// Sessions and consent (spec 4.4, 9 3.0.0): POST /session, GET and DELETE
// /session/{sessionId}, GET /consent/{sessionId}. The consent href leads to
// this server's bank page, which grants consent on a plain GET so the suites
// can run headless (bank-pages.ts).
import { findBank } from '../data/banks.ts';
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { consentRequired, invalidId, missingParameter } from './errors.ts';
import { consentHref, psuIp, redirectUrl } from './guards.ts';
import { header } from './http.ts';
import type { Session } from './session-store.ts';

const SCOPES = new Set(['accounts', 'payments']);

export function createSession(call: Call): Answer {
  const bankId = call.body.bankId;
  if (typeof bankId !== 'string' || !bankId) throw missingParameter('bankId');
  if (!findBank(bankId)) throw invalidId('bank', bankId);
  const s = call.ctx.sessions.create(bankId);
  return ok(withExtras(call.ctx.faults, { sessionId: s.id }, { createdAt: s.createdAt }), 201);
}

/** The session named by the path, or by x-session-id for GET/DELETE /session without an id. */
function namedSession(call: Call): { id: string; session?: Session } {
  const id = call.params.sessionId ?? header(call.req, 'x-session-id');
  if (!id) throw missingParameter('sessionId', 'is required in the path or the x-session-id header');
  return { id, session: call.ctx.sessions.get(id) };
}

/** Later use of a deleted (or unknown) session answers the consent-link error (docs/profile.md). */
function liveSession(call: Call): Session {
  const { id, session } = namedSession(call);
  if (!session || session.deleted)
    throw consentRequired(id, consentHref(call, id), session ? 'the session was deleted' : 'the session is not known or has expired');
  return session;
}

export function sessionStatus(call: Call): Answer {
  const s = liveSession(call);
  const bank = findBank(s.bankId)!;
  return ok(withExtras(call.ctx.faults,
    { bankId: s.bankId, bankName: bank.record.bankDisplayName, createdAt: s.createdAt, consentStatus: call.ctx.sessions.consentStatus(s) },
    { sessionId: s.id }));
}

export function deleteSession(call: Call): Answer {
  const s = liveSession(call);
  call.ctx.sessions.delete(s);
  return { status: 204 };
}

/**
 * GET /consent/{sessionId}?scope=accounts|payments: the consent request. A
 * deleted or unknown session cannot be consented to (it would loop back to
 * the consent-link error), so that is an invalid id.
 */
export function consentUrl(call: Call): Answer {
  const id = call.params.sessionId;
  const session = call.ctx.sessions.get(id);
  if (!session || session.deleted) throw invalidId('session', id);
  const scope = call.query.get('scope') ?? 'accounts';
  if (!SCOPES.has(scope)) throw missingParameter('scope', "must be 'accounts' or 'payments'");
  // Spec 4.4: x-psu-ip-address is required for Swedish banks and one Norwegian bank.
  psuIp(call, findBank(session.bankId)!.behaviour.psuIpRequired);
  const ticket = call.ctx.tickets.issue({ kind: 'consent', sessionId: id, scope, redirectUrl: redirectUrl(call) });
  return ok(withExtras(call.ctx.faults,
    { message: 'Open the consent link in a browser to give consent', links: [{ type: 'GET', rel: 'consent', href: call.ctx.tickets.href(call.origin, 'consent', ticket, call.ctx.interactiveConsent) }] },
    { scope }));
}
