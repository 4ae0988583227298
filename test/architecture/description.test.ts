// The promise of docs/profile.md: a must check never depends on a shape that
// the profile chose and a real implementation may do differently. The checks
// and the support code that reads answers reach such values only through the
// target description (suites/support/describe.ts): this scan fails on a read
// of a profile-only shape anywhere else, outside the list of known exceptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';

/** Reads of profile-only shapes: link arrays, the bank's country, confirm-funds' answer, ids and statuses read straight off a body. */
const SHAPES: { what: string; re: RegExp }[] = [
  { what: 'a links array', re: /\blinks\(|\.links\b/ },
  { what: 'a field the profile names (countryCode, fundsAvailable, balances)', re: /\.(fundsAvailable|countryCode|balances)\b/ },
  { what: 'an answer field read off the body', re: /(obj\([^)]*\)|\.json|\bbody!?)\??\.(sessionId|paymentId|status|bankId|consentId)\b/ },
];

/** Known exceptions, each with its reason: a file, the text of the line, why it may read the profile's shape. */
const EXCEPTIONS: { file: string; line: string; why: string }[] = [
  { file: 'suites/checks/session/lifecycle.ts', line: 'body.bankId === await sessionBank()',
    why: 'session.lifecycle.status-fields is a profile check of the consent status answer docs/profile.md shows' },
  { file: 'suites/support/sessions.ts', line: 'obj(res)?.consentId',
    why: 'before API version 3.0.0 the consent answer is the profile\'s own (docs/profile.md, API versions); the description has no key for it' },
];

/** The code scanned: every check, and the support files that read answers; describe.ts is the accessor. */
const SUPPORT = ['api.ts', 'banks.ts', 'sessions.ts', 'payments.ts', 'payment-banks.ts', 'payment-data.ts'].map(f => `suites/support/${f}`);

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

function findings(files: string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) return;
      for (const s of SHAPES) {
        if (!s.re.test(line)) continue;
        if (EXCEPTIONS.some(x => x.file === file && line.includes(x.line))) continue;
        out.push(`${file}:${i + 1}: ${s.what}, read outside suites/support/describe.ts: ${line.trim()}`);
      }
    });
  }
  return out;
}

test('checks and the support code read profile-only shapes only through the target description', () => {
  const files = [...tsFiles('suites/checks'), ...SUPPORT];
  assert.ok(files.length > 30, `only ${files.length} files scanned`);
  assert.deepEqual(findings(files), []);
});

test('every known exception still matches a line (a stale one would hide a new read)', () => {
  for (const x of EXCEPTIONS) assert.ok(readFileSync(join(ROOT, x.file), 'utf8').includes(x.line), `${x.file}: '${x.line}' is gone: remove the exception`);
});

test('the scan finds each shape it looks for', () => {
  const samples = ['const l = links(res.json);', 'if (b.countryCode === cc)', 'account.balances[0]',
    'const v = obj(res)?.fundsAvailable;', 'const id = res.json.sessionId;',
    'const s = obj(res)?.status;', 'body!.paymentId'];
  for (const line of samples) assert.ok(SHAPES.some(s => s.re.test(line)), line);
  assert.ok(!SHAPES.some(s => s.re.test('const id = sessionIdOf(res.json);')), 'a read through the accessor');
});
