// index.html: self-contained (no external assets), the verdict at the top,
// the declared deviations when the run had any, then every check grouped by
// suite with its evidence, the problems first and open, the passed checks
// folded; then the counts per suite and the figures.
import { isMustFailure, isWarning, type CheckResult, type RunResults, type Selection } from '../../results/model.ts';
import { counted, countsLine, notRunLines, skipKindOf, VERDICT_LABEL } from '../verdict.ts';
import { esc } from './escape.ts';
import { renderCheckEvidence } from './evidence.ts';
import { categoryOf, CSP, filterBar, FILTER_CSS, filterScript } from './filters.ts';
import { reproduceBox } from './reproduce.ts';
import { FIGURES } from './figures.ts';
import { DEVIATIONS_CSS, deviationsLine, deviationsSection } from './deviations.ts';

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{padding:18px 28px;color:#fff}
header.ok{background:#1f7a3d} header.bad{background:#b3261e} header.incomplete{background:#8a5a00} header.interrupted{background:#5b6270}
header h1{margin:0 0 4px;font-size:22px} header p{margin:2px 0;opacity:.92}
main{padding:8px 28px 40px;max-width:1280px}
h2{margin:26px 0 8px;font-size:18px}
details.check{background:#fff;border:1px solid #dde1e7;border-left:5px solid #999;border-radius:4px;margin:6px 0;padding:6px 10px}
details.check.passed{border-left-color:#1f7a3d} details.check.failed{border-left-color:#b3261e}
details.check.failed.warn{border-left-color:#c77700} details.check.skipped{border-left-color:#8a8f98}
summary{cursor:pointer} .id{font-family:ui-monospace,monospace;font-size:12.5px;color:#445}
.badge{display:inline-block;font-size:11px;padding:1px 6px;border-radius:8px;background:#e4e7ec;margin-left:6px}
.badge.failed{background:#b3261e;color:#fff} .badge.passed{background:#1f7a3d;color:#fff} .badge.warn{background:#c77700;color:#fff}
.msg{margin:6px 0} .ev{margin-top:6px}
pre{background:#f1f3f6;padding:6px 8px;overflow:auto;max-height:360px;font-size:12px;margin:4px 0}
.http{border-top:1px dashed #ccd;padding-top:6px;margin-top:6px} .res.err{color:#b3261e}
table{border-collapse:collapse;font-size:12px} td,th{border:1px solid #dde1e7;padding:2px 6px;text-align:left}
.figure{background:#fff;border:1px solid #dde1e7;border-radius:4px;padding:10px;margin:10px 0;overflow-x:auto}
.curl pre{white-space:pre-wrap;word-break:break-all}
.overview{display:flex;gap:28px;flex-wrap:wrap;margin:14px 0} .overview table{background:#fff}
.overview ul{margin:4px 0;padding-left:18px} .overview a{color:inherit}
.legend{color:#555;font-size:12.5px} .quote{color:#445;font-style:italic;margin:4px 0}
header ul{margin:4px 0;padding-left:20px} .not-selected{color:#555}
.primary-ev{border:2px solid #b3261e;border-radius:4px;padding:4px 8px;margin:6px 0;background:#fffafa}
.primary-ev>.http{border-top:0;margin-top:0;padding-top:0} .primary-ev pre{position:relative} mark{background:#ffd54f;outline:2px solid #b3261e}
.primary-label{font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#b3261e;margin-bottom:2px}
details.more-ev{margin:6px 0} details.more-ev>summary{color:#445;font-size:13px}
tr.violating td{background:#fbe3e0;font-weight:600} .url{word-break:break-all}
details.reproduce{background:#fff;border:1px solid #dde1e7;border-radius:4px;margin:10px 0;padding:6px 10px}
details.reproduce pre{white-space:pre-wrap;word-break:break-all}
details.check table,.overview table{display:block;overflow-x:auto;max-width:100%} details.check,.overview>div{min-width:0}
details.rest{margin:6px 0} details.rest>summary{color:#445;padding:4px 0}
@media (min-width:700px){#filters{position:sticky} details.check,section.suite{scroll-margin-top:72px}}
@media (max-width:699px){#filters{position:static} header,main{padding-left:12px;padding-right:12px} #filters{padding:6px 12px}
header p.run{font-size:12px;overflow-wrap:anywhere}}
`;

/** The checks a report opens on, in this order; the others are folded in each suite. */
const PROBLEM_ORDER = ['failed', 'warning', 'not-run'];

/** Counts per suite and the failures, each linked to its check, so a reader starts where it matters. */
function overview(r: RunResults, suites: Map<string, CheckResult[]>): string {
  const n = (cs: CheckResult[], f: (c: CheckResult) => boolean) => cs.filter(f).length;
  const rows = [...suites].map(([name, cs]) => `<tr><td><a href="#suite-${esc(name)}">${esc(name)}</a></td><td>${n(cs, c => c.status === 'passed')}</td>
<td>${n(cs, isMustFailure)}</td><td>${n(cs, isWarning)}</td><td>${n(cs, c => c.status === 'skipped')}</td></tr>`).join('');
  const item = (c: CheckResult) => `<li><a href="#${esc(c.id)}"><code>${esc(c.id)}</code></a> ${esc(c.message ?? c.title)}</li>`;
  const fails = r.checks.filter(isMustFailure);
  const warns = r.checks.filter(isWarning);
  return `<div class="overview"><table><tr><th>suite</th><th>passed</th><th>failed</th><th>warnings</th><th>skipped</th></tr>${rows}</table>
<div>${fails.length ? `<b>Failed (must)</b><ul id="failures">${fails.map(item).join('')}</ul>` : ''}` +
    `${warns.length ? `<b>Warnings (should, profile)</b><ul id="warnings">${warns.map(item).join('')}</ul>` : ''}
<p class="legend">must: stated by the spec, decides the verdict · should: advice, a failure warns · ` +
    'profile: a decision of docs/profile.md where the spec is silent, never decides</p></div></div>';
}

function check(c: CheckResult): string {
  const warn = isWarning(c);
  const kind = skipKindOf(c);
  const label = warn ? `warning (${c.level})` : kind ? kind : c.status;
  const ex = c.expected !== undefined || c.seen !== undefined
    ? `<p class="msg expected-seen">expected: <code>${esc(c.expected ?? '')}</code><br>seen: <code>${esc(c.seen ?? '')}</code></p>` : '';
  const seconds = typeof c.durationMs === 'number' ? (c.durationMs / 1000).toFixed(2) : esc(c.durationMs);
  // The order a reader needs: what went wrong, expected versus seen, the evidence that shows it, then the rule's words.
  return `<details class="check ${esc(c.status)}${warn ? ' warn' : ''}" id="${esc(c.id)}" data-status="${esc(c.status)}" ` +
    `data-level="${esc(c.level)}" data-suite="${esc(c.suite)}" data-cat="${esc(categoryOf(c))}"${kind ? ` data-skip-kind="${esc(kind)}"` : ''}` +
    `${c.status === 'failed' ? ' open' : ''}>
<summary><span class="badge ${warn ? 'warn' : esc(c.status)}">${esc(label)}</span> ${esc(c.title)} <span class="id">${esc(c.id)}</span>
<span class="badge">spec ${esc(c.spec)}</span><span class="badge">${esc(c.level)}</span> <small>${seconds} s</small></summary>
${c.message ? `<p class="msg">${esc(c.message)}</p>` : ''}${ex}${renderCheckEvidence(c)}` +
    `${c.remedy ? `<p class="msg">to run it: ${esc(c.remedy)}</p>` : ''}` +
    `${c.quote ? `<p class="quote">${c.spec === 'profile' ? 'profile' : `spec ${esc(c.spec)}`}: “${esc(c.quote)}”</p>` : ''}</details>`;
}

/** What the run was asked to check, one line: suites, grep, profile, time scale, wait budget (and what other commands record). */
function selectionLine(sel: Selection | undefined, timeScale: number): string {
  const parts: string[] = [];
  if (sel?.suites) parts.push(`suites ${sel.suites.join(', ')}`);
  if (sel?.grep !== undefined) parts.push(`grep '${sel.grep}'`);
  if (sel?.profile !== undefined) parts.push(`profile checks ${sel.profile ? 'on' : 'off'}`);
  parts.push(`time scale ${sel?.timeScale ?? timeScale}`);
  if (sel?.maxWaitS !== undefined) parts.push(`max wait ${sel.maxWaitS} s`);
  if (sel?.apiVersion !== undefined) parts.push(`API version ${sel.apiVersion}`);
  // --api-version detect: the sentence that says what answered (the probes are in results.json).
  const detected = (sel?.apiVersionDetected as { why?: unknown } | undefined)?.why;
  if (typeof detected === 'string') parts.push(`detected: ${detected}`);
  for (const [k, v] of Object.entries(sel ?? {})) {
    if (['suites', 'grep', 'profile', 'timeScale', 'maxWaitS', 'apiVersion', 'apiVersionDetected'].includes(k) || v === undefined) continue;
    parts.push(`${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return parts.map(p => esc(p)).join(' · ');
}

export function renderPage(r: RunResults): string {
  const s = r.summary;
  const verdict = s.verdict ?? (s.conformant ? 'conformant' : 'not-conformant');
  const tone = verdict === 'conformant' ? 'ok' : verdict === 'not-conformant' ? 'bad' : verdict;
  const listed = r.checks.filter(c => skipKindOf(c) !== 'not-selected');
  const notSelected = [...(r.notSelected ?? []), ...r.checks.filter(c => skipKindOf(c) === 'not-selected')];
  const suites = new Map<string, CheckResult[]>();
  for (const c of listed) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const target = Object.entries(r.target).filter(([, v]) => v).map(([k, v]) => `${esc(k)}: ${esc(v)}`).join(' · ');
  const figures = FIGURES.map(f => f(r)).filter(Boolean).map(f => `<div class="figure">${f}</div>`).join('\n');
  // Problems first: suites with a problem before the others, and in each suite its failures, warnings and
  // checks not run open at the top; its passed and not-applicable checks folded, one click away.
  const problemRank = (c: CheckResult) => PROBLEM_ORDER.indexOf(categoryOf(c));
  const ordered = [...suites].map(([name, cs]) => ({ name, cs, problems: cs.filter(c => problemRank(c) >= 0) }))
    .sort((a, b) => Number(!a.problems.length) - Number(!b.problems.length));
  const groups = ordered.map(({ name, cs, problems }) => {
    const failed = cs.filter(c => c.status === 'failed').length;
    const rest = cs.filter(c => problemRank(c) < 0);
    const restWords = [`${rest.filter(c => c.status === 'passed').length} passed`,
      ...(rest.some(c => c.status !== 'passed') ? [`${rest.filter(c => c.status !== 'passed').length} not applicable`] : [])].join(', ');
    const heading = `${esc(name)} <small>${counted(cs.length, 'check')}${failed ? `, ${failed} failed` : ''}</small>`;
    return `<section class="suite" id="suite-${esc(name)}"><h2>${heading}</h2>\n` +
      `${[...problems].sort((a, b) => problemRank(a) - problemRank(b)).map(check).join('\n')}` +
      `${rest.length ? `<details class="rest"><summary>${esc(restWords)}</summary>\n${rest.map(check).join('\n')}</details>` : ''}</section>`;
  }).join('\n');
  const notRun = verdict === 'incomplete' || verdict === 'not-conformant' ? notRunLines(r.checks) : [];
  const stopped = verdict === 'interrupted' ? '<p>The run was stopped before it finished: run it again to get a verdict.</p>' : '';
  const unselected = notSelected.length ?
    `<details class="not-selected" id="not-selected"><summary>${counted(notSelected.length, 'check')} not selected</summary><ul>${notSelected
    .map(c => `<li><code>${esc(c.id)}</code> ${esc(c.message ?? '')}</li>`).join('')}</ul></details>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${esc(r.tool.name)} ${esc(r.command)}: ${esc(VERDICT_LABEL[verdict] ?? verdict)}</title><style>${CSS}${FILTER_CSS}${DEVIATIONS_CSS}</style></head>
<body><header class="${esc(tone)}"><h1 id="verdict" data-verdict="${esc(verdict)}" data-conformant="${s.conformant === true}">` +
    `${esc(VERDICT_LABEL[verdict] ?? verdict)}</h1>
<p id="counts">${esc(countsLine(s))}</p>${deviationsLine(r)}${stopped}
${notRun.length ? `<ul id="not-run">${notRun.map(l => `<li>${esc(l)}</li>`).join('')}</ul>` : ''}
<p class="run">${esc(r.tool.name)} ${esc(r.tool.version)} · ${esc(r.command)} · ${target}</p>
<p class="run" id="selection">${selectionLine(r.selection, r.timeScale)} · ${esc(r.startedAt)} → ${esc(r.finishedAt)}</p></header>
${listed.length ? filterBar(listed) : ''}
<main>${reproduceBox(r)}${deviationsSection(r)}${groups || '<p>No checks ran.</p>'}${listed.length ? overview(r, suites) : ''}${unselected}${figures}</main>` +
    `${listed.length ? filterScript() : ''}</body></html>
`;
}
