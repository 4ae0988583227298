// The banking API under {base_url} = http://host:port/api (docs/profile.md
// "Operations"). Every call needs a bearer access token (401 otherwise) and
// x-device-id (1001); answers are JSON and carry x-request-id; errors use the
// profile's error body. Handlers live one concern per file beside this one.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listAccounts, listTransactions, listTransactionsByQuery } from './accounts.ts';
import { listBanks, getBank } from './banks.ts';
import { confirmFunds } from './confirm-funds.ts';
import type { Answer, ApiContext, Call } from './context.ts';
import { ApiError, internalError, methodNotAllowed, missingHeader, missingParameter, notFound, unauthorized } from './errors.ts';
import { BodyTooLarge, header, readBody, sendJson } from './http.ts';
import { authorizePayment, createPayment, getPayment } from './payments.ts';
import { consentUrl, createSession, deleteSession, sessionStatus } from './sessions.ts';

type Handler = (call: Call) => Answer;
interface Route { method: string; pattern: RegExp; names: string[]; handler: Handler }

function route(method: string, path: string, handler: Handler): Route {
  const names: string[] = [];
  const source = path.replace(/:(\w+)/g, (_, n: string) => { names.push(n); return '([^/]+)'; });
  return { method, pattern: new RegExp(`^${source}/?$`), names, handler };
}

const ROUTES: Route[] = [
  route('GET', '/banks', listBanks),
  route('GET', '/banks/:bankId', getBank),
  route('POST', '/session', createSession),
  route('GET', '/session', sessionStatus),
  route('DELETE', '/session', deleteSession),
  route('GET', '/session/:sessionId', sessionStatus),
  route('DELETE', '/session/:sessionId', deleteSession),
  route('GET', '/consent/:sessionId', consentUrl),
  route('GET', '/accounts', listAccounts),
  route('GET', '/accounts/:accountId/transactions', listTransactions),
  route('GET', '/transactions', listTransactionsByQuery),
  route('POST', '/confirm-funds', confirmFunds),
  route('POST', '/payments/:product', createPayment),
  route('POST', '/payments/:product/:paymentId/authorize', authorizePayment),
  route('GET', '/payments/:product/:paymentId', getPayment),
];

function match(method: string, path: string): { route: Route; params: Record<string, string> } {
  const allowed: string[] = [];
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (!m) continue;
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
function authenticate(ctx: ApiContext, req: IncomingMessage): void {
  const auth = header(req, 'authorization');
  const m = auth && /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m) throw unauthorized(auth ? 'the Authorization header is not a Bearer token' : 'no Authorization header');
  // Fault token-any-bearer: any bearer token is accepted.
  if (ctx.faults.has('token-any-bearer')) return;
  const check = ctx.tokens.check(m[1]);
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
  return async function handle(req: IncomingMessage, res: ServerResponse, subpath: string, query: URLSearchParams, origin: string): Promise<void> {
    const requestId = header(req, 'x-request-id') || randomUUID();
    let answer: Answer;
    try {
      authenticate(ctx, req);
      if (!header(req, 'x-device-id')) throw missingHeader('x-device-id');
      const { route: r, params } = match(req.method ?? 'GET', subpath);
      const body = req.method === 'POST' ? await jsonBody(req) : (req.resume(), {});
      answer = r.handler({ req, ctx, origin, baseUrl: `${origin}/api`, params, query, body });
    } catch (e) {
      const err = e instanceof ApiError ? e
        : e instanceof BodyTooLarge ? new ApiError('1002', 'The body is too large', 'BAD_REQUEST', 400, [], 413)
        : internalError((e as Error)?.message ?? String(e));
      answer = { status: err.status(ctx.faults), body: err.body(`e-${++errors}`, ctx.clock.date().getTime()), headers: err.headers };
    }
    const headers = { 'x-request-id': requestId, ...answer.headers };
    if (answer.body === undefined) {
      res.writeHead(answer.status, { ...headers, 'content-length': 0 });
      res.end();
    } else {
      sendJson(res, answer.status, answer.body, headers);
    }
  };
}
