// One spec clock (harness/clock.ts): the timing tolerance max(25 ms, 2 %), the
// check of a time scale and the conversions between spec and real time are
// written there and nowhere else in harness/, suites/ and bin/. A source scan:
// each rule is shown to catch the line it forbids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTimeScale, readTimeScale, specClock } from '../../harness/clock.ts';
import { HarnessError } from '../../harness/errors.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLOCK = 'harness/clock.ts';

const RULES: { what: string; re: RegExp; sample: string }[] = [
  { what: 'the tolerance formula (2 % of a value)', re: /\*\s*0?\.02\b|\b0?\.02\s*\*/, sample: 'const tol = Math.max(25, limitMs * 0.02);' },
  { what: 'a check that a time scale is positive', re: /\b\w*[sS]cale\w*\s*(>|<=)\s*0\b|isFinite\(\s*\w*[sS]cale/,
    sample: "if (!(scale > 0)) throw new HarnessError('PIS_BAD_FLAG', 'bad');" },
  { what: 'a time scale read as a plain number', re: /parseNumber\([^)]*[sS]cale|numberFlag\(\s*'time-scale'|'timeScale'.*kind\.number\(/,
    sample: "const s = parseNumber(scaleFlag, '--time-scale', { above: 0 });" },
  { what: 'a bare multiplication or division by the time scale', re: /[*/]\s*\(?(\w+(\(\))?\.)*[a-z]*[sS]cale\b|\b[a-z]*[sS]cale\)?\s*[*/][^/*]/,
    sample: 'const ms = specMs * target().timeScale;' },
];

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap(e => {
    const p = `${dir}/${e.name}`;
    return e.isDirectory() ? walk(p) : /\.(ts|mts|mjs)$/.test(e.name) ? [p] : [];
  });
}

/** The lines of `text` that break a rule, comments and the viewport's initial-scale left out. */
export function strayClockCode(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line) || line.includes('initial-scale')) return [];
    return RULES.filter(r => r.re.test(line)).map(r => `${file}:${i + 1}: ${r.what}: ${line.trim()} (use harness/clock.ts)`);
  });
}

test('each rule of the scan catches the line it forbids', () => {
  for (const r of RULES) assert.equal(strayClockCode('sample.ts', r.sample).length, 1, r.what);
  assert.deepEqual(strayClockCode('sample.ts', '  // a tolerance is max(25 ms, limit * 0.02)'), []);
});

test('the tolerance, the time-scale check and the spec/real conversions live only in harness/clock.ts', () => {
  const files = ['harness', 'suites', 'bin'].flatMap(walk).filter(f => f !== CLOCK);
  assert.ok(files.length > 100, 'the scan reads the sources');
  const stray = files.flatMap(f => strayClockCode(f, readFileSync(join(ROOT, f), 'utf8')));
  assert.deepEqual(stray, []);
});

test('the spec clock: conversions, the tolerance either side of its floor, one sentence for a bad time scale', () => {
  const c = specClock(0.1);
  assert.equal(c.toReal(5_000), 500);
  assert.equal(c.toSpec(500), 5_000);
  assert.equal(c.tolerance(500), 25);
  assert.equal(c.tolerance(5_000), 100);
  assert.equal(c.specTolerance(5_000), 250);
  assert.equal(c.specTolerance(50_000), 1_000);
  assert.equal(specClock(1, { toleranceFloorMs: 200 }).tolerance(5_000), 200);
  for (const bad of [0, -1, NaN, Infinity]) {
    assert.equal(isTimeScale(bad), false);
    assert.throws(() => specClock(bad), (e: unknown) => e instanceof HarnessError && e.code === 'PIS_BAD_FLAG'
      && e.message === `the time scale must be a positive number, not '${bad}'.`);
  }
  assert.equal(readTimeScale('0.25', '--time-scale'), 0.25);
  for (const bad of ['', ' ', 'fast', '0', '-0.5']) {
    assert.throws(() => readTimeScale(bad, 'PIS_TIME_SCALE', 'PIS_BAD_CONFIG'), (e: unknown) => e instanceof HarnessError
      && e.code === 'PIS_BAD_CONFIG' && e.message === `PIS_TIME_SCALE must be a positive number, not '${bad}'.`);
  }
});
