// The simulated bank's pages behind the consent and authorize hrefs. A plain
// GET grants at once and redirects (302) to x-redirect-url, or to a small
// "done" page, so suites can complete consent headless; `?interactive=1` shows
// a page with a button instead, so a browser-driven consent flow can be tested.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext } from './context.ts';
import { escapeHtml, redirect, sendHtml } from './http.ts';
import type { Ticket } from './tickets.ts';

const WHAT = { consent: 'consent', authorize: 'payment authorisation' } as const;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.5rem 1.5rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function grant(ctx: ApiContext, t: Ticket): boolean {
  return t.kind === 'consent' ? ctx.sessions.grant(t.sessionId) : ctx.payments.authorize(t.paymentId);
}

function form(kind: Ticket['kind'], id: string, t: Ticket): string {
  const detail = t.kind === 'consent' ? `Give consent to ${escapeHtml(t.scope)} for session <code>${escapeHtml(t.sessionId)}</code>?`
    : `Authorise payment <code>${escapeHtml(t.paymentId)}</code>?`;
  return page(`Reference bank: ${WHAT[kind]}`, `<p>${detail}</p>
<form method="post" action="/bank/${kind}/${encodeURIComponent(id)}">` +
    '<button id="approve" type="submit" name="decision" value="approve">Approve</button></form>');
}

/** Handles /bank/...; `subpath` is the part after /bank, `origin` the server as the browser reached it. Returns false when no page matches. */
export function handleBankPage(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, subpath: string, query: URLSearchParams, origin: string): boolean {
  req.resume(); // the form's body carries nothing the page needs
  if (subpath === '/done') {
    const what = query.get('what') === 'authorize' ? 'The payment was authorised' : 'Consent was given';
    sendHtml(res, 200, page('Reference bank', `<p id="done">${what}. You can close this window.</p>`));
    return true;
  }
  const logo = /^\/logo\/[\w-]+\.svg$/.exec(subpath);
  if (logo) {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" rx="6" fill="#1f5fa8"/></svg>';
    res.writeHead(200, { 'content-type': 'image/svg+xml', 'content-length': Buffer.byteLength(svg) });
    res.end(svg);
    return true;
  }
  const m = /^\/(consent|authorize)\/([\w-]+)$/.exec(subpath);
  if (!m) return false;
  const kind = m[1] as Ticket['kind'];
  const ticket = ctx.tickets.get(m[2]);
  if (!ticket || ticket.kind !== kind) {
    sendHtml(res, 404, page('Reference bank', '<p>This link is not known or has been forgotten: request a new one.</p>'));
    return true;
  }
  if (req.method === 'GET' && query.get('interactive') === '1') {
    sendHtml(res, 200, form(kind, m[2], ticket));
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'POST') {
    res.writeHead(405, { allow: 'GET, POST', 'content-length': 0 });
    res.end();
    return true;
  }
  if (!grant(ctx, ticket)) {
    sendHtml(res, 410, page('Reference bank', `<p>The ${kind === 'consent' ? 'session was deleted' : 'payment is gone'}: start again.</p>`));
    return true;
  }
  // Faults session-consent-redirect-ignored and payments-sca-redirect-ignored: the
  // page sends the browser to its own done page, not to the x-redirect-url it was given.
  const ignored = ctx.faults.has(kind === 'consent' ? 'session-consent-redirect-ignored' : 'payments-sca-redirect-ignored');
  const back = ignored ? undefined : ticket.redirectUrl;
  // 303 after the form's POST so the browser follows with a GET (RFC 9110 15.4.4).
  redirect(res, back ?? `${origin}/bank/done?what=${kind}`, req.method === 'POST' ? 303 : 302);
  return true;
}
