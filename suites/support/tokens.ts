// The token endpoint (spec 4.1, 4.2) as the suites use it: raw form posts for
// the token checks, and one shared access token per worker for every other
// call, renewed before it runs out (a compressed clock makes lifetimes short).
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { fillPath, joinUrl } from '../../harness/config/profile.ts';
import { Prerequisite, send, type CheckContext } from './check.ts';
import { registerTokens, target } from './target.ts';
import { realMs } from './waits.ts';
import { perPart } from './part.ts';

function tokenUrl(): string {
  const t = target();
  return joinUrl(t.authUrl, fillPath(t.paths.token, { realm: t.realm }));
}

/** POSTs a form to the token endpoint; any tokens in the answer are registered with the redactor at once. */
export async function tokenRequest(c: CheckContext | null, form: Record<string, string>, label?: string): Promise<ExchangeResponse> {
  const res = await send(c, { method: 'POST', url: tokenUrl(), body: new URLSearchParams(form), headers: { accept: 'application/json' }, label });
  const j = res.json as Record<string, unknown> | undefined;
  registerTokens(j?.access_token, j?.refresh_token);
  return res;
}

export const clientCredentials = () => {
  const t = target();
  return { grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret };
};

export const refreshForm = (refreshToken: string) => {
  const t = target();
  return { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: t.clientId, client_secret: t.clientSecret };
};

/** The worker's shared token: when its grant was sent (performance.now()) and the lifetime it stated (spec s; undefined when none). */
export interface SharedToken { token: string; sentAt: number; lifeS?: number; renewAt: number }

const shared = perPart(() => ({ value: undefined as SharedToken | undefined }));

/** The worker's access token for API calls; renewed once 70 % of its real lifetime has passed, or when `renew`. */
export async function sharedToken(renew = false): Promise<SharedToken> {
  const kept = shared().value;
  if (!renew && kept && performance.now() < kept.renewAt) return kept;
  const sentAt = performance.now();
  const res = await tokenRequest(null, clientCredentials());
  const j = res.json as Record<string, unknown> | undefined;
  if (res.status !== 200 || typeof j?.access_token !== 'string')
    throw new Prerequisite(`no access token: the token endpoint answered ${res.status} (see the token checks)`);
  const lifeS = lifetimeOf(j);
  return shared().value = { token: j.access_token, sentAt, lifeS, renewAt: performance.now() + realMs(lifeS ?? 60) * 0.7 };
}

/**
 * Whether a refusal of the shared token read at `doneAt` came before the end
 * its expires_in stated, less a spec second of rounding: then the target
 * refused a live token (token.use.until-expires-in judges that on its own token).
 */
export function refusedEarly(t: Pick<SharedToken, 'sentAt' | 'lifeS'>, doneAt: number): boolean {
  return t.lifeS !== undefined && doneAt < t.sentAt + realMs(t.lifeS - 1);
}

/** A token answer's expires_in, when it is a positive number. */
export function lifetimeOf(body: unknown): number | undefined {
  const e = body && typeof body === 'object' ? (body as Record<string, unknown>).expires_in : undefined;
  return typeof e === 'number' && e > 0 ? e : undefined;
}

/** What to do when a call outlasted its token's lifetime: give the calls time. */
export const SLOW_CALL_REMEDY = 'run with a larger --time-scale, or on a less busy machine, so that a call ends within the token\'s lifetime';
