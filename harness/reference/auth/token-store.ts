// Access and refresh tokens with lifetimes on the reference clock (spec 2.1,
// 4.2, 8): access 3600 and refresh 7200 spec seconds; a refresh renews both and
// restarts both lifetimes. The token faults that change lifetimes or renewal
// live here, each behind its catalog name.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';

export const ACCESS_LIFETIME_S = 3600;
export const REFRESH_LIFETIME_S = 7200;

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires, as the answer states it. */
  expiresIn: number;
  refreshExpiresIn: number;
  sessionState: string;
}

interface AccessRecord { clientId: string; expiresAtMs: number }
interface RefreshRecord {
  clientId: string;
  expiresAtMs: number;
  used: boolean;
  accessToken: string;
  accessExpiresAtMs: number;
  sessionState: string;
}

export type AccessCheck = { ok: true; clientId: string } | { ok: false; why: 'unknown' | 'expired' };
export type RefreshResult = { ok: true; tokens: IssuedTokens } | { ok: false; why: string };

/** Opaque tokens: 32 random bytes; nothing about them is meant to be parsed. */
const newToken = () => randomBytes(32).toString('base64url');

export class TokenStore {
  private readonly access = new Map<string, AccessRecord>();
  private readonly refresh = new Map<string, RefreshRecord>();
  private issuedSincePrune = 0;

  constructor(private readonly clock: Clock, private readonly faults: ReadonlySet<string>) {}

  /** Client credentials grant (spec 4.1): a fresh pair with full lifetimes. */
  issue(clientId: string): IssuedTokens {
    const now = this.clock.now();
    return this.store(now, clientId, newToken(), now + ACCESS_LIFETIME_S * 1000, now + REFRESH_LIFETIME_S * 1000, randomUUID());
  }

  /** Refresh token grant (spec 4.2). */
  exchange(refreshToken: string, clientId: string): RefreshResult {
    const now = this.clock.now();
    const rec = this.refresh.get(refreshToken);
    if (!rec) return { ok: false, why: 'refresh token is not known' };
    if (rec.clientId !== clientId) return { ok: false, why: 'refresh token was issued to another client' };
    if (now >= rec.expiresAtMs) return { ok: false, why: 'refresh token has expired' };
    // profile.md: reuse after an exchange may be allowed or refused; refused unless the quirk says otherwise.
    if (rec.used && !this.faults.has('token-refresh-reusable')) return { ok: false, why: 'refresh token was already used' };
    rec.used = true;
    // Fault token-refresh-no-reset: the new pair inherits the first pair's expiry times.
    const noReset = this.faults.has('token-refresh-no-reset');
    const accessExp = noReset ? rec.accessExpiresAtMs : now + ACCESS_LIFETIME_S * 1000;
    const refreshExp = noReset ? rec.expiresAtMs : now + REFRESH_LIFETIME_S * 1000;
    // Fault token-refresh-same-access: the old access token string comes back (with the new lifetime).
    const access = this.faults.has('token-refresh-same-access') ? rec.accessToken : newToken();
    return { ok: true, tokens: this.store(now, clientId, access, accessExp, refreshExp, rec.sessionState) };
  }

  /** Whether an access token may call the API now. */
  check(accessToken: string): AccessCheck {
    const rec = this.access.get(accessToken);
    if (!rec) return { ok: false, why: 'unknown' };
    // Fault token-no-expiry: expired access tokens are still accepted.
    if (this.clock.now() >= rec.expiresAtMs && !this.faults.has('token-no-expiry')) return { ok: false, why: 'expired' };
    return { ok: true, clientId: rec.clientId };
  }

  /** `now` is the moment the grant was decided: the lifetimes in the answer count from it, not from a later clock read. */
  private store(now: number, clientId: string, accessToken: string, accessExp: number, refreshExp: number, sessionState: string): IssuedTokens {
    if (++this.issuedSincePrune >= 200) this.prune();
    const refreshToken = newToken();
    this.access.set(accessToken, { clientId, expiresAtMs: accessExp });
    this.refresh.set(refreshToken, { clientId, expiresAtMs: refreshExp, used: false, accessToken, accessExpiresAtMs: accessExp, sessionState });
    // Rounded up so a fresh answer says exactly 3600 and 7200, never 3599.
    const secs = (t: number) => Math.max(0, Math.ceil((t - now) / 1000 - 1e-9));
    return { accessToken, refreshToken, expiresIn: secs(accessExp), refreshExpiresIn: secs(refreshExp), sessionState };
  }

  /**
   * Forgets tokens that can never be accepted again, so a long serve-reference
   * run does not grow without bound. An expired access token is kept under
   * token-no-expiry, where it stays usable.
   */
  private prune(): void {
    this.issuedSincePrune = 0;
    const now = this.clock.now();
    for (const [t, r] of this.refresh) if (now >= r.expiresAtMs) this.refresh.delete(t);
    if (this.faults.has('token-no-expiry')) return;
    for (const [t, r] of this.access) if (now >= r.expiresAtMs) this.access.delete(t);
  }
}
