// Sessions and their consent (spec 4.4: "Consent for account and payment calls
// is stored per session"). A session starts without consent; the consent page
// grants it; it lasts the consent lifetime (lifetimes.ts: the spec does not say
// how long; one hour unless the reference is told otherwise), after which the
// session is expired (spec 4.4, 7); DELETE ends the session.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { SHOWN_LIFETIMES } from '../lifetimes.ts';
import { findBank } from '../data/banks.ts';
import type { CatalogName } from '../catalog-names.ts';

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

  constructor(private readonly clock: Clock, private readonly faults: ReadonlySet<CatalogName>,
    private readonly consentS: number = SHOWN_LIFETIMES.consentS) {}

  create(bankId: string): Session {
    const s: Session = { id: randomUUID(), bankId, createdAtMs: this.clock.now(), createdAt: this.clock.date().toISOString(), deleted: false };
    this.sessions.set(s.id, s);
    return s;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  consentStatus(s: Session): ConsentStatus {
    if (s.consentGivenAtMs === undefined) {
      // Fault session-consent-per-bank: consent given to any live session of the bank opens this one too.
      // Only a consent given to that session counts (never one it borrowed: two sessions without consent
      // would ask each other for ever).
      // Fault session-consent-per-bank-dk: the same at Danish banks only.
      const perBank = this.faults.has('session-consent-per-bank')
        || (this.faults.has('session-consent-per-bank-dk') && findBank(s.bankId)?.record.countryCode === 'DK');
      const shared = perBank
        && [...this.sessions.values()].some(o => o !== s && !o.deleted && o.bankId === s.bankId && this.ownConsent(o) === 'VALID');
      return shared ? 'VALID' : 'PENDING';
    }
    return this.ownConsent(s);
  }

  /** The status of the consent given to `s` itself. */
  private ownConsent(s: Session): ConsentStatus {
    if (s.consentGivenAtMs === undefined) return 'PENDING';
    // Fault session-no-expiry: a consent never expires.
    if (this.faults.has('session-no-expiry')) return 'VALID';
    return this.clock.now() - s.consentGivenAtMs >= this.consentS * 1000 ? 'EXPIRED' : 'VALID';
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
    // Fault session-delete-ends-bank: every other session at the bank ends too.
    if (this.faults.has('session-delete-ends-bank')) for (const o of this.sessions.values()) if (o.bankId === s.bankId) o.deleted = true;
  }
}
