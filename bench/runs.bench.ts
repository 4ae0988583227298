// Full-run ratios: whole commands as users start them, each wall time divided
// by the longest wait the spec forces in that run (a run can never be shorter).
// - `npm start` (`run`, bundled reference, time scale 0.1): the longest wait is
//   the webhook backoff chain 10 + 20 + 40 spec s = 7 s; target at most 1.6x.
//   Its seconds are split at the lines the run prints (reference started,
//   webhook drive and Playwright starting, checks collected, first and last
//   check): the profile of where start-up goes.
// - `run --time-scale 1`: the same chain, 70 s; the bundled lifetimes
//   (harness/runner/bundled.ts: 25 and 50 s) end inside it, so this run is also
//   the complete one with every token and consent expiry; target at most 1.05x.
// - `run --time-scale 1 --lifetimes 90,120,100`: a token's lifetime is the
//   longest wait (the refresh token's 120 s, past the 70 s chain and the 100 s
//   consent): every wait runs beside the others, so the run lasts about as
//   long as that one; target at most 1.05x. Made once (two minutes a run).
// - `certify-receiver` against sample receivers (test/fixtures/receivers):
//   correct, 6 s per new event, never answering; target at most 60 s each.
// The first two runs are made `--repeat N` times (default 3; the machine is shared, so
// one run says little): the median wall time, and the median CPU seconds
// (user + sys of the command and every process under it, less sensitive to
// the load of others). Baseline in the same run: `pis-conformance --version`,
// the cost of starting the command at all. Not part of `npm test`:
// `npx tsx bench/runs.bench.ts [--write] [--quick] [--repeat N]` (--quick
// leaves out the time-scale-1 runs).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { numberFlag } from '../harness/flag-values.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResults } from '../harness/results/model.ts';
import { startReceiver } from '../test/fixtures/receivers/receiver.ts';
import { writeResultsSection } from './results.ts';
import { spawnTimed, type Spawned } from './spawn.ts';

const BIN = fileURLToPath(new URL('../bin/pis-conformance.mjs', import.meta.url));
const API_KEY = 'runs-bench-key-0123456789';

interface Timed extends Spawned { results?: RunResults }

/** Runs the binary as a user does (a fresh report folder, removed afterwards), timed from spawn to exit. */
async function timed(args: string[], env: Record<string, string> = {}): Promise<Timed> {
  const dir = mkdtempSync(join(tmpdir(), 'pis-runs-bench-'));
  try {
    const t = await spawnTimed([BIN, ...args, ...(args[0] === '--version' ? [] : ['--report', dir])], { env });
    let results: RunResults | undefined;
    try { results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults; } catch { /* --version writes none */ }
    return { ...t, ...(results ? { results } : {}) };
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

interface Row { what: string; wallS: number; walls?: number[]; cpuS?: number; waitS?: number; target: string; met: boolean; outcome: string }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** `repeat` runs of the same command, one after the other: the one of median wall time stands for them. */
async function repeated(args: string[], repeat: number): Promise<{ median: Timed; walls: number[]; cpuS?: number }> {
  const runs: Timed[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await timed(args));
  const walls = runs.map(r => r.wallS);
  const cpus = runs.flatMap(r => (r.cpuS === undefined ? [] : [r.cpuS]));
  const mid = runs.find(r => r.wallS === median(walls))!;
  return { median: mid, walls, ...(cpus.length ? { cpuS: median(cpus) } : {}) };
}

/** Seconds at which `run` printed the first line matching each step. */
function steps(t: Timed): { step: string; atS: number }[] {
  const at = (re: RegExp) => t.lines.find(l => re.test(l.text))?.atS;
  const checks = t.lines.filter(l => /^(ok|FAIL|skip|warn) /.test(l.text));
  const marks: [string, number | undefined][] = [
    ['bundled reference started', at(/^Started the bundled reference/)],
    ['target checked, webhook drive starting', at(/^Driving the webhook checkouts/)],
    ['Playwright starting', at(/^Starting the suites/)],
    ['checks collected', at(/^Running \d+ checks/)],
    ['first check ended', checks[0]?.atS],
    ['last check ended', checks.at(-1)?.atS],
    ['command ended', t.wallS],
  ];
  return marks.filter((m): m is [string, number] => m[1] !== undefined).map(([step, atS]) => ({ step, atS }));
}

function outcome(t: Timed): string {
  const s = t.results?.summary;
  if (!s) return `exit ${t.code}, no results.json`;
  const failed = t.results!.checks.filter(c => c.status === 'failed').map(c => c.id);
  return `${s.verdict}, ${s.passed} passed, ${s.failed} failed${failed.length ? ` (${failed.join(', ')})` : ''}, ${s.notRun} not run (exit ${t.code})`;
}

export async function runsBench(quick = false, repeat = 3):
  Promise<{ baselineS: number; repeat: number; rows: Row[]; startSteps: { step: string; atS: number }[] }> {
  const versions = [await timed(['--version']), await timed(['--version']), await timed(['--version'])];
  const baselineS = median(versions.map(v => v.wallS));
  const rows: Row[] = [];
  const row = (what: string, r: Awaited<ReturnType<typeof repeated>>, waitS: number, ratio: number): Row => ({
    what, wallS: r.median.wallS, walls: r.walls, ...(r.cpuS === undefined ? {} : { cpuS: r.cpuS }), waitS,
    target: `at most ${ratio}x`, met: r.median.wallS / waitS <= ratio, outcome: outcome(r.median),
  });

  const start = await repeated(['run'], repeat);
  rows.push(row('`npm start` (run, bundled reference, time scale 0.1)', start, 7, 1.6));
  if (!quick) rows.push(row('run at time scale 1 (every token and consent expiry included)', await repeated(['run', '--time-scale', '1'], repeat), 70, 1.05));
  if (!quick) {
    const lifetimes = ['run', '--time-scale', '1', '--lifetimes', '90,120,100', '--max-wait', '200'];
    const what = 'run at time scale 1, lifetimes 90, 120, 100 s (the refresh token\'s is the longest wait)';
    rows.push(row(what, await repeated(lifetimes, 1), 120, 1.05));
  }
  for (const [what, fault] of [['correct receiver', undefined], ['receiver taking 6 s per new event', 'slow-new-event'],
    ['receiver that never answers', 'silent']] as const) {
    const r = await startReceiver({ apiKey: API_KEY, ...(fault ? { fault } : {}) });
    try {
      const t = await timed(['certify-receiver', '--url', r.url, '--allow-incomplete'], { PIS_WEBHOOK_API_KEY: API_KEY });
      const cpu = t.cpuS === undefined ? {} : { cpuS: t.cpuS };
      rows.push({ what: `certify-receiver, ${what}`, wallS: t.wallS, ...cpu, target: 'at most 60 s', met: t.wallS <= 60, outcome: outcome(t) });
    } finally { await r.close(); }
  }
  return { baselineS, repeat, rows, startSteps: steps(start.median) };
}

function markdown(f: Awaited<ReturnType<typeof runsBench>>): string {
  let prev = 0;
  const stepRows = f.startSteps.map(s => { const row = `| ${s.step} | ${s.atS.toFixed(2)} | ${(s.atS - prev).toFixed(2)} |`; prev = s.atS; return row; });
  return [
    '<!-- runs.bench -->',
    '## Full-run ratios (`npx tsx bench/runs.bench.ts --write`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, ` +
    `on the shared 2-core machine (load average ${loadavg()[0].toFixed(1)} at the end). ` +
    'Each command is started as a user starts it (`node bin/pis-conformance.mjs ...`, a fresh report folder) and timed from spawn to exit. ' +
    `The first two runs are made ${f.repeat} times each, the one with longer lifetimes once: ` +
    'wall s is the median (every run\'s in brackets), CPU s the median of user + sys ' +
    'of the command and every process under it. Ratio: the median wall time divided by the longest wait the spec forces in that run. ' +
    `Baseline in the same run: \`pis-conformance --version\` takes ${f.baselineS.toFixed(2)} s (median of 3), the floor of any command.`,
    '',
    '| run | wall s | CPU s | longest spec wait s | ratio | target | met | outcome |',
    '|---|---|---|---|---|---|---|---|',
    ...f.rows.map(r => `| ${r.what} | ${r.wallS.toFixed(1)}${r.walls && r.walls.length > 1 ? ` (${r.walls.map(w => w.toFixed(1)).join(', ')})` : ''} | ` +
      `${r.cpuS?.toFixed(1) ?? '-'} | ${r.waitS ?? '-'} | ${r.waitS ? (r.wallS / r.waitS).toFixed(2) : '-'} | ${r.target} | ` +
      `${r.met ? 'yes' : 'no'} | ${r.outcome} |`),
    '',
    'Where `npm start`\'s seconds go (at each line it prints, in the run of median wall time):',
    '',
    '| step | at s | since the step before s |',
    '|---|---|---|',
    ...stepRows,
    '<!-- /runs.bench -->',
  ].join('\n');
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--repeat');
  const repeat = numberFlag('repeat', at < 0 ? undefined : process.argv[at + 1], 3, { min: 1, integer: true });
  const text = markdown(await runsBench(process.argv.includes('--quick'), repeat));
  process.stdout.write(text + '\n');
  if (process.argv.includes('--write')) writeResultsSection('runs.bench', text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
