// How each kind of evidence is shown in index.html.
import type { Evidence, HttpEvidence } from '../model.ts';
import { esc } from './escape.ts';

function body(b: unknown): string {
  if (b === undefined) return '';
  const text = typeof b === 'string' ? b : JSON.stringify(b, null, 2);
  const cut = text.length > 20000 ? text.slice(0, 20000) + `\n… (${text.length - 20000} more characters)` : text;
  return `<pre class="body">${esc(cut)}</pre>`;
}

function headers(h: Record<string, string> | undefined): string {
  if (!h || !Object.keys(h).length) return '';
  return `<pre class="headers">${esc(Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre>`;
}

function http(e: HttpEvidence): string {
  const res = e.response
    ? `<div class="res"><b>${e.response.status}</b> after ${e.durationMs.toFixed(0)} ms${headers(e.response.headers)}${body(e.response.body)}</div>`
    : `<div class="res err">no response: ${esc(e.error ?? 'unknown')} after ${e.durationMs.toFixed(0)} ms</div>`;
  return `<div class="http">${e.label ? `<div class="label">${esc(e.label)}</div>` : ''}
<div class="req"><b>${esc(e.request.method)}</b> ${esc(e.request.url)} <small>${esc(e.startedAt)}</small>${headers(e.request.headers)}${body(e.request.body)}</div>
${res}${e.curl ? `<div class="curl"><small>reproduce:</small><pre>${esc(e.curl)}</pre></div>` : ''}</div>`;
}

export function renderEvidence(e: Evidence): string {
  switch (e.kind) {
    case 'http': return http(e);
    case 'note': return `<p class="note">${esc(e.text)}</p>`;
    case 'measurement': return `<p class="measure">${esc(e.name)}: expected ${esc(e.expected)}, seen <b>${esc(e.seen)}</b>${e.unit ? ' ' + esc(e.unit) : ''}</p>`;
    case 'delivery': return `<table class="attempts"><tr><th>#</th><th>checkout</th><th>event</th><th>status</th><th>arrived (ms)</th><th>probe</th><th>answer</th><th>api-key</th></tr>${
      e.attempts.map(a => `<tr><td>${a.seq}</td><td>${esc(a.checkoutId)}</td><td>${a.event ?? ''}</td><td>${esc(a.bodyStatus ?? '')}</td><td>${a.arrivedMs.toFixed(1)}</td><td>${esc(a.probe)}</td><td>${esc(a.answer)}</td><td>${esc(a.headers['api-key'] ?? '(none)')}</td></tr>`).join('')}</table>`;
  }
}
