// Before Playwright starts: can the target be reached, and does it take the
// client credentials? A no here is a harness error (exit 2, one sentence that
// names the fix) within seconds, never a page of failed checks.
import { Agent } from 'undici';
import { exchange } from '../http/exchange.ts';
import { HarnessError, unreachableError } from '../errors.ts';
import { Redactor } from '../report/redact.ts';
import type { TargetConfig } from './config.ts';
import { fillPath, joinUrl } from './profile.ts';

/** Each pre-flight call gives up after this long (arbitrary: three calls stay under the 10 s promised for a harness error). */
const CALL_TIMEOUT_MS = 3000;

export async function preflight(cfg: TargetConfig, redactor: Redactor): Promise<void> {
  const dispatcher = new Agent({ connect: { timeout: CALL_TIMEOUT_MS }, headersTimeout: CALL_TIMEOUT_MS, bodyTimeout: CALL_TIMEOUT_MS });
  try {
    const tokenUrl = joinUrl(cfg.authUrl, fillPath(cfg.paths.token, { realm: cfg.realm }));
    const tok = await exchange({
      method: 'POST', url: tokenUrl, dispatcher, timeoutMs: CALL_TIMEOUT_MS,
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: cfg.clientId, client_secret: cfg.clientSecret }),
    }, redactor);
    if (!tok.response) throw unreachableError(tok.error, 'token endpoint', tokenUrl);
    const { status, json } = tok.response;
    const error = (json as { error?: unknown } | undefined)?.error;
    if (status === 404 || status === 405)
      throw new HarnessError('PIS_BAD_CONFIG', `The token endpoint ${tokenUrl} answered ${status}: check --auth-url and --realm (and paths.token in the config file).`);
    if (status === 401 || status === 403 || (status === 400 && (error === 'invalid_client' || error === 'unauthorized_client')))
      throw new HarnessError('PIS_AUTH_REJECTED', `The target refused the client credentials (${status}${typeof error === 'string' ? ' ' + error : ''}): check --client-id and --client-secret (or PIS_CLIENT_ID and PIS_CLIENT_SECRET).`);
    const access = (json as { access_token?: unknown } | undefined)?.access_token;
    if (typeof access === 'string') redactor.add(access, 'PIS_ACCESS_TOKEN');
    // Any answer from the API will do: the suites judge it; here it only has to be there.
    // No base URL: only suites that never call the API were chosen (config.ts requireBaseUrl).
    if (cfg.baseUrl) {
      const banks = joinUrl(cfg.baseUrl, fillPath(cfg.paths.banks, {}));
      const api = await exchange({ method: 'GET', url: banks, dispatcher, timeoutMs: CALL_TIMEOUT_MS,
        headers: typeof access === 'string' ? { authorization: `${cfg.headers.authScheme} ${access}` } : {} }, redactor);
      if (!api.response) throw unreachableError(api.error, 'API (--base-url)', cfg.baseUrl);
    }
    if (cfg.controlUrl) {
      const health = joinUrl(cfg.controlUrl, '/health');
      const ctl = await exchange({ method: 'GET', url: health, dispatcher, timeoutMs: CALL_TIMEOUT_MS }, redactor);
      if (!ctl.response) throw unreachableError(ctl.error, 'control API (--control-url)', cfg.controlUrl);
    }
  } finally {
    await dispatcher.close();
  }
}
