// Sessions and their consent (spec 4.4: "Consent for account and payment calls
// is stored per session"). A session starts without consent; the consent page
// grants it; it lasts CONSENT_LIFETIME_S spec seconds; DELETE ends the session.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';

/**
 * How long a consent stays valid. The spec does not say; one hour (like the
 * access token) is this reference's choice so that a suite on a compressed
 * clock can watch a consent expire (36 real seconds at --time-scale 0.01).
 */
export const CONSENT_LIFETIME_S = 3600;

export type ConsentStatus = 'PENDING' | 'VALID' | 'EXPIRED';

export interface Session {
  id: string;
  bankId: string;
  createdAtMs: number;
  createdAt: string;
  consentGivenAtMs?: number;
  deleted: boolean;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly clock: Clock, private readonly faults: ReadonlySet<string>) {}

  create(bankId: string): Session {
    const s: Session = { id: randomUUID(), bankId, createdAtMs: this.clock.now(), createdAt: this.clock.date().toISOString(), deleted: false };
    this.sessions.set(s.id, s);
    return s;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  consentStatus(s: Session): ConsentStatus {
    if (s.consentGivenAtMs === undefined) return 'PENDING';
    return this.clock.now() - s.consentGivenAtMs >= CONSENT_LIFETIME_S * 1000 ? 'EXPIRED' : 'VALID';
  }

  /** The consent page calls this; a renewed consent restarts the lifetime. */
  grant(id: string): boolean {
    const s = this.sessions.get(id);
    if (!s || s.deleted) return false;
    s.consentGivenAtMs = this.clock.now();
    return true;
  }

  /** DELETE /session: ends the session and its consent (kept as a tombstone so later use answers the consent-link error). */
  delete(s: Session): void {
    // Fault session-delete-ignored: the answer says deleted, the session stays usable.
    if (this.faults.has('session-delete-ignored')) return;
    s.deleted = true;
  }
}
