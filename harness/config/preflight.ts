// Before Playwright starts: can the target be reached, does it take the
// client credentials, and does its control API name a time scale? A no here is
// a harness error (exit 2, one sentence that names the fix) within seconds,
// never a page of failed checks.
import { Agent } from 'undici';
import { DeadlineError, exchange, type Exchange, type ExchangeResponse } from '../http/exchange.ts';
import { describeBody } from '../http/body.ts';
import { redactUrlUserinfo } from '../http/url.ts';
import { HarnessError, unreachableError } from '../errors.ts';
import { nearest } from '../flag-values.ts';
import { Redactor } from '../report/redact.ts';
import type { TargetConfig } from './config.ts';
import { fillPath, joinUrl } from './profile.ts';
import { READ_LIMIT_BYTES } from '../http/body.ts';
import { isTimeScale } from '../clock.ts';

/** Each pre-flight call gives up after this long in all, body included (arbitrary: three calls stay under the 10 s promised for a harness error). */
const TARGET_CALL_TIMEOUT_MS = 3000;
/**
 * The same for the bundled reference (arbitrary: ten times as long). It answers
 * in this very process, so a late answer is this process's own stall, not a
 * target's: a clean-clone CI run at load 10 saw a bundled token endpoint miss
 * the 3 s, and the run ended in a harness error instead of its verdict.
 */
const BUNDLED_CALL_TIMEOUT_MS = 30_000;

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

/** Longest part of a target's own words quoted in a harness error (arbitrary: one line of a terminal). */
const QUOTE_CHARS = 160;

type Answer = ExchangeResponse;

/** A target's own words, made safe for one terminal line: printable characters only, cut at QUOTE_CHARS. */
function quote(s: string): string {
  const flat = s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1)}…` : flat;
}

/** The message a not-found answer gives, when it gives one: where the target says its API is. */
function messageOf(a: Answer): string | undefined {
  const j = a.json as Record<string, unknown> | undefined;
  for (const key of ['message', 'error_description', 'detail', 'title', 'error']) {
    const v = j && typeof j === 'object' ? j[key] : undefined;
    if (typeof v === 'string' && v.trim()) return v;
  }
  if (j === undefined && /^text\/plain/i.test(a.headers['content-type'] ?? '') && a.body.whole && a.text.trim()) return a.text;
  return undefined;
}

/** "404 with text/html, 512 bytes": an answer in a few words. */
function seenOf(a: Answer): string {
  const type = a.headers['content-type'] ? `${a.headers['content-type'].split(';')[0]!.trim()}, ` : '';
  return `${a.status} (${type}${describeBody(a.body)})`;
}

/**
 * Why the answer to GET /banks shows that --base-url is not the banking API,
 * or undefined when it may be. Spec 4.4 lists GET /banks; a 404 or 405 there,
 * or a 2xx that is not JSON (a login page, a proxy's portal), is some other
 * place. Every other answer is the checks' to judge.
 */
function notTheApi(a: Answer, banksPath: string, redactor: Redactor): string | undefined {
  if (a.status === 404 || a.status === 405) {
    const said = messageOf(a);
    return `answered ${a.status} to GET ${banksPath}, so the banking API is not there` + (said ? ` (the answer says: "${quote(redactor.text(said))}")` : '');
  }
  if (a.status >= 200 && a.status < 300 && a.json === undefined)
    return `answered GET ${banksPath} with ${seenOf(a)} that is not JSON, so it is not the banking API`;
  return undefined;
}

export async function preflight(cfg: TargetConfig, redactor: Redactor): Promise<PreflightFindings> {
  // The token endpoint's own words in a sentence: cut short, and never a secret it echoes (raw or encoded).
  const shown = (s: string) => redactor.text(s.length > 80 ? `${s.slice(0, 79)}…` : s);
  const callMs = cfg.bundledReference ? BUNDLED_CALL_TIMEOUT_MS : TARGET_CALL_TIMEOUT_MS;
  const dispatcher = new Agent({ connect: { timeout: callMs }, headersTimeout: callMs, bodyTimeout: callMs });
  const findings: PreflightFindings = {};
  try {
    const tokenUrl = joinUrl(cfg.authUrl, fillPath(cfg.paths.token, { realm: cfg.realm }));
    const shownTokenUrl = redactUrlUserinfo(tokenUrl);
    const tok = await exchange({
      method: 'POST', url: tokenUrl, dispatcher, timeoutMs: callMs, deadlineMs: callMs,
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
    // No base URL: only suites that never call the API were chosen (config.ts requireBaseUrl).
    if (cfg.baseUrl) {
      const banks = joinUrl(cfg.baseUrl, fillPath(cfg.paths.banks, {}));
      // As the suites call the API (docs/profile.md): the bearer token and the device header.
      const authorization: Record<string, string> = {
        ...(typeof access === 'string' ? { authorization: `${cfg.headers.authScheme} ${access}` } : {}), [cfg.headers.device]: cfg.deviceId };
      // Read whole up to the read limit, as the suites read lists: a long bank list is no reason to call the API something else.
      const api = await exchange({ method: 'GET', url: banks, dispatcher, timeoutMs: callMs, deadlineMs: callMs,
        headers: authorization, wholeBytes: READ_LIMIT_BYTES }, redactor);
      if (!api.response) throw noAnswer(api, 'API (--base-url)', cfg.baseUrl);
      const wrong = notTheApi(api.response, cfg.paths.banks, redactor);
      if (wrong) throw new HarnessError('PIS_BAD_CONFIG', `The API at ${redactUrlUserinfo(cfg.baseUrl)} ${wrong}: ` +
        'check --base-url (and paths.banks in the config file).');
      if (cfg.banks?.kind === 'ids' && Array.isArray(api.response.json)) {
        const listed = (api.response.json as unknown[]).map(b => (b as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string');
        for (const id of cfg.banks.ids.filter(i => !listed.includes(i))) {
          // A bank GET /banks leaves out may still be read by its id, as the suites do (suites/support/banks.ts): only an
          // error answer there too means no check could use it.
          const one = await exchange({ method: 'GET', url: joinUrl(cfg.baseUrl, fillPath(cfg.paths.bank, { bankId: id })), dispatcher,
            timeoutMs: callMs, deadlineMs: callMs, headers: authorization }, redactor);
          const status = one.response?.status;
          if (status === undefined || (status >= 200 && status < 300)) continue;
          const near = nearest(id, listed);
          throw new HarnessError('PIS_BAD_FLAG', `--banks names '${quote(id)}', which GET ${cfg.paths.banks} does not list and ` +
            `GET ${cfg.paths.bank} answers ${status}: ${near ? `did you mean ${quote(near)}? ` : ''}give ids that GET ${cfg.paths.banks} lists.`);
        }
      }
    }
    if (cfg.controlUrl) {
      const health = joinUrl(cfg.controlUrl, '/health');
      const ctl = await exchange({ method: 'GET', url: health, dispatcher, timeoutMs: callMs, deadlineMs: callMs }, redactor);
      if (!ctl.response) throw noAnswer(ctl, 'control API (--control-url)', cfg.controlUrl);
      const scale = (ctl.response.json as { timeScale?: unknown } | undefined)?.timeScale;
      if (ctl.response.status === 200 && isTimeScale(scale)) findings.controlTimeScale = scale;
      else throw new HarnessError('PIS_BAD_CONFIG', `The control API at ${redactUrlUserinfo(cfg.controlUrl)} answered GET /health with ` +
        `${seenOf(ctl.response)}, not 200 {"timeScale": N}: check --control-url (docs/control-api.md).`);
    }
    return findings;
  } finally {
    await dispatcher.close();
  }
}
