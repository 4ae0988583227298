// junit.xml: one testcase per check (docs/report.md). A failed `should`
// or `profile` check is not a JUnit failure (it does not decide the verdict);
// it is reported in system-out so a CI view still shows it. A skipped check's
// message starts with its kind (not-run, not-applicable); checks the selection
// left out are not testcases, the suites' properties record the selection and
// the verdict, and each testcase carries the spec sentence it enforces.
import { isMustFailure, isWarning, type CheckResult, type RunResults } from './model.ts';
import { skipKindOf } from './verdict.ts';

/**
 * Text for an XML attribute or element. XML 1.0 allows only tab, line feed,
 * carriage return, U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF, even
 * escaped: the other control characters are dropped, and U+FFFE, U+FFFF and a
 * surrogate without its pair (a body cut in the middle of a character) become
 * U+FFFD, so a target's body can never make junit.xml ill-formed.
 */
function xmlEscape(s: unknown): string {
  return String(s ?? '').replace(/[<>&'"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' }[c]!))
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Seconds for a time attribute: a number of milliseconds, anything else as 0. */
const seconds = (ms: unknown) => ((typeof ms === 'number' && Number.isFinite(ms) ? ms : 0) / 1000).toFixed(3);

const property = (name: string, value: unknown) =>
  `<property name="${xmlEscape(name)}" value="${xmlEscape(typeof value === 'string' ? value : JSON.stringify(value) ?? '')}"/>`;

function testcase(c: CheckResult): string {
  const attrs = `classname="${xmlEscape(`${c.suite}`)}" name="${xmlEscape(`${c.id} [${c.level}, spec ${c.spec}] ${c.title}`)}" time="${seconds(c.durationMs)}"`;
  const detail = [c.message, c.expected !== undefined ? `expected: ${c.expected}` : '', c.seen !== undefined ? `seen: ${c.seen}` : '']
    .filter(Boolean).join('\n');
  const props = c.quote || c.requirements?.length
    ? `<properties>${c.quote ? property('quote', c.quote) : ''}` +
      `${c.requirements?.length ? property('requirements', c.requirements.join(' ')) : ''}</properties>` : '';
  const open = `    <testcase ${attrs}>${props}`;
  if (c.status === 'skipped') {
    const why = `${skipKindOf(c)}: ${c.message ?? ''}${c.remedy ? ` (to run it: ${c.remedy})` : ''}`;
    return `${open}<skipped message="${xmlEscape(why)}"/></testcase>`;
  }
  if (isMustFailure(c))
    return `${open}<failure message="${xmlEscape(c.message ?? 'failed')}" type="${xmlEscape(c.level)}">${xmlEscape(detail)}</failure></testcase>`;
  if (isWarning(c))
    return `${open}<system-out>${xmlEscape(`warning (${c.level}): ${detail}`)}</system-out></testcase>`;
  return props ? `${open}</testcase>` : `    <testcase ${attrs}/>`;
}

/** The verdict and what was selected, as properties of every testsuite (JUnit has no run-level properties). */
function runProperties(r: RunResults): string {
  const s = r.summary;
  const props = [
    property('verdict', s.verdict), property('command', r.command), property('timeScale', r.timeScale),
    ...Object.entries(r.selection ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => property(`selection.${k}`, v)),
    property('notSelected', String(s.notSelected ?? 0)),
  ];
  return `    <properties>${props.join('')}</properties>`;
}

export function renderJunit(r: RunResults): string {
  const listed = r.checks.filter(c => skipKindOf(c) !== 'not-selected');
  const suites = new Map<string, CheckResult[]>();
  for (const c of listed) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const props = runProperties(r);
  const body = [...suites].map(([name, cs]) => {
    const failures = cs.filter(isMustFailure).length;
    const skipped = cs.filter(c => c.status === 'skipped').length;
    const time = seconds(cs.reduce((t, c) => t + (typeof c.durationMs === 'number' && Number.isFinite(c.durationMs) ? c.durationMs : 0), 0));
    return `  <testsuite name="${xmlEscape(name)}" tests="${cs.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">\n` +
      `${props}\n${cs.map(testcase).join('\n')}\n  </testsuite>`;
  }).join('\n');
  const failures = listed.filter(isMustFailure).length;
  const skipped = listed.filter(c => c.status === 'skipped').length;
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xmlEscape(`${r.tool.name} ${r.command}`)}" tests="${listed.length}" failures="${failures}" skipped="${skipped}">\n` +
    `${body}\n</testsuites>\n`;
}
