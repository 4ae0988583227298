// The figures README.md quotes are the ones the code computes: the checks
// `npm start` runs and bench/RESULTS.md's time for it, the coverage figures
// and the untestable requirements, and each API version's requirements and
// checks (scripts/figures-doc.ts writes them between marks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FIGURES_README, figuresReadme } from '../../scripts/figures-doc.ts';
import { CATALOG } from '../../suites/catalog/index.ts';
import { coverage } from '../../harness/requirements/coverage.ts';
import { loadProofs, loadRequirements } from '../../harness/requirements/load.ts';

test('README.md\'s figures are up to date (run npx tsx scripts/figures-doc.ts)', () => {
  assert.equal(readFileSync(FIGURES_README, 'utf8'), figuresReadme());
});

test('a figure that differs from the code is found: a changed count makes the page out of date', () => {
  const page = readFileSync(FIGURES_README, 'utf8');
  const f = coverage(loadRequirements(), loadProofs(), CATALOG).figures;
  const line = `- ${f.requirements} requirements: `;
  assert.ok(page.includes(line), `README.md says ${line}`);
  const stale = page.replace(line, `- ${f.requirements - 5} requirements: `);
  assert.notEqual(stale, page);
  assert.equal(figuresReadme(stale), page, 'the generator puts the computed figure back');
  assert.throws(() => figuresReadme(page.replace('<!-- End of the generated figures. -->', '')), /has lost the marks of its figures/);
});

test('the npm start figure quotes bench/RESULTS.md, or says it has no time yet', () => {
  const bench = '| `npm start` (run, bundled reference, time scale 0.1) | 12.5 (12.5, 11.0, 13.1) | 9 | 7 | 1.3 | x | yes | ok |\n';
  const page = readFileSync(FIGURES_README, 'utf8');
  assert.match(figuresReadme(page, `(load average 0.4 at the end)\n${bench}`), /measured 12\.5 s \(median of 3 runs\) on a shared 2-core machine at load average 0\.4/);
  assert.match(figuresReadme(page, ''), /bench\/RESULTS\.md has no time for it yet/);
});

test('the npm test figure quotes the whole command of bench/RESULTS.md, or says it has no time yet', () => {
  const bench = '<!-- tests.bench -->\nRun x, load average 0.3 at the start (quiet) and 1.0 at the end.\n' +
    '| what | wall s | runs | CPU s | outcome |\n| `npm test`, all of it | 777.0 | 330.2 | 1139.6 | exit 0 |\n<!-- /tests.bench -->\n';
  const page = readFileSync(FIGURES_README, 'utf8');
  assert.match(figuresReadme(page, bench), /measured 777\.0 s \(about 13 minutes\) and 1139\.6 CPU s on a shared 2-core machine at load average 0\.3 at the start\./);
  assert.match(figuresReadme(page, ''), /bench\/RESULTS\.md has no time for the whole command yet/);
});

test('the settings README.md states in prose are the code\'s: bundled time scale and lifetimes, --max-wait, the bank cap, the log line', async () => {
  const { BUNDLED_TIME_SCALE, bundledLifetimes } = await import('../../harness/runner/bundled.ts');
  const { DEFAULT_BANKS } = await import('../../harness/config/banks.ts');
  const { shownDefault, TARGET_OPTIONS } = await import('../../harness/config/options.ts');
  const { LiveStatus } = await import('../../harness/report/wait.ts');
  const page = readFileSync(FIGURES_README, 'utf8').replace(/\s*\n\s*/g, ' ');
  const life = bundledLifetimes(BUNDLED_TIME_SCALE);
  const maxWait = shownDefault(TARGET_OPTIONS.find(o => o.name === 'max-wait')!);
  assert.ok(DEFAULT_BANKS.kind === 'max');
  // The log line: after this many ms of silence LiveStatus writes one.
  const lines: string[] = [];
  let now = 0;
  // Its last output is stamped at construction by the real clock: the fake one starts just after.
  const s = new LiveStatus({ write: (t: string) => lines.push(t) }, undefined, () => now);
  const t0 = now = Date.now();
  s.begin('x');
  while (!lines.length && now - t0 < 60_000) { now += 1000; s.tick(); }
  const everyS = (now - t0) / 1000;
  for (const said of [`time scale ${BUNDLED_TIME_SCALE}:`, `lifetimes of ${life.accessS} and ${life.refreshS} spec seconds`,
    `(default ${maxWait} s;`, `at most ${DEFAULT_BANKS.n}`, `a line every ${everyS} s in a log`])
    assert.ok(page.includes(said), `README.md says "${said}"`);
});
