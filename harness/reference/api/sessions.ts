// Sessions and consent (spec 4.4, 9 3.0.0): POST /session, GET and DELETE
// /session/{sessionId}, GET /consent/{sessionId}. The consent href leads to
// this server's bank page, which grants consent on a plain GET so the suites
// can run headless (bank-pages.ts). Before 3.0.0 there are no sessions: a
// consent stands alone (docs/profile.md, API versions). POST /consent starts
// one at a bank, or with its id in x-consent-id asks for its consent URL
// again; GET and DELETE /consent/{consentId} (2.0.0) read and end it. The
// store keeps such a consent as a session record.
import { findBank } from '../data/banks.ts';
import { ok, withExtras, type Answer, type Call } from './context.ts';
import { consentRequired, invalidId, missingParameter } from './errors.ts';
import { consentHref, psuIp, redirectUrl, sessionHeader } from './guards.ts';
import { header } from './http.ts';
import type { Session } from './session-store.ts';
import { has } from './versions.ts';
import { methodNotAllowed } from './errors.ts';

const SCOPES = new Set(['accounts', 'payments']);

export function createSession(call: Call): Answer {
  const bankId = call.body.bankId;
  if (typeof bankId !== 'string' || !bankId) throw missingParameter('bankId');
  if (!findBank(bankId)) throw invalidId('bank', bankId);
  const s = call.ctx.sessions.create(bankId);
  return ok(withExtras(call.ctx.faults, { sessionId: s.id }, { createdAt: s.createdAt }), 201);
}

/** The session named by the path, or by x-session-id (x-consent-id before 3.0.0) without an id in the path. */
function namedSession(call: Call): { id: string; session?: Session } {
  const name = sessionHeader(call);
  const id = call.params.sessionId ?? header(call.req, name);
  if (!id) throw missingParameter(has(call.ctx, 'sessions') ? 'sessionId' : 'consentId', `is required in the path or the ${name} header`);
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
  const { faults } = call.ctx;
  const { id, session } = namedSession(call);
  // Fault session-status-unknown-answered: an unknown session id is answered a status, as if it were a new session.
  if (!session && faults.has('session-status-unknown-answered'))
    return ok({ bankId: '', bankName: '', createdAt: call.ctx.clock.date().toISOString(), consentStatus: 'PENDING' });
  // Fault session-status-deleted-valid: a deleted session is answered the status it had before the delete.
  const s = session?.deleted && faults.has('session-status-deleted-valid') ? session : liveSession(call);
  const bank = findBank(s.bankId)!;
  // Fault session-status-stays-pending: the status says PENDING whatever the consent.
  const status = faults.has('session-status-stays-pending') ? 'PENDING' : s.deleted ? 'VALID' : call.ctx.sessions.consentStatus(s);
  // Fault session-status-expired-valid: an expired consent is still answered VALID (the API refuses the session all the same).
  const shown = status === 'EXPIRED' && faults.has('session-status-expired-valid') ? 'VALID' : status;
  return ok(withExtras(faults,
    { bankId: s.bankId, bankName: bank.record.bankDisplayName, createdAt: s.createdAt, consentStatus: shown },
    { sessionId: id }));
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
  const { id, session } = namedSession(call);
  if (!session || session.deleted) throw invalidId(has(call.ctx, 'sessions') ? 'session' : 'consent', id);
  const scope = call.query.get('scope') ?? (typeof call.body.scope === 'string' ? call.body.scope : 'accounts');
  if (!SCOPES.has(scope)) throw missingParameter('scope', "must be 'accounts' or 'payments'");
  // Spec 4.4: x-psu-ip-address is required for Swedish banks and one Norwegian bank (on GET /consent from 3.2.0).
  if (has(call.ctx, 'consent-psu-ip-address')) psuIp(call, findBank(session.bankId)!.behaviour.psuIpRequired);
  const ticket = call.ctx.tickets.issue({ kind: 'consent', sessionId: id, scope, redirectUrl: redirectUrl(call) });
  return ok(withExtras(call.ctx.faults, {
    ...(has(call.ctx, 'sessions') ? {} : { consentId: id }),
    message: 'Open the consent link in a browser to give consent',
    links: [{ type: 'GET', rel: 'consent', href: call.ctx.tickets.href(call.origin, 'consent', ticket, call.ctx.interactiveConsent) }],
  }, { scope }));
}

/**
 * POST /consent before 3.0.0: {"bankId", "scope"} starts a consent at the bank
 * and answers its consentId with the consent URL; with x-consent-id it asks
 * for the URL of that consent again (after it expired).
 */
export function startConsent(call: Call): Answer {
  if (header(call.req, sessionHeader(call))) {
    // Fault renamed-consent-url: the consent URL is served only as GET /consent/{id}, its 3.0.0 name.
    if (call.ctx.faults.has('renamed-consent-url')) throw methodNotAllowed('POST', '/consent (with a consent id)', ['GET /consent/{consentId}']);
    return consentUrl(call);
  }
  const bankId = call.body.bankId;
  if (typeof bankId !== 'string' || !bankId) throw missingParameter('bankId');
  if (!findBank(bankId)) throw invalidId('bank', bankId);
  const s = call.ctx.sessions.create(bankId);
  const answer = consentUrl({ ...call, params: { ...call.params, sessionId: s.id } });
  return { ...answer, status: 201 };
}
