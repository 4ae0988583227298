// How evidence is shown in index.html. A failed check opens with the item
// that broke the rule (the exchange, measurement or attempts its check
// marked, else its last exchange), outlined and labelled; everything else it
// recorded is folded below, so a failure with fifteen exchanges is one screen,
// not eleven thousand pixels. Every value is escaped, numbers included: a
// results.json may come from anywhere (`report DIR`).
import type { CheckResult, DeliveryEvidence, Evidence, HttpEvidence, SamplesEvidence } from '../../results/model.ts';
import { esc } from './escape.ts';

/** A number as text with `digits` decimals; anything else escaped as it is. */
const fixed = (v: unknown, digits: number) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : esc(v));

/** `mark`: text to highlight where it occurs (the value a failed check saw). */
function body(b: unknown, mark?: string): string {
  if (b === undefined) return '';
  const text = typeof b === 'string' ? b : JSON.stringify(b, null, 2) ?? String(b);
  const cut = text.length > 20000 ? text.slice(0, 20000) + `\n… (${text.length - 20000} more characters)` : text;
  const shown = mark && cut.includes(mark) ? cut.split(mark).map(esc).join(`<mark>${esc(mark)}</mark>`) : esc(cut);
  return `<pre class="body">${shown}</pre>`;
}

/** The first JSON string in what a check saw ("DNBANOKKX" of '"DNBANOKKX" (9)'): found as it is in a pretty-printed body. */
function seenValue(seen: string | undefined): string | undefined {
  const m = typeof seen === 'string' ? /"(?:[^"\\]|\\.)+"/.exec(seen) : null;
  return m && m[0].length >= 4 ? m[0] : undefined;
}

function headers(h: Record<string, string> | undefined): string {
  if (!h || typeof h !== 'object' || !Object.keys(h).length) return '';
  return `<pre class="headers">${esc(Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n'))}</pre>`;
}

function http(e: HttpEvidence, mark?: string): string {
  const res = e.response
    ? `<div class="res"><b>${esc(e.response.status)}</b> after ${fixed(e.durationMs, 0)} ms${headers(e.response.headers)}${body(e.response.body, mark)}</div>`
    : `<div class="res err">no response: ${esc(e.error ?? 'unknown')} after ${fixed(e.durationMs, 0)} ms</div>`;
  return `<div class="http">${e.label ? `<div class="label">${esc(e.label)}</div>` : ''}
<div class="req"><b>${esc(e.request?.method)}</b> <span class="url">${esc(e.request?.url)}</span> <small>${esc(e.startedAt)}</small>` +
    `${headers(e.request?.headers)}${body(e.request?.body)}</div>
${res}${e.curl ? `<div class="curl"><small>reproduce:</small><pre>${esc(e.curl)}</pre></div>` : ''}</div>`;
}

/** The sink's judgement of an attempt's api-key: a wrong one by its length and a short hash, so it can be told from the right one. */
function keyShown(a: DeliveryEvidence['attempts'][number]): string {
  const k = a.apiKeyCheck;
  if (!k) return a.headers?.['api-key'] ?? '(none)';
  return k.verdict === 'other' ? `other (${k.length} characters, sha256 ${k.sha256}…)` : k.verdict;
}

function deliveries(e: DeliveryEvidence): string {
  const bad = new Set(Array.isArray(e.violating) ? e.violating : []);
  const rows = (Array.isArray(e.attempts) ? e.attempts : []).map(a => `<tr${bad.has(a.seq) ? ' class="violating"' : ''}><td>${esc(a.seq)}</td>
<td>${a.plan ? `${esc(a.plan)} <small>${esc(String(a.checkoutId).slice(0, 8))}</small>` : esc(a.checkoutId)}</td>` +
    `<td>${esc(a.event ?? '')}</td><td>${esc(a.bodyStatus ?? '')}</td>
<td>${fixed(a.arrivedMs, 1)}</td><td>${esc(a.probe)}</td><td>${esc(a.answer)}</td><td>${esc(keyShown(a))}</td></tr>`).join('');
  return '<table class="attempts"><tr><th>#</th><th>checkout</th><th>event</th><th>status</th><th>arrived (ms)</th><th>probe</th>' +
    `<th>answer</th><th>api-key</th></tr>${rows}</table>`;
}

/** A series in one line: how many values, their range, and its marks; the picture draws them. */
function samplesLine(e: SamplesEvidence): string {
  const v = e.values.filter(Number.isFinite);
  const range = v.length ? `, ${v.reduce((a, b) => Math.min(a, b))} to ${v.reduce((a, b) => Math.max(a, b))} ${e.unit}` : '';
  const marks = Object.entries(e.marks ?? {}).map(([k, x]) => `${k} ${x} ${e.unit}`).join(', ');
  return `<p class="measure">${esc(e.name)}: ${v.length} values${esc(range)}${marks ? esc(`; ${marks}`) : ''}</p>`;
}

export function renderEvidence(e: Evidence, mark?: string): string {
  switch (e.kind) {
    case 'http': return http(e, mark);
    case 'note': return `<p class="note">${esc(e.text)}</p>`;
    case 'measurement': return `<p class="measure">${esc(e.name)}: expected ${esc(e.expected)}, ` +
      `seen <b>${esc(e.seen)}</b>${e.unit ? ' ' + esc(e.unit) : ''}</p>`;
    case 'delivery': return deliveries(e);
    case 'samples': return samplesLine(e);
    default: return `<pre class="unknown">${esc(JSON.stringify(e))}</pre>`;
  }
}

/** The item a failed check points at: the one it marked, else its last exchange; -1 when it has neither. */
function primaryIndex(c: Pick<CheckResult, 'status' | 'evidence'>): number {
  if (c.status !== 'failed') return -1;
  const marked = c.evidence.findIndex(e => e.primary === true);
  if (marked >= 0) return marked;
  for (let i = c.evidence.length - 1; i >= 0; i--) if (c.evidence[i].kind === 'http') return i;
  return -1;
}

const KIND_WORDS: Record<string, [string, string]> = {
  http: ['exchange', 'exchanges'], note: ['note', 'notes'], measurement: ['measurement', 'measurements'], samples: ['series', 'series'],
  delivery: ['table of attempts', 'tables of attempts'],
};

/** "12 exchanges, 2 notes": what a folded list holds. */
function describe(items: readonly Evidence[]): string {
  const n = new Map<string, number>();
  for (const e of items) n.set(e.kind, (n.get(e.kind) ?? 0) + 1);
  return [...n].map(([k, count]) => `${count} ${(KIND_WORDS[k] ?? [k, k])[count === 1 ? 0 : 1]}`).join(', ');
}

/**
 * A check's evidence: for a failed check the item that broke the rule, marked
 * and open, then the rest folded; for any other check everything folded.
 */
export function renderCheckEvidence(c: CheckResult): string {
  const items = Array.isArray(c.evidence) ? c.evidence : [];
  if (!items.length) return '';
  const p = primaryIndex({ status: c.status, evidence: items });
  const rest = items.filter((_, i) => i !== p);
  const folded = (label: string, list: readonly Evidence[]) => list.length
    ? `<details class="more-ev"><summary>${esc(label)}: ${esc(describe(list))}</summary>${list.map(e => renderEvidence(e)).join('\n')}</details>` : '';
  if (p < 0) {
    // A failure with nothing to point at (notes only) shows them; other checks keep them folded.
    return c.status === 'failed' ? `<div class="ev">${items.map(e => renderEvidence(e)).join('\n')}</div>` :
      `<div class="ev">${folded('evidence', items)}</div>`;
  }
  return '<div class="ev"><div class="primary-ev" data-primary="true"><div class="primary-label">what broke the rule</div>' +
    `${renderEvidence(items[p], seenValue(c.seen))}</div>
${folded('the rest of the evidence', rest)}</div>`;
}
