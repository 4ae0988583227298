// junit.xml: one testcase per check (CONTRACT.md section 2). A failed `should`
// or `profile` check is not a JUnit failure (it does not decide the verdict);
// it is reported in system-out so a CI view still shows it. A skipped check's
// message starts with its kind (not-run, not-applicable); checks the selection
// left out are not testcases, the suites' properties record the selection and
// the verdict, and each testcase carries the spec sentence it enforces.
import { isMustFailure, isWarning, type CheckResult, type RunResults } from './model.ts';
import { skipKindOf } from './verdict.ts';

export function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' }[c]!))
    // XML 1.0 forbids most control characters even when escaped.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');
}

const property = (name: string, value: unknown) => `<property name="${xmlEscape(name)}" value="${xmlEscape(typeof value === 'string' ? value : JSON.stringify(value) ?? '')}"/>`;

function testcase(c: CheckResult): string {
  const attrs = `classname="${xmlEscape(`${c.suite}`)}" name="${xmlEscape(`${c.id} [${c.level}, spec ${c.spec}] ${c.title}`)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
  const detail = [c.message, c.expected !== undefined ? `expected: ${c.expected}` : '', c.seen !== undefined ? `seen: ${c.seen}` : '']
    .filter(Boolean).join('\n');
  const props = c.quote || c.requirements?.length
    ? `<properties>${c.quote ? property('quote', c.quote) : ''}${c.requirements?.length ? property('requirements', c.requirements.join(' ')) : ''}</properties>` : '';
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
    property('verdict', s.verdict), property('command', r.command), property('timeScale', String(r.timeScale)),
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
    const time = cs.reduce((t, c) => t + c.durationMs, 0) / 1000;
    return `  <testsuite name="${xmlEscape(name)}" tests="${cs.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">\n${props}\n${cs.map(testcase).join('\n')}\n  </testsuite>`;
  }).join('\n');
  const failures = listed.filter(isMustFailure).length;
  const skipped = listed.filter(c => c.status === 'skipped').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlEscape(`${r.tool.name} ${r.command}`)}" tests="${listed.length}" failures="${failures}" skipped="${skipped}">\n${body}\n</testsuites>\n`;
}
