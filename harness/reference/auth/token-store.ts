// Access and refresh tokens with lifetimes on the reference clock (spec 2.1,
// 4.2, 8): by default access 3600 and refresh 7200 spec seconds (lifetimes.ts);
// a refresh renews both and restarts both lifetimes. The token faults that
// change lifetimes or renewal live here, each behind its catalog name.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { SHOWN_LIFETIMES, type Lifetimes } from '../lifetimes.ts';
import type { CatalogName } from '../catalog-names.ts';
import { randomBase64url } from '../random.ts';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires, as the answer states it. */
  expiresIn: number;
  refreshExpiresIn: number;
  sessionState: string;
}

interface AccessRecord { clientId: string; issuedAtMs: number; expiresAtMs: number }
interface RefreshRecord {
  clientId: string;
  issuedAtMs: number;
  expiresAtMs: number;
  used: boolean;
  /** Issued by a refresh, not by the client credentials grant. */
  fromExchange: boolean;
  accessToken: string;
  accessExpiresAtMs: number;
  sessionState: string;
}

export type AccessCheck = { ok: true; clientId: string } | { ok: false; why: 'unknown' | 'expired' };
export type RefreshResult = { ok: true; tokens: IssuedTokens } | { ok: false; why: string };

/** Opaque tokens: 32 random bytes; nothing about them is meant to be parsed. */
const opaqueToken = () => randomBase64url(32);

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Quirk token-jwt: a JWT-shaped token (header, claims with a jti, a signature of random bytes the store knows). */
const jwtToken = (clientId: string) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ jti: randomUUID(), azp: clientId })}.${randomBase64url(32)}`;

/** The jti of a JWT-shaped token, or undefined. */
function jtiOf(token: string): string | undefined {
  try {
    const jti = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())?.jti;
    return typeof jti === 'string' ? jti : undefined;
  } catch { return undefined; }
}

/** Faults token-early-expiry and token-refresh-early-expiry: a token dies once this share of its stated lifetime has passed. */
const EARLY_SHARE = 0.5;

export class TokenStore {
  private readonly access = new Map<string, AccessRecord>();
  private readonly refresh = new Map<string, RefreshRecord>();
  /** The access token of each jti, under fault token-jwt-signature-unchecked. */
  private readonly byJti = new Map<string, string>();
  private issuedSincePrune = 0;

  constructor(private readonly clock: Clock, private readonly faults: ReadonlySet<CatalogName>,
    private readonly lifetimes: Pick<Lifetimes, 'accessS' | 'refreshS'> = SHOWN_LIFETIMES) {}

  /** A new token: opaque, or a JWT under quirk token-jwt (and fault token-jwt-signature-unchecked, which builds on it). */
  private newToken(clientId: string): string {
    if (!this.faults.has('token-jwt') && !this.faults.has('token-jwt-signature-unchecked')) return opaqueToken();
    const token = jwtToken(clientId);
    this.byJti.set(jtiOf(token)!, token);
    return token;
  }

  /** Client credentials grant (spec 4.1): a fresh pair with full lifetimes. */
  issue(clientId: string): IssuedTokens {
    const now = this.clock.now();
    return this.store(now, clientId, this.newToken(clientId), now + this.lifetimes.accessS * 1000, now + this.lifetimes.refreshS * 1000, randomUUID());
  }

  /** Refresh token grant (spec 4.2). */
  exchange(refreshToken: string, clientId: string): RefreshResult {
    const now = this.clock.now();
    const rec = this.refresh.get(refreshToken);
    if (!rec) return { ok: false, why: 'refresh token is not known' };
    if (rec.clientId !== clientId) return { ok: false, why: 'refresh token was issued to another client' };
    // Fault token-refresh-chain-no-expiry: a refresh token from a refresh answer never expires, and stays reusable (which the spec allows).
    const chainKept = rec.fromExchange && this.faults.has('token-refresh-chain-no-expiry');
    // Fault token-refresh-no-expiry: an expired refresh token is still exchanged.
    if (now >= rec.expiresAtMs && !chainKept && !this.faults.has('token-refresh-no-expiry')) return { ok: false, why: 'refresh token has expired' };
    if (this.faults.has('token-refresh-early-expiry') && now >= early(rec)) return { ok: false, why: 'refresh token has expired' };
    // docs/profile.md: reuse after an exchange may be allowed or refused; refused unless the quirk says otherwise.
    if (rec.used && !chainKept && !this.faults.has('token-refresh-reusable')) return { ok: false, why: 'refresh token was already used' };
    rec.used = true;
    // Fault token-refresh-no-reset: the new pair inherits the first pair's expiry times.
    const noReset = this.faults.has('token-refresh-no-reset');
    const accessExp = noReset ? rec.accessExpiresAtMs : now + this.lifetimes.accessS * 1000;
    const refreshExp = noReset ? rec.expiresAtMs : now + this.lifetimes.refreshS * 1000;
    // Fault token-refresh-same-access: the old access token string comes back (with the new lifetime).
    const access = this.faults.has('token-refresh-same-access') ? rec.accessToken : this.newToken(clientId);
    // Fault token-refresh-chain-old-schedule: from the second exchange of a chain on, the new refresh token dies when the
    // exchanged one would have, while the answer states a full refresh_expires_in.
    const kept = rec.fromExchange && this.faults.has('token-refresh-chain-old-schedule') ? rec.expiresAtMs : undefined;
    const tokens = this.store(now, clientId, access, accessExp, refreshExp, rec.sessionState, true, kept);
    // Fault token-refresh-not-renewable: the refresh token of a refresh answer is never stored, so it cannot be exchanged again.
    if (this.faults.has('token-refresh-not-renewable')) this.refresh.delete(tokens.refreshToken);
    return { ok: true, tokens };
  }

  /** Whether an access token may call the API now. */
  check(accessToken: string): AccessCheck {
    // Fault token-jwt-signature-unchecked: a JWT is looked up by the jti of its claims, whatever else they say and whatever its signature.
    const jti = this.faults.has('token-jwt-signature-unchecked') ? jtiOf(accessToken) : undefined;
    const rec = this.access.get(jti !== undefined ? this.byJti.get(jti) ?? accessToken : accessToken);
    if (!rec) return { ok: false, why: 'unknown' };
    const now = this.clock.now();
    // Fault token-no-expiry: expired access tokens are still accepted.
    if (now >= rec.expiresAtMs && !this.faults.has('token-no-expiry')) return { ok: false, why: 'expired' };
    // Fault token-early-expiry: refused well before the expires_in the answer stated.
    if (this.faults.has('token-early-expiry') && now >= early(rec)) return { ok: false, why: 'expired' };
    return { ok: true, clientId: rec.clientId };
  }

  /** `now` is the moment the grant was decided: the lifetimes in the answer count from it, not from a later clock read. */
  private store(now: number, clientId: string, accessToken: string, accessExp: number, refreshExp: number, sessionState: string,
    fromExchange = false, keptRefreshExp = refreshExp): IssuedTokens {
    if (++this.issuedSincePrune >= 200) this.prune();
    const refreshToken = this.newToken(clientId);
    this.access.set(accessToken, { clientId, issuedAtMs: now, expiresAtMs: accessExp });
    this.refresh.set(refreshToken, {
      clientId, issuedAtMs: now, expiresAtMs: keptRefreshExp, used: false, fromExchange, accessToken, accessExpiresAtMs: accessExp, sessionState,
    });
    // Rounded up so a fresh answer states the whole lifetime (3600, never 3599).
    const secs = (t: number) => Math.max(0, Math.ceil((t - now) / 1000 - 1e-9));
    return { accessToken, refreshToken, expiresIn: secs(accessExp), refreshExpiresIn: secs(refreshExp), sessionState };
  }

  /**
   * Forgets tokens that can never be accepted again, so a long serve-reference
   * run does not grow without bound. Expired tokens are kept under the faults
   * that keep them usable.
   */
  private prune(): void {
    this.issuedSincePrune = 0;
    const now = this.clock.now();
    // Only JWT-shaped tokens have a jti: an opaque one would make jtiOf parse (and throw) for nothing.
    const forget = (map: Map<string, unknown>, t: string) => { map.delete(t); if (this.byJti.size) this.byJti.delete(jtiOf(t) ?? ''); };
    const kept = (r: { fromExchange?: boolean }) => !!r.fromExchange && this.faults.has('token-refresh-chain-no-expiry');
    if (!this.faults.has('token-refresh-no-expiry')) for (const [t, r] of this.refresh) if (now >= r.expiresAtMs && !kept(r)) forget(this.refresh, t);
    if (this.faults.has('token-no-expiry')) return;
    for (const [t, r] of this.access) if (now >= r.expiresAtMs) forget(this.access, t);
  }
}

/** When a token dies under the early-expiry faults: EARLY_SHARE of its lifetime after it was issued. */
const early = (r: { issuedAtMs: number; expiresAtMs: number }) => r.issuedAtMs + (r.expiresAtMs - r.issuedAtMs) * EARLY_SHARE;
