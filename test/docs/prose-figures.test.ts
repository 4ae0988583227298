// The figures README.md and docs/*.md state in prose that no generator writes
// (defaults, limits, lifetimes, sizes), each held to the code it describes.
// The generated figures are tested in figures-doc.test.ts, checks-doc.test.ts
// and options-doc.test.ts; others where their code is tested:
// test/run/token-only.test.ts (the not-run line), test/sink/strangers.test.ts
// (200 strangers kept), test/suites/stalls.test.ts (the stall budget),
// test/package/install.test.ts (the tarball's name), figures-doc.test.ts (the
// bundled time scale and lifetimes, --max-wait, the bank cap, the log line).
// A constant a module keeps to itself is read from its source: the test names
// the file, so a rename fails here with the place to look.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';
import { SHOWN_LIFETIMES } from '../../harness/reference/lifetimes.ts';
import { neededMaxWait } from '../../suites/support/waits.ts';
import { shownDefault, TARGET_OPTIONS } from '../../harness/config/options.ts';
import { timing } from '../../harness/certify/options.ts';
import { specClock } from '../../harness/clock.ts';
import { MIN_RETRY_DELAY_MS } from '../../harness/sink/checks/view.ts';
import { LONG_CHAIN_FAILURES, SUITE_PLANS } from '../../harness/sink/plan.ts';
import { BUNDLED_TIME_SCALE } from '../../harness/runner/bundled.ts';
import { STRANGER_SAMPLE } from '../../harness/sink/server.ts';

/** A page with its line breaks and runs of spaces made one space, as a reader reads it. */
const page = (file: string) => readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');

/** A numeric constant of a source file: `const NAME = 4096;` or `1024 * 1024`. */
function constantOf(file: string, name: string): number {
  const m = new RegExp(`const ${name}\\s*=\\s*([\\d_ *]+);`).exec(readFileSync(join(ROOT, file), 'utf8'));
  assert.ok(m, `${file} no longer defines ${name}: find where the figure lives now and read it from there`);
  return m[1]!.split('*').map(n => Number(n.replace(/_/g, '').trim())).reduce((a, b) => a * b, 1);
}

const KIB = 1024, MIB = 1024 * 1024;

test('README.md: serve-reference\'s lifetimes, the --max-wait a lifetime needs, the phone width, the Node.js version', () => {
  const readme = page('README.md');
  assert.ok(readme.includes(`\`serve-reference\` keeps the spec's ${SHOWN_LIFETIMES.accessS} and ${SHOWN_LIFETIMES.refreshS})`),
    'README.md states serve-reference\'s default lifetimes');
  assert.ok(readme.includes(`\`raise --max-wait to ${neededMaxWait(SHOWN_LIFETIMES.accessS * 1000)}\``),
    'README.md\'s example of the not-run remedy is what a 3600 s lifetime asks for');
  const widths = [...readFileSync(join(ROOT, 'test/report/page.test.ts'), 'utf8').matchAll(/\[(\d+), \d+\]/g)].map(m => Number(m[1]));
  const narrow = Math.min(...widths);
  assert.ok(readme.includes(`The page fits a ${narrow} px wide phone screen`),
    `README.md names the width test/report/page.test.ts opens the page at (${narrow})`);
  const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  const major = /^>=(\d+)$/.exec(engines)?.[1];
  assert.ok(major && readme.includes(`Node.js ${major} or newer`), `README.md names package.json's engines (${engines})`);
});

test('docs/report.md: what is kept of a stranger, the default retry wait, the call timeouts, the timing tolerance', () => {
  const doc = page('docs/report.md');
  const body = constantOf('harness/sink/body.ts', 'KEPT_BODY_BYTES'), headers = constantOf('harness/sink/recorder.ts', 'MAX_HEADER_TEXT');
  assert.ok(doc.includes(`at most ${body / KIB} KiB of body and ${headers / KIB} KiB of headers, so under 2 MiB in all`));
  assert.ok(STRANGER_SAMPLE * (body + headers) < 2 * MIB, 'the strangers kept fit under 2 MiB');
  const retryWait = shownDefault(TARGET_OPTIONS.find(o => o.name === 'retry-wait')!);
  assert.ok(doc.includes(`(\`--retry-wait\`, ${retryWait} spec s by default)`));
  const headersS = constantOf('harness/http/exchange.ts', 'DEFAULT_TIMEOUT_MS') / 1000;
  // exchange.ts: the total deadline is twice the wait for the headers unless a call sets its own.
  assert.match(readFileSync(join(ROOT, 'harness/http/exchange.ts'), 'utf8'), /deadlineMs = req\.deadlineMs \?\? 2 \* timeout;/);
  assert.ok(doc.includes(`${headersS} s for the headers and between body chunks, ${2 * headersS} s for the whole call`));
  const tol = /tolerance of max\((\d+) ms, (\d+) % of the expected value\)/.exec(doc);
  assert.ok(tol, 'docs/report.md states the timing tolerance');
  const [floor, pct] = [Number(tol[1]), Number(tol[2])];
  for (const scale of [0.001, 0.02, 0.1, 1]) {
    const t = timing(specClock(scale));
    assert.equal(t.toleranceMs, Math.max(floor, t.limitMs * pct / 100), `the tolerance at time scale ${scale}`);
  }
});

test('docs/architecture.md\'s backoff chain and docs/cli.md\'s config file cap', () => {
  const held = SUITE_PLANS.find(p => p.role === 'held')!;
  const failures = held.answers.filter(a => a === 'status-500').length;
  const chain = Array.from({ length: failures }, (_, i) => MIN_RETRY_DELAY_MS / 1000 * 2 ** i);
  assert.ok(page('docs/architecture.md').includes(`chain (${chain.join(' + ')} spec seconds)`),
    `docs/architecture.md names the held checkout's chain (${chain.join(' + ')})`);
  const cap = constantOf('harness/config/yaml.ts', 'MAX_YAML_BYTES');
  assert.ok(page('docs/cli.md').includes(`a file over ${cap / MIB} MiB stops`));
});

test('README.md\'s long chain: 6 failures in a row, about 630 spec s of doubling backoff, 63 s at the bundled reference\'s time scale', () => {
  const chainS = Array.from({ length: LONG_CHAIN_FAILURES }, (_, i) => MIN_RETRY_DELAY_MS / 1000 * 2 ** i).reduce((a, b) => a + b, 0);
  const text = page('README.md');
  assert.ok(text.includes(`an event that failed ${LONG_CHAIN_FAILURES} times in a row is attempted again (about ${chainS} spec s of backoff, ` +
    `${chainS * BUNDLED_TIME_SCALE} s at the bundled reference's time scale)`), 'README.md states the long chain as the code makes it');
});
