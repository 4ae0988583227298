// The declared deviations of a run (run --deviations) on index.html: what
// each names, the failed checks it covers, why, until when, and where to read
// more. They qualify the verdict and never change it; an expired deviation or
// one that covers no failed check is marked as such. Every value is the
// deviations file's, escaped; a link is clickable only when it is http(s).
import type { DeclaredDeviation, RunResults } from '../../results/model.ts';
import { counted } from '../verdict.ts';
import { esc } from './escape.ts';

export const DEVIATIONS_CSS = `
#deviations-line a{color:inherit} #deviations table{background:#fff;display:block;overflow-x:auto;max-width:100%} #deviations td{vertical-align:top}
#deviations tr.expired td.expires,#deviations tr.unused td.covers{color:#b3261e;font-weight:600}
`;

/** The deviations of the results; anything else a results.json from elsewhere carries there reads as none. */
const listed = (r: RunResults): DeclaredDeviation[] => (Array.isArray(r.deviations) ? r.deviations : []);

/** The line under the verdict: how many deviations were declared, and that they do not change it. */
export function deviationsLine(r: RunResults): string {
  const devs = listed(r);
  if (!devs.length) return '';
  const expired = devs.filter(d => d.expired === true).length;
  return `<p id="deviations-line"><a href="#deviations">${counted(devs.length, 'declared deviation')}</a>` +
    `${expired ? ` (${expired} expired)` : ''}: listed below; a deviation never changes a check's status or the verdict.</p>`;
}

const link = (href: string) => /^https?:\/\//i.test(href)
  ? `<a href="${esc(href)}" rel="noopener noreferrer">${esc(href)}</a>` : esc(href);

function row(d: DeclaredDeviation, ids: ReadonlySet<string>): string {
  const named = d.check ? `check <code>${ids.has(d.check) ? `<a href="#${esc(d.check)}">${esc(d.check)}</a>` : esc(d.check)}</code>`
    : `requirement <code>${esc(d.requirement)}</code>`;
  // A results.json from elsewhere may carry anything here (`report DIR`): a list that is not one reads as empty.
  const covered = Array.isArray(d.covers) ? d.covers : [];
  const covers = covered.length ? covered.map(id => `<a href="#${esc(id)}"><code>${esc(id)}</code></a>`).join(' ') : 'no failed check (unused)';
  const state = [d.expired === true ? 'expired' : '', covered.length ? '' : 'unused'].filter(Boolean).join(' ');
  return `<tr${state ? ` class="${state}"` : ''}><td>${named}</td><td class="covers">${covers}</td><td>${esc(d.justification)}</td>` +
    `<td class="expires">${esc(d.expires)}${d.expired === true ? ' (expired)' : ''}</td><td class="url">${link(d.link)}</td></tr>`;
}

/** The section listing each deviation; empty when the run declared none. */
export function deviationsSection(r: RunResults): string {
  const devs = listed(r);
  if (!devs.length) return '';
  const ids = new Set(r.checks.map(c => c.id));
  return `<section id="deviations"><h2>Declared deviations <small>${counted(devs.length, 'deviation')}</small></h2>
<table><thead><tr><th>deviation for</th><th>covers the failed</th><th>justification</th><th>expires</th><th>link</th></tr></thead>
<tbody>${devs.map(d => row(d, ids)).join('\n')}</tbody></table></section>`;
}
