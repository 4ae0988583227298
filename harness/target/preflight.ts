// Before Playwright starts: can the target be reached, does it take the
// client credentials, and does its control API name a time scale? A no here is
// a harness error (exit 2, one sentence that names the fix) within seconds,
// never a page of failed checks.
import { Agent } from 'undici';
import { DeadlineError, exchange, type Exchange } from '../http/exchange.ts';
import { describeBody } from '../http/body.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import { HarnessError, unreachableError } from '../errors.ts';
import { Redactor } from '../report/redact.ts';
import type { TargetConfig } from './config.ts';
import { fillPath, joinUrl } from './profile.ts';

/** Each pre-flight call gives up after this long in all, body included (arbitrary: three calls stay under the 10 s promised for a harness error). */
const CALL_TIMEOUT_MS = 3000;

export interface PreflightFindings {
  /** The time scale the control API's /health answered, when it answered one. */
  controlTimeScale?: number;
  /** The access token the token endpoint issued (for `--api-version detect`'s probes). */
  accessToken?: string;
}

/** The harness error for a call that got no complete answer. */
function noAnswer(ex: Exchange, what: string, url: string): HarnessError {
  const shown = redactUrlUserinfo(url);
  if (ex.error instanceof DeadlineError)
    return new HarnessError('PIS_UNREACHABLE', `The ${what} at ${shown} gave ${ex.error.message}: ` +
      'a target answers such a call at once; check the URL and that it points at the right server.');
  return unreachableError(ex.error, what, shown);
}

export async function preflight(cfg: TargetConfig, redactor: Redactor): Promise<PreflightFindings> {
  // The token endpoint's own words in a sentence: cut short, and never a secret it echoes (raw or encoded).
  const shown = (s: string) => redactor.text(s.length > 80 ? `${s.slice(0, 79)}…` : s);
  const dispatcher = new Agent({ connect: { timeout: CALL_TIMEOUT_MS }, headersTimeout: CALL_TIMEOUT_MS, bodyTimeout: CALL_TIMEOUT_MS });
  const findings: PreflightFindings = {};
  try {
    const tokenUrl = joinUrl(cfg.authUrl, fillPath(cfg.paths.token, { realm: cfg.realm }));
    const shownTokenUrl = redactUrlUserinfo(tokenUrl);
    const tok = await exchange({
      method: 'POST', url: tokenUrl, dispatcher, timeoutMs: CALL_TIMEOUT_MS, deadlineMs: CALL_TIMEOUT_MS,
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: cfg.clientId, client_secret: cfg.clientSecret }),
    }, redactor);
    if (!tok.response) throw noAnswer(tok, 'token endpoint', tokenUrl);
    const { status, json, headers, body } = tok.response;
    const error = (json as { error?: unknown } | undefined)?.error;
    if (status === 404 || status === 405)
      throw new HarnessError('PIS_BAD_CONFIG',
        `The token endpoint ${shownTokenUrl} answered ${status}: check --auth-url and --realm (and paths.token in the config file).`);
    if (status === 401 || status === 403 || (status === 400 && (error === 'invalid_client' || error === 'unauthorized_client')))
      throw new HarnessError('PIS_AUTH_REJECTED',
        `The target refused the client credentials (${status}${typeof error === 'string' ? ' ' + shown(error) : ''}): ` +
        'check --client-id and --client-secret (or PIS_CLIENT_ID and PIS_CLIENT_SECRET).');
    // Spec 4.1: the token endpoint answers JSON. A 2xx page of HTML is some
    // other server (a login page, a proxy's portal): judging it would be a page of failures.
    if (status >= 200 && status < 300 && json === undefined) {
      const type = headers['content-type'] ? `${headers['content-type'].split(';')[0]!.trim()}, ` : '';
      throw new HarnessError('PIS_BAD_CONFIG', `The token endpoint ${shownTokenUrl} answered ${status} with ${type}${describeBody(body)} that is not JSON, ` +
        'so it is not a token endpoint: check --auth-url and --realm (and paths.token in the config file).');
    }
    const access = (json as { access_token?: unknown } | undefined)?.access_token;
    if (typeof access === 'string') {
      redactor.add(access, 'PIS_ACCESS_TOKEN');
      findings.accessToken = access;
    }
    // Any answer from the API will do: the suites judge it; here it only has to be there.
    // No base URL: only suites that never call the API were chosen (config.ts requireBaseUrl).
    if (cfg.baseUrl) {
      const banks = joinUrl(cfg.baseUrl, fillPath(cfg.paths.banks, {}));
      const api = await exchange({ method: 'GET', url: banks, dispatcher, timeoutMs: CALL_TIMEOUT_MS, deadlineMs: CALL_TIMEOUT_MS,
        headers: typeof access === 'string' ? { authorization: `${cfg.headers.authScheme} ${access}` } : {} }, redactor);
      if (!api.response) throw noAnswer(api, 'API (--base-url)', cfg.baseUrl);
    }
    if (cfg.controlUrl) {
      const health = joinUrl(cfg.controlUrl, '/health');
      const ctl = await exchange({ method: 'GET', url: health, dispatcher, timeoutMs: CALL_TIMEOUT_MS, deadlineMs: CALL_TIMEOUT_MS }, redactor);
      if (!ctl.response) throw noAnswer(ctl, 'control API (--control-url)', cfg.controlUrl);
      const scale = (ctl.response.json as { timeScale?: unknown } | undefined)?.timeScale;
      if (ctl.response.status === 200 && typeof scale === 'number' && Number.isFinite(scale) && scale > 0) findings.controlTimeScale = scale;
    }
    return findings;
  } finally {
    await dispatcher.close();
  }
}
