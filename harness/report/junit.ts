// junit.xml: one testcase per check (CONTRACT.md section 2). A failed `should`
// or `profile` check is not a JUnit failure (it does not decide the verdict);
// it is reported in system-out so a CI view still shows it.
import { isMustFailure, isWarning, type CheckResult, type RunResults } from './model.ts';

export function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' }[c]!))
    // XML 1.0 forbids most control characters even when escaped.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');
}

function testcase(c: CheckResult): string {
  const attrs = `classname="${xmlEscape(`${c.suite}`)}" name="${xmlEscape(`${c.id} [${c.level}, spec ${c.spec}] ${c.title}`)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
  const detail = [c.message, c.expected !== undefined ? `expected: ${c.expected}` : '', c.seen !== undefined ? `seen: ${c.seen}` : '']
    .filter(Boolean).join('\n');
  if (c.status === 'skipped') return `    <testcase ${attrs}><skipped message="${xmlEscape(c.message ?? '')}"/></testcase>`;
  if (isMustFailure(c))
    return `    <testcase ${attrs}><failure message="${xmlEscape(c.message ?? 'failed')}" type="${c.level}">${xmlEscape(detail)}</failure></testcase>`;
  if (isWarning(c))
    return `    <testcase ${attrs}><system-out>${xmlEscape(`warning (${c.level}): ${detail}`)}</system-out></testcase>`;
  return `    <testcase ${attrs}/>`;
}

export function renderJunit(r: RunResults): string {
  const suites = new Map<string, CheckResult[]>();
  for (const c of r.checks) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const body = [...suites].map(([name, cs]) => {
    const failures = cs.filter(isMustFailure).length;
    const skipped = cs.filter(c => c.status === 'skipped').length;
    const time = cs.reduce((t, c) => t + c.durationMs, 0) / 1000;
    return `  <testsuite name="${xmlEscape(name)}" tests="${cs.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">\n${cs.map(testcase).join('\n')}\n  </testsuite>`;
  }).join('\n');
  const failures = r.checks.filter(isMustFailure).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlEscape(`${r.tool.name} ${r.command}`)}" tests="${r.checks.length}" failures="${failures}" skipped="${r.summary.skipped}">\n${body}\n</testsuites>\n`;
}
