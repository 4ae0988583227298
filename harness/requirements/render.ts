// The requirement table of `pis-conformance coverage` as terminal text and as
// a self-contained HTML page. Renderers only read the Coverage they are given.
import { esc } from '../report/html/escape.ts';
import type { CheckCoverage, Coverage, CoverageFigures, CoverageRow } from './coverage.ts';

const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)} %` : '-');

/** The figures the README quotes, one line each. */
function figuresText(f: CoverageFigures): string[] {
  const s = f.byStatus;
  return [
    `Requirements: ${f.requirements} (must ${f.byLevel.must}, should ${f.byLevel.should}, profile ${f.byLevel.profile})`,
    `  covered ${s.covered}, partly covered ${s.partial}, not covered yet ${s.uncovered}, untestable ${s.untestable}`,
    `Checks: ${f.checks}; proven able to fail ${f.checksProven} (${pct(f.checksProven, f.checks)}), ` +
      `informational ${f.checksCannotFail}, without proof ${f.checksUnproven.length}`,
    `Places: ${f.places.requirements} requirements bind a family of places known before a run; their checks exercise ` +
      `${f.places.exercised} of ${f.places.bound} places (${pct(f.places.exercised, f.places.bound)}), ` +
      `${f.places.atEvery} of the ${f.places.requirements} at every place; ${f.places.perTarget} bind a family only a run can list ` +
      `(banks, countries, refresh exchanges, fields), ${f.places.perTargetEvery} of them checked at every member`,
  ];
}

const proofText = (c: CheckCoverage) => c.proofs.length ? c.proofs.join(', ') : c.cannotFail ? 'cannot fail: informational' : 'NO PROOF';

/** One block per requirement: id, where, level, status; then a line per check with its proofs; then the reason. */
export function tableText(cov: Coverage): string {
  const short = (r: CoverageRow) => r.where.replace('docs/profile.md#', 'profile #');
  const width = Math.max(...cov.rows.map(r => r.id.length));
  const where = Math.max(...cov.rows.map(r => short(r).length));
  const lines = [`${'requirement'.padEnd(width)}  ${'section'.padEnd(where)}  ${'level'.padEnd(7)}  status (then each check: the proofs it can fail)`];
  for (const r of cov.rows) {
    const version = r.since !== '1.0.0' ? ` since ${r.since}` : '';
    lines.push(`${r.id.padEnd(width)}  ${short(r).padEnd(where)}  ${r.level.padEnd(7)}  ${r.status}${version}`);
    for (const c of r.checks) lines.push(`${''.padEnd(width)}    ${c.id} [${c.level}]: ${proofText(c)}`);
    if (r.places.family) {
      const missing = r.places.missing?.length ? `; not at ${r.places.missing.join(', ')}` : '';
      lines.push(`${''.padEnd(width)}    places: exercised at ${r.places.text}${missing}`);
    }
    if (r.reason)
      lines.push(`${''.padEnd(width)}    ${r.status === 'partial' ? 'missing' : r.status === 'untestable' ? 'untestable' : 'not covered yet'}: ${r.reason}`);
  }
  return [...lines, '', ...figuresText(cov.figures)].join('\n');
}

const STATUS_CLASS: Record<CoverageRow['status'], string> = { covered: 'ok', partial: 'part', uncovered: 'no', untestable: 'na' };

function rowHtml(r: CoverageRow): string {
  const checks = r.checks.map(c => `<li><code>${esc(c.id)}</code> <span class="lvl">${esc(c.level)}</span>`
    + `<div class="proofs${c.proofs.length || c.cannotFail ? '' : ' none'}">${esc(proofText(c))}</div></li>`).join('');
  const history = [r.since !== '1.0.0' ? `since ${r.since}` : '', r.renamedIn ? `renamed in ${r.renamedIn} (formerly ${r.formerly})` : '',
    r.removedIn ? `removed in ${r.removedIn}` : '']
    .filter(Boolean).join('; ');
  return `<tr class="${STATUS_CLASS[r.status]}"><td><code>${esc(r.id)}</code>`
    + `<div class="where">${esc(r.where)} · ${esc(r.binds)}${history ? ` · ${esc(history)}` : ''}</div></td>`
    + `<td>${esc(r.level)}</td><td><blockquote>${esc(r.quote)}</blockquote></td><td>${checks ? `<ul>${checks}</ul>` : ''}</td>`
    + `<td><b>${esc(r.status)}</b>${r.reason ? `<div class="reason">${esc(r.reason)}</div>` : ''}</td>`
    + `<td>${esc(r.places.text)}${r.places.missing?.length ? `<div class="reason">not at ${esc(r.places.missing.join(', '))}</div>` : ''}</td></tr>`;
}

export function pageHtml(cov: Coverage, generatedAt: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pis-conformance coverage</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222 }
table { border-collapse: collapse; width: 100% } td, th { border-bottom: 1px solid #ddd; padding: .4em; vertical-align: top; text-align: left }
blockquote { margin: 0; color: #444 } ul { margin: 0; padding-left: 1em } .where, .proofs, .reason { color: #666; font-size: 12px }
.proofs.none { color: #b00020; font-weight: bold } .lvl { font-size: 11px; color: #555 }
tr.part td:last-child { background: #fff4d6 } tr.no td:last-child { background: #fde2e1 } ` +
  `tr.na td:last-child { background: #eee } tr.ok td:last-child { background: #e3f5e1 }
</style></head><body>
<h1>Requirements and the checks that enforce them</h1>
<p>${figuresText(cov.figures).map(esc).join('<br>')}</p>
<p class="where">Generated ${esc(generatedAt)} from contracts/requirements.yaml and contracts/proofs.yaml.</p>
<table><thead><tr><th>requirement</th><th>level</th><th>statement</th><th>checks and proofs</th><th>status</th><th>places exercised</th></tr></thead>
<tbody>${cov.rows.map(rowHtml).join('\n')}</tbody></table>
</body></html>
`;
}
