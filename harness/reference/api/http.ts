// Small node:http helpers shared by the reference's token endpoint, API and
// bank pages. node:http is enough at this size (a dozen routes, JSON bodies);
// a framework would add a dependency without removing any code that matters.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies larger than this are refused: the reference only ever needs small JSON or form bodies. */
const MAX_BODY_BYTES = 1 << 20;

export class BodyTooLarge extends Error {}

/**
 * The whole body as UTF-8 text. A body over the limit ends the request and is
 * refused: leaving the for-await loop makes Node's stream destroyer end the
 * request but not its connection, so the 413 is answered while the client is
 * still sending; the rest of the body is not read, and the connection is left
 * to the server's timeouts. (Reading by 'data' events costs a few µs less per
 * request, but ending the request alone then takes writing to Node's internals.)
 */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge(`body larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html), 'cache-control': 'no-store' });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { location, 'content-length': 0 });
  res.end();
}

/** A single request header as a string (the first value when repeated), or undefined. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The origin the client used to reach this server, for absolute links
 * (consent and authorize hrefs). The Host header is preferred over the bound
 * address so that a server bound to 0.0.0.0 still hands out reachable links.
 */
export function originOf(req: IncomingMessage, fallback: string): string {
  const host = header(req, 'host');
  return host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `http://${host}` : fallback;
}

/** Escapes text for the few HTML pages the reference serves. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
