// The banking API under {base_url} = http://host:port/api (docs/profile.md
// "Operations") at the API version the reference serves (versions.ts): its
// operations under its names. Every call needs a bearer access token (401
// otherwise) and x-device-id (1001); answers are JSON and carry x-request-id;
// errors use the profile's error body (from 3.0.0; before it, the plain one of
// docs/profile.md, API versions). Handlers live one concern per file beside this one.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listAccounts, listTransactions, listTransactionsByQuery } from './accounts.ts';
import { listBanks, getBank } from './banks.ts';
import { confirmFunds } from './confirm-funds.ts';
import type { Answer, ApiContext, Call } from './context.ts';
import { ApiError, internalError, methodNotAllowed, missingHeader, missingParameter, notFound, unauthorized } from './errors.ts';
import { BodyTooLarge, header, readBody, sendJson } from './http.ts';
import { authorizePayment, createPayment, getPayment } from './payments.ts';
import { consentUrl, createSession, deleteSession, sessionStatus, startConsent } from './sessions.ts';
import { has, type Feature } from './versions.ts';
import { renameAnswer, renameRequest } from './renamed.ts';
import type { CatalogName } from '../catalog-names.ts';

type Handler = (call: Call) => Answer;
interface Route {
  method: string; pattern: RegExp; names: string[]; handler: Handler;
  /** A route of an operation 3.0.0 renamed: there only while `fault` is off (`onFault` false) or on (true). */
  fault?: CatalogName; onFault?: boolean;
}

function route(method: string, path: string, handler: Handler, fault?: { name: CatalogName; on: boolean }): Route {
  const names: string[] = [];
  const source = path.replace(/:(\w+)/g, (_, n: string) => { names.push(n); return '([^/]+)'; });
  return { method, pattern: new RegExp(`^${source}/?$`), names, handler, ...(fault ? { fault: fault.name, onFault: fault.on } : {}) };
}

type Names = [method: string, path: string][];

/**
 * The operations 3.0.0 renamed (spec 9), with their names on each side of
 * the rename. Under its fault the reference serves one under the other
 * side's names instead (a target that claims a version but kept, or took
 * early, the other names); such a name never shadows one of the version's own.
 * The consent URL before 3.0.0 is POST /consent with a consent id (sessions.ts).
 */
const RENAMED: { fault: CatalogName; feature?: Feature; handler: Handler; sessions: Names; before: Names }[] = [
  { fault: 'renamed-confirm-funds', feature: 'confirm-funds', handler: confirmFunds,
    sessions: [['POST', '/confirm-funds']], before: [['POST', '/fundsconfirmations']] },
  { fault: 'renamed-consent-status', feature: 'consent-status', handler: sessionStatus,
    sessions: [['GET', '/session'], ['GET', '/session/:sessionId']], before: [['GET', '/consent'], ['GET', '/consent/:sessionId']] },
  { fault: 'renamed-consent-delete', feature: 'consent-status', handler: deleteSession,
    sessions: [['DELETE', '/session'], ['DELETE', '/session/:sessionId']], before: [['DELETE', '/consent'], ['DELETE', '/consent/:sessionId']] },
  { fault: 'renamed-consent-url', handler: consentUrl, sessions: [['GET', '/consent/:sessionId']], before: [['POST', '/consent']] },
];

/** The routes of the version the reference serves (versions.ts). */
function routesAt(ctx: ApiContext): Route[] {
  const sessions = has(ctx, 'sessions');
  const own: Route[] = [route('GET', '/banks', listBanks)];
  const other: Route[] = [];
  if (has(ctx, 'bank-by-id')) own.push(route('GET', '/banks/:bankId', getBank));
  own.push(sessions ? route('POST', '/session', createSession) : route('POST', '/consent', startConsent));
  for (const r of RENAMED) {
    if (r.feature && !has(ctx, r.feature)) continue;
    const [mine, theirs] = sessions ? [r.sessions, r.before] : [r.before, r.sessions];
    // Before 3.0.0 POST /consent is already the route above: it serves the consent URL itself.
    if (!(r.fault === 'renamed-consent-url' && !sessions)) own.push(...mine.map(([m, p]) => route(m, p, r.handler, { name: r.fault, on: false })));
    other.push(...theirs.filter(([m, p]) => !(m === 'POST' && p === '/consent' && !sessions))
      .map(([m, p]) => route(m, p, r.handler, { name: r.fault, on: true })));
  }
  own.push(
    route('GET', '/accounts', listAccounts),
    route('GET', '/accounts/:accountId/transactions', listTransactions),
    route('GET', '/transactions', listTransactionsByQuery),
    route('POST', '/payments/:product', createPayment),
    route('GET', '/payments/:product/:paymentId', getPayment),
  );
  if (has(ctx, 'authorize')) own.push(route('POST', '/payments/:product/:paymentId/authorize', authorizePayment));
  const taken = (r: Route) => own.some(o => o.method === r.method && o.pattern.source === r.pattern.source);
  return [...own, ...other.filter(r => !taken(r))];
}

function match(ctx: ApiContext, routes: Route[], method: string, path: string): { route: Route; params: Record<string, string> } {
  const allowed: string[] = [];
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    // Asked only when the path is one of a renamed operation's, so only the suites that call it meet the fault.
    if (r.fault !== undefined && ctx.faults.has(r.fault) !== r.onFault) continue;
    if (r.method !== method) { allowed.push(r.method); continue; }
    const params: Record<string, string> = {};
    // A malformed %-escape cannot name anything that exists.
    try { r.names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]); }); } catch { throw notFound(method, path); }
    return { route: r, params };
  }
  if (allowed.length) throw methodNotAllowed(method, path, allowed);
  throw notFound(method, path);
}

/** docs/profile.md: `Authorization: Bearer <access_token>`; an expired or wrong token is 401. */
function authenticate(ctx: ApiContext, req: IncomingMessage, path: string): void {
  const auth = header(req, 'authorization');
  const m = auth && /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m) throw unauthorized(auth ? 'the Authorization header is not a Bearer token' : 'no Authorization header');
  // Fault token-any-bearer: any bearer token is accepted.
  if (ctx.faults.has('token-any-bearer')) return;
  const check = ctx.tokens.check(m[1]);
  // Fault token-expired-served-transactions: GET transactions takes an expired access token.
  if (!check.ok && check.why === 'expired' && ctx.faults.has('token-expired-served-transactions')
    && req.method === 'GET' && /^\/accounts\/[^/]+\/transactions\/?$/.test(path)) return;
  if (!check.ok) throw unauthorized(check.why === 'expired' ? 'the access token has expired' : 'the access token is not valid');
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (!text.trim()) return {};
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { throw missingParameter('body', 'must be JSON'); }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw missingParameter('body', 'must be a JSON object');
  return parsed as Record<string, unknown>;
}

export function createApi(ctx: ApiContext) {
  let errors = 0;
  const routes = routesAt(ctx);
  return async function handle(req: IncomingMessage, res: ServerResponse, subpath: string, query: URLSearchParams, origin: string): Promise<void> {
    const requestId = header(req, 'x-request-id') || randomUUID();
    let answer: Answer;
    try {
      authenticate(ctx, req, subpath);
      if (!header(req, 'x-device-id')) throw missingHeader('x-device-id');
      const { route: r, params } = match(ctx, routes, req.method ?? 'GET', subpath);
      const given = req.method === 'POST' ? await jsonBody(req) : (req.resume(), {});
      const body = ctx.faults.has('renamed-fields') ? renameRequest(subpath, given) : given;
      answer = r.handler({ req, ctx, origin, baseUrl: `${origin}/api`, params, query, body });
    } catch (e) {
      const err = e instanceof ApiError ? e
        : e instanceof BodyTooLarge ? new ApiError('1002', 'The body is too large', 'BAD_REQUEST', 400, [], 413)
        : internalError((e as Error)?.message ?? String(e));
      answer = has(ctx, 'error-body')
        ? { status: err.status(ctx.faults), body: err.body(`e-${++errors}`, ctx.clock.date().getTime()), headers: err.headers }
        : { ...err.before3(), headers: err.headers };
    }
    if (ctx.faults.has('renamed-fields')) answer = { ...answer, body: renameAnswer(answer.body) };
    const headers = { 'x-request-id': requestId, ...answer.headers };
    if (answer.body === undefined) {
      res.writeHead(answer.status, { ...headers, 'content-length': 0 });
      res.end();
    } else {
      sendJson(res, answer.status, answer.body, headers);
    }
  };
}
