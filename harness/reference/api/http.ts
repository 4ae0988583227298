// Small node:http helpers shared by the reference's token endpoint, API and
// bank pages. node:http is enough at this size (a dozen routes, JSON bodies);
// a framework would add a dependency without removing any code that matters.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies larger than this are refused: the reference only ever needs small JSON or form bodies. */
const MAX_BODY_BYTES = 1 << 20;

export class BodyTooLarge extends Error {}

/**
 * The whole body as UTF-8 text. Read by its events rather than a for-await
 * loop, whose async iterator cost more than the rest of reading a small body;
 * it ends alike: a body over the limit ends the request and is refused (the
 * 413 is answered, then the connection is reset), an error or a close before
 * the end rejects.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // As Node's stream destroyer does for a server request that a for-await loop left: the request ends, not its
        // connection, so the 413 still reaches the client.
        (req as { socket: unknown }).socket = null;
        req.destroy();
        reject(new BodyTooLarge(`body larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    let ended = false;
    req.once('end', () => { ended = true; resolve(Buffer.concat(chunks).toString('utf8')); });
    req.once('error', reject);
    // Every request closes, after its end too: only a close before it is a failure worth an Error.
    req.once('close', () => { if (!ended) reject(new Error('Premature close')); });
  });
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
