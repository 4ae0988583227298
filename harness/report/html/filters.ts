// Find things in index.html without a server: filters by status, level and
// suite and a search box, as Playwright's report has. The page carries the
// script inline (it is one self-contained file) and allows only that script
// (a Content-Security-Policy with its hash), so a value in the results that
// escaped escaping still could not run. The script reads data-* attributes
// and text only, and writes only `hidden` and a count: no HTML is built.
import { createHash } from 'node:crypto';
import { isWarning, type CheckResult } from '../../results/model.ts';
import { skipKindOf } from '../verdict.ts';
import { esc } from './escape.ts';

/** The status a filter knows a check by. */
export function categoryOf(c: CheckResult): string {
  if (c.status === 'failed') return isWarning(c) ? 'warning' : 'failed';
  if (c.status === 'skipped') return skipKindOf(c) ?? 'not-run';
  return 'passed';
}

const CATEGORIES: Array<[string, string]> = [['failed', 'failed'], ['warning', 'warnings'], ['not-run', 'not run'],
  ['not-applicable', 'not applicable'], ['passed', 'passed']];
const LEVELS = ['must', 'should', 'profile'];

const SCRIPT = `(() => {
  const checks = [...document.querySelectorAll('details.check')];
  const boxes = [...document.querySelectorAll('#filters input[type=checkbox]')];
  const search = document.getElementById('search');
  const shown = document.getElementById('shown');
  const text = new Map(checks.map(c => [c, c.textContent.toLowerCase()]));
  const apply = () => {
    const on = { cat: new Set(), level: new Set(), suite: new Set() };
    for (const b of boxes) if (b.checked) on[b.dataset.group].add(b.value);
    const words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let n = 0;
    for (const c of checks) {
      const keep = on.cat.has(c.dataset.cat) && on.level.has(c.dataset.level) && on.suite.has(c.dataset.suite) && words.every(w => text.get(c).includes(w));
      c.hidden = !keep;
      if (keep) n++;
    }
    // A suite's folded passed checks: hidden when none is kept, opened when a search found one there.
    for (const r of document.querySelectorAll('details.rest')) {
      const kept = !!r.querySelector('details.check:not([hidden])');
      r.hidden = !kept;
      if (kept && words.length) r.open = true;
    }
    for (const s of document.querySelectorAll('section.suite')) s.hidden = !s.querySelector('details.check:not([hidden])');
    shown.textContent = n === checks.length ? 'all ' + n + ' checks shown' : n + ' of ' + checks.length + ' checks shown';
  };
  for (const b of boxes) b.addEventListener('change', apply);
  search.addEventListener('input', apply);
  document.getElementById('only-problems').addEventListener('click', () => {
    for (const b of boxes) if (b.dataset.group === 'cat') b.checked = b.value !== 'passed' && b.value !== 'not-applicable';
    apply();
  });
  document.getElementById('show-all').addEventListener('click', () => { for (const b of boxes) b.checked = true; search.value = ''; apply(); });
  // A marked value far down a long body: its box scrolls to it.
  for (const m of document.querySelectorAll('.primary-ev pre mark')) m.parentElement.scrollTop = Math.max(0, m.offsetTop - 40);
  apply();
})();`;

/** The Content-Security-Policy of the page: inline styles, data: images, and this one script. */
export const CSP = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;

export const FILTER_CSS = `
#filters{top:0;z-index:2;background:#fff;border-bottom:1px solid #dde1e7;padding:6px 28px;display:flex;flex-wrap:wrap;` +
  `gap:6px 16px;align-items:center;font-size:13px}
#filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:2px 8px;align-items:center}
#filters legend{float:left;color:#556;margin-right:4px;padding:0} #filters label{white-space:nowrap}
#filters input[type=search]{min-width:12em;flex:1 1 14em;max-width:28em;padding:3px 6px;font:inherit}
#filters button{font:inherit;padding:2px 8px} #shown{color:#556}
`;

export function filterBar(checks: readonly CheckResult[]): string {
  const count = (f: (c: CheckResult) => boolean) => checks.filter(f).length;
  const box = (group: string, value: string, label: string, n: number) =>
    `<label><input type="checkbox" data-group="${esc(group)}" value="${esc(value)}" checked> ${esc(label)} <small>${n}</small></label>`;
  const suites = [...new Set(checks.map(c => c.suite))];
  return `<nav id="filters" aria-label="Filter the checks">
<fieldset><legend>status</legend>${CATEGORIES.map(([v, l]) => box('cat', v, l, count(c => categoryOf(c) === v))).join('')}</fieldset>
<fieldset><legend>level</legend>${LEVELS.map(l => box('level', l, l, count(c => c.level === l))).join('')}</fieldset>
<fieldset><legend>suite</legend>${suites.map(s => box('suite', s, s, count(c => c.suite === s))).join('')}</fieldset>
<input type="search" id="search" placeholder="search ids, titles, messages, evidence" aria-label="Search the checks">
<button type="button" id="only-problems">problems only</button><button type="button" id="show-all">show all</button>
<span id="shown" aria-live="polite"></span></nav>`;
}

export function filterScript(): string {
  return `<script>${SCRIPT}</script>`;
}
