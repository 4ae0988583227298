// junit.xml: one testcase per check (docs/report.md). A failed `should`
// or `profile` check is not a JUnit failure (it does not decide the verdict);
// it is reported in system-out so a CI view still shows it. A skipped check's
// message starts with its kind (not-run, not-applicable); checks the selection
// left out are not testcases, the suites' properties record the selection and
// the verdict, and each testcase carries the spec sentence it enforces. A
// testcase is named by the check id alone (a title may be reworded; CI history
// follows the name); its title, level and spec are properties. A failure's body
// is expected and seen first, then the exchange and the curl line that repeats
// it. An Incomplete or Interrupted run adds a "verdict" testsuite whose one
// testcase is an error, so a CI view is red whenever the exit status is not 0.
import { isMustFailure, isWarning, type CheckResult, type RunResults } from '../results/model.ts';
import { primaryExchange, reproduceLine } from './progress.ts';
import { skipKindOf, VERDICT_LABEL, verdictLines } from './verdict.ts';

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

/** Of a response body in a failure's text, this many characters (arbitrary: a CI view shows a screen or two). */
const BODY_CHARS = 2000;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A failure's text: expected and seen, the message, then the exchange it points at and its curl line. */
function failureText(c: CheckResult): string {
  const ex = primaryExchange(c);
  const body = ex?.response?.body;
  const shown = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  const curl = reproduceLine(c);
  return [
    c.expected !== undefined ? `expected: ${c.expected}` : '', c.seen !== undefined ? `seen: ${c.seen}` : '', c.message ?? '',
    ex ? `exchange: ${ex.request.method} ${ex.request.url} -> ${ex.response ? ex.response.status : ex.error ?? 'no answer'}` : '',
    shown ? `response body:\n${cut(shown, BODY_CHARS)}` : '',
    curl ? `reproduce:\n${curl}` : '',
  ].filter(Boolean).join('\n');
}

function testcase(c: CheckResult): string {
  const attrs = `classname="${xmlEscape(`${c.suite}`)}" name="${xmlEscape(c.id)}" time="${seconds(c.durationMs)}"`;
  const detail = failureText(c);
  const props = `<properties>${property('title', c.title)}${property('level', c.level)}${property('spec', c.spec)}` +
    `${c.quote ? property('quote', c.quote) : ''}${c.requirements?.length ? property('requirements', c.requirements.join(' ')) : ''}</properties>`;
  const open = `    <testcase ${attrs}>${props}`;
  if (c.status === 'skipped') {
    const why = `${skipKindOf(c)}: ${c.message ?? ''}${c.remedy ? ` (to run it: ${c.remedy})` : ''}`;
    return `${open}<skipped message="${xmlEscape(why)}"/></testcase>`;
  }
  if (isMustFailure(c))
    return `${open}<failure message="${xmlEscape(c.message ?? 'failed')}" type="${xmlEscape(c.level)}">${xmlEscape(detail)}</failure></testcase>`;
  if (isWarning(c))
    return `${open}<system-out>${xmlEscape(`warning (${c.level}): ${detail}`)}</system-out></testcase>`;
  return `${open}</testcase>`;
}

/** For a verdict that is neither a pass nor decided by failed checks: one testsuite with one errored testcase. */
function verdictSuite(r: RunResults, props: string): string | undefined {
  const v = r.summary.verdict;
  if (v !== 'incomplete' && v !== 'interrupted') return undefined;
  const [head, ...rest] = verdictLines(r.summary, r.checks);
  return `  <testsuite name="verdict" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n${props}\n` +
    `    <testcase classname="verdict" name="verdict" time="0.000"><error message="${xmlEscape(head)}" type="${xmlEscape(VERDICT_LABEL[v])}">` +
    `${xmlEscape([head, ...rest].join('\n'))}</error></testcase>\n  </testsuite>`;
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
  });
  const verdict = verdictSuite(r, props);
  const failures = listed.filter(isMustFailure).length;
  const skipped = listed.filter(c => c.status === 'skipped').length;
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${xmlEscape(`${r.tool.name} ${r.command}`)}" tests="${listed.length + (verdict ? 1 : 0)}" failures="${failures}" ` +
    `errors="${verdict ? 1 : 0}" skipped="${skipped}">\n${[...body, ...(verdict ? [verdict] : [])].join('\n')}\n</testsuites>\n`;
}
