// The reference's one HTTP server: it splits requests by path between the
// token endpoint, the banking API, the simulated bank's pages and the control
// API (B2's control.ts), and owns nothing else. Lifecycle (listen, close) is in
// index.ts; what each part answers is in its own folder.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleBankPage } from './api/bank-pages.ts';
import type { ApiContext } from './api/context.ts';
import { BodyTooLarge, originOf, sendJson } from './api/http.ts';
import type { createApi } from './api/router.ts';
import type { createTokenEndpoint } from './auth/token-endpoint.ts';

export interface ServerParts {
  realm: string;
  ctx: ApiContext;
  token: ReturnType<typeof createTokenEndpoint>;
  api: ReturnType<typeof createApi>;
  control: { handle(req: IncomingMessage, res: ServerResponse, subpath: string): Promise<void> };
}

/** The part of `path` below `prefix`, or null when `path` is not under it. */
function below(path: string, prefix: string): string | null {
  if (path === prefix) return '';
  return path.startsWith(prefix + '/') ? path.slice(prefix.length) : null;
}

export function createReferenceServer(parts: ServerParts): Server {
  const tokenPath = `/auth/realms/${encodeURIComponent(parts.realm)}/protocol/openid-connect/token`;

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://reference.invalid');
    const path = url.pathname;
    const origin = originOf(req, parts.ctx.fallbackOrigin);
    if (path === tokenPath) return parts.token(req, res);
    let sub = below(path, '/api');
    if (sub !== null) return parts.api(req, res, sub || '/', url.searchParams, origin);
    sub = below(path, '/control');
    // The control API gets its subpath with the query, as control.ts splits it itself.
    if (sub !== null) return parts.control.handle(req, res, (sub || '/') + url.search);
    sub = below(path, '/bank');
    if (sub !== null && handleBankPage(parts.ctx, req, res, sub, url.searchParams, origin)) return;
    req.resume();
    if (path === '/') {
      sendJson(res, 200, {
        name: 'pis-conformance reference implementation',
        authUrl: origin, tokenUrl: `${origin}${tokenPath}`, baseUrl: `${origin}/api`, controlUrl: `${origin}/control`,
      });
      return;
    }
    sendJson(res, 404, { error: 'not_found',
      message: `Nothing at ${path}: the token endpoint is ${tokenPath}, the API is under /api, the control API under /control.` });
  }

  return createServer((req, res) => {
    route(req, res).catch(e => {
      // A handler that failed before answering: answer rather than leave the client hanging.
      if (res.headersSent) { res.destroy(); return; }
      const tooLarge = e instanceof BodyTooLarge;
      sendJson(res, tooLarge ? 413 : 500, { error: tooLarge ? 'too_large' : 'internal', message: (e as Error)?.message ?? String(e) });
    });
  });
}
