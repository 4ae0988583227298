// The conformance matrix (`pis-conformance matrix`): one self-contained page
// of implementations (rows) by API version and suite version (columns), each
// cell the verified result of a certificate, its failing requirements one
// click away. Only certificates whose signature verified are shown as
// results; the others are listed apart with the reason. Like index.html the
// page runs one inline script that a Content-Security-Policy pins by hash,
// and that script only sets `hidden` and a count.
import { createHash } from 'node:crypto';
import { esc } from '../report/html/escape.ts';
import type { Statement } from './statement.ts';

export interface MatrixEntry { file: string; statement: Statement }
export interface RefusedEntry { file: string; why: string }

const SCRIPT = `(() => {
  const certs = [...document.querySelectorAll('[data-result]')];
  const boxes = [...document.querySelectorAll('#filters input[type=checkbox]')];
  const search = document.getElementById('search');
  const shown = document.getElementById('shown');
  const apply = () => {
    const on = { result: new Set(), version: new Set() };
    for (const b of boxes) if (b.checked) on[b.dataset.group].add(b.value);
    const words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let n = 0;
    for (const c of certs) {
      const text = (c.dataset.impl + ' ' + c.textContent).toLowerCase();
      c.hidden = !(on.result.has(c.dataset.result) && on.version.has(c.dataset.version) && words.every(w => text.includes(w)));
      if (!c.hidden && c.tagName === 'A') n++;
    }
    for (const row of document.querySelectorAll('#matrix tbody tr'))
      row.hidden = ![...row.querySelectorAll('a[data-result]')].some(a => !a.hidden);
    shown.textContent = n + ' of ' + document.querySelectorAll('a[data-result]').length + ' certificates shown';
  };
  for (const b of boxes) b.addEventListener('change', apply);
  search.addEventListener('input', apply);
  apply();
})();`;

const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330}
header,main{padding:12px 28px} h1{margin:0 0 4px;font-size:22px}
#filters{background:#fff;border-bottom:1px solid #dde1e7;padding:6px 28px;display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center;font-size:13px}
#filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:2px 8px} #filters legend{float:left;color:#556;margin-right:4px;padding:0}
table{border-collapse:collapse;margin:12px 0} th,td{border:1px solid #dde1e7;padding:6px 10px;text-align:left;vertical-align:top}
a.cell{display:block;font-weight:600;text-decoration:none;padding:2px 6px;border-radius:3px;margin:2px 0}
.PASSED{background:#dff3e4;color:#0b5d23} .WARNED{background:#fff4d6;color:#7a5200} .FAILED{background:#fbe0e0;color:#8a1c1c}
section.cert{border-top:1px solid #dde1e7;padding:8px 0} #refused li{color:#8a1c1c} code{font-size:13px} [hidden]{display:none!important}`;

/** A column of the matrix: an API version and the suite (tool) version that tested it. */
function columnOf(s: Statement): string {
  const tool = s.predicate.configuration.find(c => c.uri?.startsWith('pkg:npm/'));
  return `${s.predicate.conformance?.apiVersion ?? '?'} · ${tool?.uri?.replace(/^pkg:npm\//, '') ?? '?'}`;
}

function details(e: MatrixEntry, i: number, requirementsOf: (check: string) => string[]): string {
  const p = e.statement.predicate, c = p.conformance;
  const reqs = [...new Set(p.failedTests.flatMap(requirementsOf))];
  const list = (title: string, ids: string[]) =>
    ids.length ? `<p>${esc(title)}:</p><ul>${ids.map(id => `<li><code>${esc(id)}</code></li>`).join('')}</ul>` : '';
  const devs = c?.deviations ?? [];
  return `<section class="cert" id="cert-${i}" data-result="${esc(p.result)}" data-version="${esc(c?.apiVersion)}" data-impl="${esc(c?.implementation)}">
<h3>${esc(c?.implementation)} · ${esc(columnOf(e.statement))}: <span class="${esc(p.result)}">${esc(p.result)}</span></h3>
<p>${esc(c?.verdictLine)} · ${esc(e.file)} · ${esc(c?.finishedAt)}</p>
${list('Failing requirements', reqs)}${list('Failed checks', p.failedTests)}${list('Checks that did not run', c?.notRunTests ?? [])}
${list('Declared deviations', devs.map(d => `${d.check ?? d.requirement} until ${d.expires}`))}
<p>${p.passedTests.length} passed, ${p.warnedTests.length} warned, ${p.failedTests.length} failed.</p></section>`;
}

export function renderMatrix(entries: readonly MatrixEntry[], refused: readonly RefusedEntry[], requirementsOf: (check: string) => string[]): string {
  const impls = [...new Set(entries.map(e => e.statement.predicate.conformance?.implementation ?? '?'))].sort();
  const cols = [...new Set(entries.map(e => columnOf(e.statement)))].sort();
  const versions = [...new Set(entries.map(e => e.statement.predicate.conformance?.apiVersion ?? '?'))].sort();
  const results = ['PASSED', 'WARNED', 'FAILED'];
  const box = (group: string, v: string) => `<label><input type="checkbox" data-group="${group}" value="${esc(v)}" checked> ${esc(v)}</label>`;
  const rows = impls.map(impl => `<tr><th scope="row">${esc(impl)}</th>${cols.map(col => `<td>${entries.map((e, i) => ({ e, i }))
    .filter(({ e }) => (e.statement.predicate.conformance?.implementation ?? '?') === impl && columnOf(e.statement) === col)
    .map(({ e, i }) => `<a class="cell ${esc(e.statement.predicate.result)}" href="#cert-${i}" data-result="${esc(e.statement.predicate.result)}" ` +
      `data-version="${esc(e.statement.predicate.conformance?.apiVersion)}" data-impl="${esc(impl)}">${esc(e.statement.predicate.result)}</a>`).join('')}</td>`)
    .join('')}</tr>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Conformance matrix</title><style>${CSS}</style></head>
<body><header><h1>Conformance matrix</h1>
<p id="counts">${entries.length} verified certificate${entries.length === 1 ? '' : 's'}` +
    `${refused.length ? `, ${refused.length} refused (listed apart, not shown as results)` : ''}.</p></header>
<nav id="filters" aria-label="Filter the certificates">
<fieldset><legend>result</legend>${results.map(r => box('result', r)).join('')}</fieldset>
<fieldset><legend>API version</legend>${versions.map(v => box('version', v)).join('')}</fieldset>
<input type="search" id="search" placeholder="search implementations, checks, requirements" aria-label="Search the certificates">
<span id="shown" aria-live="polite"></span></nav>
<main><table id="matrix"><thead><tr><th>implementation</th>${cols.map(c => `<th scope="col">${esc(c)}</th>`).join('')}</tr></thead>
<tbody>${rows}</tbody></table>
${entries.map((e, i) => details(e, i, requirementsOf)).join('\n')}
${refused.length ? `<section id="refused"><h2>Not verified (${refused.length})</h2><ul>${refused
    .map(r => `<li><code>${esc(r.file)}</code>: ${esc(r.why)}</li>`).join('')}</ul></section>` : ''}
</main><script>${SCRIPT}</script></body></html>
`;
}
