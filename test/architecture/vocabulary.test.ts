// One check vocabulary (harness/check/), enforced by reading the sources: a
// check concludes with the one Outcome of harness/check/outcome.ts, a
// CheckResult is made only by its toResult(), and a check's level is written
// only where it is registered (must, should, profile). Each rule is shown able
// to fail on a small source of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the vocabulary lives: the only place that may spell an outcome's status or a skip kind. */
const VOCABULARY = 'harness/check/';
const OUTCOME_FILE = 'harness/check/outcome.ts';
/** Where the results model declares CheckResult itself. */
const MODEL_FILE = 'harness/results/model.ts';
/** Where levels are given: the registrations themselves. */
const REGISTRATION_FILE = 'harness/check/def.ts';
/** The code that defines, judges or registers checks: a level written here is a second place severity is set. */
const CHECK_CODE = ['suites/', 'harness/sink/', 'harness/certify/', 'harness/check/'];

interface Source { file: string; text: string }

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap(e => {
    const p = `${dir}/${e.name}`;
    return e.isDirectory() ? walk(p) : /\.(ts|mts|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** Every match of `re` in the sources, as "file:line: text". */
function found(sources: readonly Source[], re: RegExp, keep: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const { file, text } of sources) {
    if (!keep(file)) continue;
    text.split('\n').forEach((line, i) => { if (re.test(line)) out.push(`${file}:${i + 1}: ${line.trim()}`); });
  }
  return out;
}

/** A declared type of outcome other than the one Outcome: another Outcome or Judged, or a type cut from CheckResult with its status. */
export function secondOutcomeTypes(sources: readonly Source[]): string[] {
  return [
    ...found(sources, /^\s*(export\s+)?(interface|type|class)\s+(Outcome|Judged)\b/, f => f !== OUTCOME_FILE),
    ...found(sources, /\bstatus\??:\s*(CheckStatus\b|['"](passed|failed|skipped)['"]\s*\|)|Omit<CheckResult\b/, f => f !== OUTCOME_FILE && f !== MODEL_FILE),
  ];
}

/** A result or outcome written by hand: a check status or a skip kind spelled outside the vocabulary's constructors. */
export function handBuiltResults(sources: readonly Source[]): string[] {
  return found(sources, /\b(status:\s*['"](passed|failed|skipped)['"]|skipKind:\s*['"])/, f => !f.startsWith(VOCABULARY));
}

/** A check's level written outside its registration: a level property, a level argument, a parameter typed as levels. */
export function levelsOutsideRegistration(sources: readonly Source[]): string[] {
  const level = new RegExp([
    /\blevel\s*(:|=(?!=))\s*['"](must|should|profile)['"]/.source, // a level property or assignment
    /\(\s*['"](must|should|profile)['"]\s*\)/.source, // a level as a factory's argument: contract('must')
    /:\s*['"]must['"]\s*\|\s*['"](should|profile)['"]/.source, // a parameter typed as levels
    /\blevel:\s*Level\b/.source, // a parameter that takes a level
  ].join('|'));
  return found(sources, level, f => CHECK_CODE.some(d => f.startsWith(d)) && f !== REGISTRATION_FILE);
}

const sources: Source[] = ['harness', 'suites', 'bin', 'scripts'].flatMap(walk).map(file => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

test('one Outcome type: no second outcome type is declared', () => {
  assert.ok(sources.some(s => s.file === OUTCOME_FILE), `${OUTCOME_FILE} was read`);
  assert.deepEqual(secondOutcomeTypes(sources), []);
});

test('no CheckResult or outcome is written by hand: every one comes from the constructors and toResult() of harness/check', () => {
  assert.deepEqual(handBuiltResults(sources), []);
});

test("a check's level is set only where it is registered", () => {
  assert.deepEqual(levelsOutsideRegistration(sources), []);
});

test('the rules catch a second outcome type, a hand-built result and a level set outside registration', () => {
  const src = (file: string, text: string): Source => ({ file, text });
  assert.equal(secondOutcomeTypes([src('harness/certify/check.ts', 'export interface Outcome {\n  status: CheckStatus;\n}')]).length, 2);
  assert.equal(secondOutcomeTypes([src('harness/report/check.ts', "export type Judged = Omit<CheckResult, 'level'>;")]).length, 2);
  const imported = src('harness/sink/x.ts', "import { passed, type Outcome } from '../check/outcome.ts';");
  assert.deepEqual(secondOutcomeTypes([imported]), [], 'an import is no declaration');
  assert.equal(handBuiltResults([src('suites/webhook.spec.ts', "return { ...meta, status: 'skipped', skipKind: 'not-run', evidence: [] };")]).length, 1);
  assert.equal(handBuiltResults([src('harness/certify/https.ts', "  return {\n    status: 'failed', expected: 'x',\n  };")]).length, 1);
  assert.deepEqual(handBuiltResults([src('harness/check/outcome.ts', "return { status: 'passed', evidence };")]), []);
  assert.deepEqual(handBuiltResults([src('harness/certify/plan.ts', "[{ status: 'STARTED' }]")]), [], 'a checkout status is no check status');
  const levels = levelsOutsideRegistration([
    src('suites/catalog/data.ts', "  must(banks.contract('must')),"),
    src('suites/checks/data/banks.ts', "export const contract = (level: 'must' | 'profile'): Check => ({"),
    src('suites/checks/data/x.ts', "expectContract(c, 'bank', items, level);\nconst r = { id, level: 'should' };"),
    src('harness/sink/checks/y.ts', 'function judge(view: RunView, level: Level) {}'),
  ]);
  assert.equal(levels.length, 4);
  assert.deepEqual(levelsOutsideRegistration([src('harness/check/def.ts', "export const must = registration('must');"),
    src('harness/sink/checks/body.ts', "violations.filter(v => v.level === 'must')"),
    src('harness/contracts/rules.ts', "{ id: 'bic.length', level: 'must' }")]), []);
});
