// What the token checks share: a fresh token pair from the endpoint, and one
// API call to see whether the API takes a given token.
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { call, obj } from '../../support/api.ts';
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { clientCredentials, tokenRequest } from '../../support/tokens.ts';
import { target } from '../../support/target.ts';

export type TokenBody = Record<string, unknown>;

/** A client-credentials answer (spec 4.1), recorded as evidence. */
export async function issue(c: CheckContext, label = 'client credentials grant'): Promise<{ res: ExchangeResponse; body: TokenBody }> {
  const res = await tokenRequest(c, clientCredentials(), label);
  return { res, body: obj(res) ?? {} };
}

/** A client-credentials answer that has what the check builds on; otherwise the check is skipped (token.issue reports why). */
export async function issuePair(c: CheckContext, needRefresh = true): Promise<{ res: ExchangeResponse; body: TokenBody; access: string; refresh: string }> {
  const { res, body } = await issue(c);
  if (res.status !== 200 || typeof body.access_token !== 'string' || !body.access_token)
    throw new Prerequisite(`the client credentials grant answered ${res.status} without an access_token (see token.issue)`);
  if (needRefresh && (typeof body.refresh_token !== 'string' || !body.refresh_token))
    throw new Prerequisite('the client credentials answer has no refresh_token (see token.issue.refresh-token)');
  return { res, body, access: body.access_token, refresh: String(body.refresh_token ?? '') };
}

/**
 * The token suite runs against an auth server alone (`--suites token` with only
 * --auth-url, e.g. a Keycloak realm): the checks that need the API say so and skip.
 */
export function requireApi(c: CheckContext, what: string): void {
  if (!target().baseUrl) c.skip(`not checked: ${what} needs the API, and no --base-url (or PIS_BASE_URL) was given`, 'give --base-url');
}

/** The API operation the token checks call: the bank list, which needs a token but no session. */
export function probeApi(c: CheckContext, token: string | null, label: string): Promise<ExchangeResponse> {
  requireApi(c, 'this check');
  return call(c, 'GET', 'banks', {}, { token, label });
}

/** The fields of an answer that carry tokens (never allowed in an error answer). */
export function tokenFields(body: unknown): string[] {
  const b = body && typeof body === 'object' ? body as Record<string, unknown> : {};
  return ['access_token', 'refresh_token', 'id_token'].filter(k => b[k] !== undefined && b[k] !== null && b[k] !== '');
}

export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
