// The test command's time: `npm test` (scripts/test.mjs) made once, its
// seconds split at the phases it prints (type-check, lint, the files run four
// at once, the files run alone), against the issue's targets for the whole
// command: 300 s on a quiet machine, 600 s on a loaded one (load average at
// the start at or above the number of cores). `--proofs` times only the files
// that prove checks can fail (whole Playwright runs against a reference with a
// fault, or behind a mutation), each alone, one after the other: what most of
// the command's time goes to. `--loaded` makes the machine loaded first: one
// busy process per core at the command's own priority, from before the
// baseline to the end, so that the load average is at the cores or above for
// the whole command (its section is apart from the quiet one, both in
// bench/RESULTS.md). Baseline in the same run: one minimal run
// (`run --suites data --grep data.banks.list`, median of 3), the unit a proof
// pays per Playwright run; each file is also given in those units, which move
// less with the load than seconds do. Never part of `npm test`:
// `npx tsx bench/tests.bench.ts [--write] [--proofs] [FILTER...]` (filters as
// `npm test -- FILTER` takes them, for the proof files too: a part of the
// command, to try the bench). `--processes` splits the CPU of single proof
// runs, made as test/run/runs.ts makes them, by process: `run` itself (tsx,
// the harness, the bundled reference), the Playwright runner, each worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResultsSection } from './results.ts';
import { spawnTimed, type Spawned } from './spawn.ts';
import { cpuByProcess, type TreeCpu } from './proc-tree.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET = { quietS: 300, loadedS: 600 };
/** The proof files: each starts whole runs against a faulty reference or behind mutations. */
const PROOF_FILES = [
  'test/run/catalog.test.ts', 'test/suites/mutations.test.ts', 'test/proofs/operation-places.test.ts', 'test/run/versions.test.ts',
  'test/sink/reference-faults-a.test.ts', 'test/sink/reference-faults-b.test.ts', 'test/certify/faults.test.ts',
];

type Timed = Spawned;

/** `node ARGS` in the checkout. */
const timed = (args: string[], env: Record<string, string> = {}): Promise<Timed> => spawnTimed(args, { cwd: ROOT, env });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** The baseline: the median wall time of three minimal runs of the bundled reference. */
async function minimalRunS(): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'pis-tests-bench-'));
    try {
      const t = await timed(['bin/pis-conformance.mjs', 'run', '--suites', 'data', '--grep', 'data\\.banks\\.list ', '--report', dir]);
      if (t.code !== 0) throw new Error(`the baseline run ended with exit ${t.code}:\n${t.lines.map(l => l.text).join('\n')}`);
      walls.push(t.wallS);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }
  return median(walls);
}

interface Row { what: string; wallS: number; cpuS?: number; outcome: string; /** Tests that ended (passed or failed), for the whole command. */ tests?: number }

/** `npm test`'s phases, from the `phase:` lines scripts/test.mjs prints as each ends. */
async function wholeCommand(filters: string[]): Promise<Row[]> {
  const t = await timed(['scripts/test.mjs', ...filters]);
  const rows: Row[] = t.lines.flatMap(l => {
    const m = /^phase: (.+) ended in ([\d.]+) s/.exec(l.text);
    return m && m[1] !== 'npm test' ? [{ what: m[1]!, wallS: Number(m[2]), outcome: '' }] : [];
  });
  const tally = (k: string) => t.lines.map(l => new RegExp(`^# ${k} (\\d+)`).exec(l.text)).filter(Boolean).reduce((a, m) => a + Number(m![1]), 0);
  const what = filters.length ? `\`npm test -- ${filters.join(' ')}\`` : '`npm test`, all of it';
  // The failed tests, as scripts/test.mjs names them last ("# FILE: TEST"), so that a figure never hides which failed.
  const from = t.lines.findIndex(l => /^not ok: \d+ tests? failed/.test(l.text));
  const failedTests = from < 0 ? [] : t.lines.slice(from + 1).map(l => /^# (test\/\S+): (.*)$/.exec(l.text)).filter(m => m !== null)
    .map(m => `${m![1]}: ${m![2]!.slice(0, 80).replace(/\|/g, '/')}`);
  // Why they failed, on stderr: the table names them, the recap scripts/test.mjs ends with says why.
  if (from >= 0) process.stderr.write(`${t.lines.slice(from).map(l => l.text).join('\n')}\n`);
  rows.push({ what, wallS: t.wallS, ...(t.cpuS === undefined ? {} : { cpuS: t.cpuS }), tests: tally('pass') + tally('fail'),
    outcome: `exit ${t.code}, ${tally('pass')} passed, ${tally('fail')} failed${failedTests.length ? ` (${failedTests.join('; ')})` : ''}` });
  return rows;
}

/** Each proof file alone, one after the other. */
async function proofFiles(filters: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const file of PROOF_FILES.filter(f => !filters.length || filters.some(x => f.includes(x)))) {
    const t = await timed(['--import', 'tsx', '--test', '--test-reporter=tap', file], { PIS_TEST: '1' });
    const n = (k: string) => t.lines.map(l => new RegExp(`^# ${k} (\\d+)`).exec(l.text)).find(Boolean)?.[1] ?? '?';
    rows.push({ what: `\`${file}\``, wallS: t.wallS, ...(t.cpuS === undefined ? {} : { cpuS: t.cpuS }),
      outcome: `exit ${t.code}, ${n('pass')} passed, ${n('fail')} failed` });
  }
  return rows;
}

/** What a proof run's processes are, by their command line. */
const ROLES = [
  { role: 'run', match: 'harness/cli.ts' },
  { role: 'runner', match: '@playwright/test/cli.js' },
  { role: 'worker', match: 'workerProcessEntry' },
] as const;
type Role = typeof ROLES[number]['role'] | 'other';
const roleOf = (cmd: string): Role => ROLES.find(r => cmd.includes(r.match))?.role ?? 'other';

/**
 * Proof runs as test/run/runs.ts starts them (time scale 0.001, one worker):
 * one check (what any run costs before its checks), one suite, one suite with
 * a fault, all four suites.
 */
const PROCESS_RUNS: { what: string; args: string[] }[] = [
  { what: '`--suites data --grep data.banks.list`', args: ['--suites', 'data', '--grep', 'data\\.banks\\.list '] },
  { what: '`--suites data`', args: ['--suites', 'data'] },
  { what: '`--suites data --fault data-owner-null`', args: ['--suites', 'data', '--fault', 'data-owner-null'] },
  { what: '`--suites token,session,data,payments`', args: ['--suites', 'token,session,data,payments'] },
];

/** Each proof run of PROCESS_RUNS 3 times; the one of median total CPU, its CPU split by process role. */
async function processRows(): Promise<string[]> {
  const rows: string[] = [];
  for (const { what, args } of PROCESS_RUNS) {
    const tries: TreeCpu[] = [];
    for (let i = 0; i < 3; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'pis-tests-bench-'));
      try {
        tries.push(await cpuByProcess(['--import', 'tsx', 'harness/cli.ts', 'run', ...args, '--time-scale', '0.001', '--workers', '1', '--report', dir],
          ROOT, { PIS_TEST: '1' }));
      } finally { rmSync(dir, { recursive: true, force: true }); }
    }
    const total = (t: TreeCpu) => t.processes.reduce((a, p) => a + p.cpuS, 0);
    const t = [...tries].sort((a, b) => total(a) - total(b))[1]!;
    const of = (role: Role) => t.processes.filter(p => roleOf(p.cmd) === role);
    const sum = (role: Role) => of(role).reduce((a, p) => a + p.cpuS, 0).toFixed(2);
    const workers = of('worker');
    rows.push(`| ${what} | ${t.wallS.toFixed(1)} | ${total(t).toFixed(2)} | ${sum('run')} | ${sum('runner')} | ` +
      `${workers.length}: ${workers.map(w => w.cpuS.toFixed(2)).join(' + ') || '-'} | ${sum('other')} | exit ${t.code} |`);
  }
  return rows;
}

function processMarkdown(baselineS: number, rows: string[], loadAtStart: number): string {
  return [
    '<!-- tests.bench.processes -->',
    '## Where a proof run\'s CPU goes (`npx tsx bench/tests.bench.ts --write --processes`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, on ${cpus().length} cores, ` +
    `load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end. ` +
    'Each run as test/run/runs.ts makes it (`node --import tsx harness/cli.ts run ... --time-scale 0.001 --workers 1`), 3 times; ' +
    'the one of median total CPU is shown, its CPU s (user + sys, read from /proc every 20 ms) split by process: ' +
    '`run` (tsx, the harness, the bundled reference), the Playwright runner (loads the config, every selected spec file, the reporter), ' +
    'each Playwright worker (imports the suites it runs). ' +
    `Baseline in the same run: a minimal run (\`run --suites data --grep data.banks.list\`) takes ${baselineS.toFixed(2)} s (median of 3).`,
    '',
    '| run | wall s | CPU s | run | runner | workers | other | outcome |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '<!-- /tests.bench.processes -->',
  ].join('\n');
}

/** One busy process per core, each spinning until stopped: a loaded machine that a benchmark can make again. */
function loadMachine(): { busy: number; stop(): void } {
  const children: ChildProcess[] = cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const stop = () => { for (const c of children) c.kill('SIGKILL'); };
  process.once('exit', stop);
  return { busy: children.length, stop };
}

function markdown(proofs: boolean, baselineS: number, rows: Row[], loadAtStart: number, busy: number): string {
  const loaded = busy > 0 || loadAtStart >= cpus().length;
  const section = busy ? 'tests.bench.loaded' : 'tests.bench';
  const whole = rows.find(r => r.what === '`npm test`, all of it');
  const targetS = loaded ? TARGET.loadedS : TARGET.quietS;
  return [
    `<!-- ${section} -->`,
    `## The test command${busy ? ', machine loaded' : ''} (\`npx tsx bench/tests.bench.ts --write${proofs ? ' --proofs' : ''}${busy ? ' --loaded' : ''}\`)`,
    '',
    `Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, on ${cpus().length} cores, ` +
    `load average ${loadAtStart.toFixed(1)} at the start (${loaded ? 'loaded' : 'quiet'}) and ${loadavg()[0].toFixed(1)} at the end` +
    `${busy ? ` (made loaded by ${busy} busy processes, one per core, at the command's priority, from before the baseline to the end)` : ''}. ` +
    `Targets for the whole \`npm test\`: at most ${TARGET.quietS} s quiet, ${TARGET.loadedS} s loaded (load average at or above the cores). ` +
    (proofs ? 'Proof files only, each alone, one after the other (`node --test FILE`). ' : 'One whole `npm test`, split at the phases it prints. ') +
    `Baseline in the same run: a minimal run (\`run --suites data --grep data.banks.list\`) takes ${baselineS.toFixed(2)} s (median of 3); ` +
    '"runs" is wall s in those units. CPU s: user + sys of the command and every process under it.',
    '',
    '| what | wall s | runs | CPU s | outcome |',
    '|---|---|---|---|---|',
    ...rows.map(r => `| ${r.what} | ${r.wallS.toFixed(1)} | ${(r.wallS / baselineS).toFixed(1)} | ${r.cpuS?.toFixed(1) ?? '-'} | ${r.outcome || '-'} |`),
    ...(whole ? ['', `Whole command: ${whole.wallS.toFixed(0)} s against the ${loaded ? 'loaded' : 'quiet'} target of ${targetS} s: ` +
      // A command that ended before its tests (a type error, a lint finding) took no time to judge: never "met".
      `${whole.tests === 0 ? 'not judged, the command ended before any test ran' : whole.wallS <= targetS ? 'met' : 'not met'}.`] : []),
    `<!-- /${section} -->`,
  ].join('\n');
}

async function main(): Promise<void> {
  const proofs = process.argv.includes('--proofs');
  const load = process.argv.includes('--loaded') ? loadMachine() : undefined;
  // The busy processes need a minute before the load average shows them.
  if (load) await new Promise(r => setTimeout(r, 60_000));
  const loadAtStart = loadavg()[0];
  const baselineS = await minimalRunS();
  if (process.argv.includes('--processes')) {
    const text = processMarkdown(baselineS, await processRows(), loadAtStart);
    process.stdout.write(text + '\n');
    if (process.argv.includes('--write')) writeResultsSection('tests.bench.processes', text);
    return;
  }
  const filters = process.argv.slice(2).filter(a => !a.startsWith('--'));
  const rows = proofs ? await proofFiles(filters) : await wholeCommand(filters);
  load?.stop();
  const text = markdown(proofs, baselineS, rows, loadAtStart, load?.busy ?? 0);
  process.stdout.write(text + '\n');
  if (process.argv.includes('--write')) writeResultsSection(load ? 'tests.bench.loaded' : 'tests.bench', text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
