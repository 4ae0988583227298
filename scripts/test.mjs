#!/usr/bin/env node
// The project's test command (`npm test`): type-check everything, lint, look
// for dead code, then run every test/**/*.test.ts with Node's test runner
// through tsx. Extra arguments are file filters: `npm test -- reference` runs
// the tests whose path contains "reference". `--plan` prints, as JSON, which
// files share a process and why the others do not, and runs nothing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants, getPriority, setPriority, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const planOnly = process.argv.includes('--plan');
const filters = process.argv.slice(2).filter(a => a !== '--plan');
// Each phase prints how long it took (bench/tests.bench.ts reads these lines).
const started = Date.now();
const ended = (name, t0) => console.log(`phase: ${name} ended in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? (e.name === 'fixtures' ? [] : walk(join(dir, e.name))) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []);
}

const files = walk(join(root, 'test')).map(f => relative(root, f)).sort()
  .filter(f => !filters.length || filters.some(x => f.includes(x)));
if (!files.length) {
  console.error(`no test file matches ${filters.join(', ')}`);
  process.exit(1);
}

// Lint (eslint.config.js, with no file of suppressions: every rule holds for
// every line, the length cap included) and dead code (knip.json: unused files,
// exports, dependencies), each a process of its own beside the type-check.
// Whole runs only: a filtered run is for one area. PIS_SKIP_LINT=1 skips them.
const lints = filters.length || planOnly || process.env.PIS_SKIP_LINT ? [] : [
  ['eslint', 'eslint/bin/eslint.js', ['.']],
  ['knip', 'knip/bin/knip.js', []],
].map(([name, bin, args]) => new Promise(done => {
  const t0 = Date.now();
  spawn(process.execPath, [join(root, 'node_modules', bin), ...args], { stdio: 'inherit', cwd: root })
    .on('exit', code => done({ name, code, s: ((Date.now() - t0) / 1000).toFixed(1) }));
}));

if (!process.env.PIS_SKIP_TYPECHECK && !planOnly) {
  console.log('type-checking (tsc --noEmit)...');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { stdio: 'inherit', cwd: root });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  ended('type-check', started);
}
for (const { name, code, s } of await Promise.all(lints)) {
  if (code !== 0) process.exit(code ?? 1);
  console.log(`${name}: clean in ${s} s`);
}
if (lints.length) ended('type-check and lint', started);

// Tests mostly wait on servers and compressed clocks, not on the CPU, so more
// files run at once than there are cores; timing assertions carry tolerances.
// The end-to-end runs below judge the whole webhook suite's timing (5 s windows
// and 10 s backoffs at time scale 0.1, a few hundred real ms of allowance) in a
// run of five Playwright workers: beside three other test files on two cores
// they are judged on a machine busier than any user's, so they run one file at
// a time, in a stream of their own. Their own retries (test/sink/stall.ts)
// cover the rest. So do the sink's right-and-wrong-sender cases
// (test/sink/sender-a and -b): their correct senders give up at the edge of the
// 5 s window, which the sink cannot judge once its own lateness passes a few
// hundred ms (2 of 3 clean-clone runs beside the other files, at load 10-13).
// The certificate tests sign whole runs of `npm start` (the webhook suite
// included) that must end Conformant: they run alone too, and so does the
// test of signal copies, whose child handles three signals sent at once within
// one second of its own clock (a starved child sees them further apart).
// That stream starts beside the others at a higher scheduling priority where
// this user may raise one (see ALONE_PRIORITY below); elsewhere it runs after
// them, on a machine they no longer load.
const ALONE = ['test/run/default.test.ts', 'test/suites/webhook.test.ts', 'test/sink/sender-a.test.ts', 'test/sink/sender-b.test.ts',
  'test/attest/attest.test.ts', 'test/attest/examples.test.ts', 'test/cli/stop.test.ts'];
// Node's test runner starts files in the order it is given them (`node --test`
// sorts them by path instead): the longest files start first, so that none of
// them begins when the rest is nearly done and runs on alone. The rest keep
// their path order. Measured with a whole `npm test`; a file missing here only
// starts later. Tried, and not kept, twice: the per-operation proofs second, after
// the catalog (a clean-clone run: npm test 988 s against 1066 s in path order,
// 1769 CPU s against 1892; but beside the files run alone, from the start, the
// sink saw the bundled reference's sender hang up 4.05 s after an event came,
// where it waits 5 s, and test/suites/webhook.test.ts failed, as a run of the
// same order in an earlier stop failed a clean webhook case). Before that, first too
// (test/proofs/operation-places.test.ts: 189 CPU s over 367 s, from 345 s of a
// clean-clone run, when the phase ended at 712 s). Beside the catalog and the
// mutation proofs from the start, three of its runs and two of the catalog's
// saw the compressed clock's 2 s access tokens expire under their own calls;
// once the catalog's references had a process of their own, the phase took
// 616 s against 627 s in path order, but ten timing-judged cases were judged
// again for stalls (none in path order).
// Tried, and not kept: the wait-bound proof files (test/sink/reference-faults-*
// and test/sender/faults: about 5 CPU s in 60 to 150 s each) in a stream of
// their own beside the four slots from the start, and the type-check and lint
// beside the first tests. On the same 12 slow files (`npm test -- FILTERS`),
// three rounds back to back, in both orders: 382, 281, 304 s against 241, 244,
// 269 s with the schedule below, and 127 to 141 CPU s against 113 to 130. Their waits are
// judged: test/sink/reference-cases.ts judges a case again, alone, when its
// event loop stalled past its tolerance, and they did 21 to 27 times against
// 10 to 11. More load beside them buys re-runs, not overlap.
const LONGEST = [
  'test/run/catalog.test.ts',
  'test/suites/mutations.test.ts',
  'test/suites/token/keycloak.test.ts',
  'test/sink/reference-clean.test.ts',
  'test/report/html.test.ts',
  'test/suites/token/use.test.ts',
  'test/suites/token/expiry-leeway.test.ts',
  'test/package/install.test.ts',
  'test/cli/conventions.test.ts',
  'test/suites/empty-data.test.ts',
];
const rank = f => { const i = LONGEST.indexOf(f); return i < 0 ? LONGEST.length : i; };
const concurrency = process.env.PIS_TEST_CONCURRENCY ?? '4';
const failuresDir = mkdtempSync(join(tmpdir(), 'pis-test-'));
const FAILURES = join(failuresDir, 'failures.jsonl');
const CPU = join(failuresDir, 'cpu.jsonl');
const env = { ...process.env, PIS_TEST: '1', PIS_TEST_FAILURES: FAILURES, PIS_TEST_CPU: CPU };

// Test files that only compute share a process, one per folder of test/. A file's own
// process costs about a CPU second to start (Node, tsx's loader, the test runner, and
// the project's modules, loaded again in each): 67 files took 128.8 CPU s (171 s,
// four at once), each in a process of its own, and 56.3 CPU s (80 s) in 13 shared
// ones, measured back to back on a 2-core machine at load 7 to 9 (61 of them share
// now: the wall-clock rule below keeps 6 apart).
// In the shared process each file's tests run in a describe block named after the
// file, one file after the other, in path order. A file keeps a process of its own
// when it
// - has a hook at its top level (before, after, ...): a file loaded in a describe
//   block would run it when it loads, not around its tests (Node 20);
// - starts processes, itself or through a helper of test/ (node:child_process,
//   Playwright): it waits for them, and so would every file after it;
// - judges milliseconds (test/helpers/priority.ts): the higher priority it asks for
//   would carry over to the files after it;
// - reads the wall clock (performance.now(), Date.now()): what it times would
//   include the pauses the files before it leave (their heap to collect); a
//   bench's whole run saw test/sink/server.test.ts, after the sink's scale test
//   in their shared process, get a head 2895 ms late where it allows 400;
// - is named in OWN_PROCESS, with the reason;
// - is run alone or among the longest (above).
// PIS_TEST_SEPARATE=1 gives every file its own process, to find out whether a
// failure comes from the sharing.
const OWN_PROCESS = [
  // They read the suites' state of a process (suites/support: the run context, the target it caches), which the other files
  // of their folder set up as they need it.
  'test/suites/catalog.test.ts', 'test/suites/shared-token.test.ts', 'test/suites/target.test.ts',
];
const reasonOwn = new Map();
/** Why `file` needs a process of its own (a helper of test/ it imports counts as the file), or undefined. */
function ownProcessReason(file) {
  if (reasonOwn.has(file)) return reasonOwn.get(file);
  reasonOwn.set(file, undefined);
  const text = readFileSync(join(root, file), 'utf8');
  let why = /^(before|after|beforeEach|afterEach)\(/m.test(text) ? 'a hook at its top level'
    : /from '(node:)?child_process'|from '@playwright\/test'/.test(text) ? 'it starts processes'
      : /helpers\/priority\.ts'/.test(text) ? 'it judges milliseconds'
        : /performance\.now\(\)|Date\.now\(\)/.test(text) ? 'it reads the wall clock' : undefined;
  for (const m of why ? [] : text.matchAll(/from '(\.[^']+\.ts)'/g)) {
    const helper = relative(root, join(root, dirname(file), m[1]));
    if (!helper.startsWith('test/') || !existsSync(join(root, helper))) continue;
    why = ownProcessReason(helper);
    if (why) break;
  }
  reasonOwn.set(file, why);
  return why;
}
const sharing = f => !process.env.PIS_TEST_SEPARATE && !ALONE.includes(f) && !LONGEST.includes(f) && !OWN_PROCESS.includes(f) && !ownProcessReason(f);
/** What each shared process's entry file holds: the label it is shown with, and its test files. */
const groups = new Map();
for (const f of files.filter(sharing)) {
  const folder = f.split('/').slice(0, 2).join('/');
  groups.set(folder, [...(groups.get(folder) ?? []), f]);
}
/** Each shared process's entry file (in the scratch folder), with the label its figures are shown with and its test files. */
const shared = [...groups].filter(([, members]) => members.length > 1).map(([folder, members]) => {
  const entry = join(failuresDir, `${folder.replace(/\//g, '-')}.shared.mjs`);
  writeFileSync(entry, `import { describe } from 'node:test';\n${members.map(m =>
    `describe(${JSON.stringify(m)}, async () => { await import(${JSON.stringify(pathToFileURL(join(root, m)).href)}); });`).join('\n')}\n`);
  return { entry, label: `${folder} (${members.length} files in one process)`, members };
}).sort((a, b) => b.members.length - a.members.length);
const inShared = new Set(shared.flatMap(g => g.members));
/** How a test file or a shared process's entry is named in the figures. */
const labelOf = file => shared.find(g => g.entry === file)?.label ?? relative(root, file);
const ownProcess = files.filter(f => !ALONE.includes(f) && !inShared.has(f)).sort((a, b) => rank(a) - rank(b));
if (shared.length && !planOnly) {
  const processes = `${shared.length} process${shared.length === 1 ? '' : 'es'}`;
  console.log(`sharing: ${inShared.size} test files in ${processes}, one per folder (PIS_TEST_SEPARATE=1: each its own)`);
}
const phases = [
  // The longest files first, then the shared processes, the largest first, then the rest in path order.
  { files: [...ownProcess.filter(f => LONGEST.includes(f)), ...shared.map(g => g.entry), ...ownProcess.filter(f => !LONGEST.includes(f))],
    count: ownProcess.length + inShared.size, concurrency },
  { files: files.filter(f => ALONE.includes(f)), concurrency: '1' },
].filter(p => p.files.length);
if (planOnly) {
  const why = f => ALONE.includes(f) ? 'run alone' : LONGEST.includes(f) ? 'among the longest' : OWN_PROCESS.includes(f) ? 'named in OWN_PROCESS'
    : ownProcessReason(f) ?? (process.env.PIS_TEST_SEPARATE ? 'PIS_TEST_SEPARATE' : 'the only one of its folder that could share');
  console.log(JSON.stringify({ shared: Object.fromEntries(shared.map(g => [g.label, g.members])),
    own: Object.fromEntries(files.filter(f => !inShared.has(f)).map(f => [f, why(f)])) }, null, 2));
  rmSync(failuresDir, { recursive: true, force: true });
  process.exit(0);
}
const RUN_FILES = join(root, 'scripts/run-files.mjs');
const FILE_CPU = pathToFileURL(join(root, 'scripts/file-cpu.mjs')).href;

/**
 * Runs one phase's files; resolves with its exit status and, when `capture`,
 * what it printed (kept whole, to be printed after the other phase: two TAP
 * streams written at once into one terminal would split each other's lines).
 */
function runPhase(p, capture) {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', FILE_CPU, RUN_FILES, p.concurrency, ...p.files],
    { stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], cwd: root, env });
  const chunks = [];
  child.stdout?.on('data', d => chunks.push(d));
  return new Promise(done => child.on('close', code => done({ p, code, t0, t1: Date.now(), output: Buffer.concat(chunks) })));
}

// The files run alone judge milliseconds but use little CPU (about 90 CPU s,
// a seventh of the command's): with a higher priority than the CPU-bound proof runs
// they take a core the moment they need one, and run beside them instead of
// after them. A priority is inherited by a process's children: the stream's
// files, their `run`s, Playwright and the references they start. It is the
// one test/helpers/priority.ts gives files that judge milliseconds. Only a
// privileged user may raise a priority: then the phases overlap; for anyone
// else they run one after the other, as a machine they share fairly would
// judge the alone files late.
const ALONE_PRIORITY = constants.priority.PRIORITY_HIGH;
const own = getPriority();
let besides = false;
if (phases.length === 2) {
  try {
    setPriority(ALONE_PRIORITY);
    besides = true;
  } catch { /* not permitted: one phase after the other */ }
}
let status = 0;
const report = ({ p, code, t0, t1, output }) => {
  if (output.length) process.stdout.write(output);
  if (code !== 0) status = code ?? 1;
  console.log(`phase: ${p.count ?? p.files.length} test files, ${p.concurrency} at once${p.label ?? ''} ended in ${((t1 - t0) / 1000).toFixed(1)} s`);
};
if (besides) {
  // Spawned while this thread holds the higher priority, which its child inherits; then this process goes back to its own for the rest.
  const alone = runPhase({ ...phases[1], label: ', beside the others at a higher priority' }, true);
  setPriority(own);
  const rest = runPhase(phases[0], false);
  report(await rest);
  report(await alone);
} else {
  for (const p of phases) report(await runPhase(p, false));
}
ended('npm test', started);
// The CPU each file used, its processes' included (scripts/file-cpu.mjs): the ten that used the most, and the sum.
const cpu = (existsSync(CPU) ? readFileSync(CPU, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : []).sort((a, b) => b.cpuS - a.cpuS);
if (cpu.length) {
  console.log(`cpu: ${cpu.reduce((s, c) => s + c.cpuS, 0).toFixed(1)} CPU s in ${cpu.length} processes of test files, their children included; the most:`);
  for (const c of cpu.slice(0, 10)) console.log(`cpu: ${c.cpuS.toFixed(1)} s ${labelOf(c.file)}`);
  // And the files that took longest from start to end, with when they ran (s from the first file's start): a file that
  // waits more than it computes, and one that ends last, set the command's wall time more than their CPU says.
  const first = Math.min(...cpu.map(c => c.startMs ?? Infinity));
  const walls = cpu.filter(c => c.startMs && c.endMs).sort((a, b) => (b.endMs - b.startMs) - (a.endMs - a.startMs));
  if (walls.length) console.log('wall: the test files that took longest, from start to end:');
  const s = ms => (ms / 1000).toFixed(0);
  for (const c of walls.slice(0, 5)) {
    console.log(`wall: ${((c.endMs - c.startMs) / 1000).toFixed(1)} s ${labelOf(c.file)} ` +
      `(${s(c.startMs - first)} s to ${s(c.endMs - first)} s, ${c.cpuS.toFixed(1)} CPU s)`);
  }
}
// The failed tests once more, last: each phase's report is long, and a log's tail is what a reader (or CI) shows first.
const failures = existsSync(FAILURES) ? readFileSync(FAILURES, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l)) : [];
rmSync(failuresDir, { recursive: true, force: true });
if (failures.length) {
  console.log(`\nnot ok: ${failures.length} test${failures.length === 1 ? '' : 's'} failed`);
  // A message's first lines say what was asserted; a run's output (many tests' messages) ends with its recap
  // and verdict, which say why: both ends are shown, and the middle is in the phase's report above.
  const HEAD = 6, TAIL = 14;
  for (const f of failures) {
    const lines = f.message.split('\n');
    const left = lines.length - HEAD - TAIL;
    const shown = left > 1 ? [...lines.slice(0, HEAD), `(${left} lines left out here: the whole message is in the phase's report above)`, ...lines.slice(-TAIL)]
      : lines;
    console.log(`# ${relative(root, f.file ?? '')}: ${f.name}\n${shown.map(l => `#   ${l.slice(0, 400)}`).join('\n')}`);
  }
}
process.exit(status);
