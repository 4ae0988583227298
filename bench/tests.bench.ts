// The test command's time: `npm test` (scripts/test.mjs) made once, its
// seconds split at the phases it prints (type-check, lint, the files run four
// at once, the files run alone), against the targets for the whole
// command: 300 s on a quiet machine, 600 s on a loaded one (load average at
// the start at or above the number of cores). `--proofs` times only the files
// that prove checks can fail (whole Playwright runs against a reference with a
// fault, or behind a mutation), each alone, one after the other: what most of
// the command's time goes to. Baseline in the same run: one minimal run
// (`run --suites data --grep data.banks.list`, median of 3), the unit a proof
// pays per Playwright run; each file is also given in those units, which move
// less with the load than seconds do. Never part of `npm test`:
// `npx tsx bench/tests.bench.ts [--write] [--proofs] [FILTER...]` (filters as
// `npm test -- FILTER` takes them, for the proof files too: a part of the
// command, to try the bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResultsSection } from './results.ts';
import { spawnTimed, type Spawned } from './spawn.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET = { quietS: 300, loadedS: 600 };
/** The proof files: each starts whole runs against a faulty reference or behind mutations. */
const PROOF_FILES = [
  'test/run/catalog.test.ts', 'test/suites/mutations.test.ts', 'test/run/versions.test.ts',
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

interface Row { what: string; wallS: number; cpuS?: number; outcome: string }

/** `npm test`'s phases, from the `phase:` lines scripts/test.mjs prints as each ends. */
async function wholeCommand(filters: string[]): Promise<Row[]> {
  const t = await timed(['scripts/test.mjs', ...filters]);
  const rows: Row[] = t.lines.flatMap(l => {
    const m = /^phase: (.+) ended in ([\d.]+) s/.exec(l.text);
    return m && m[1] !== 'npm test' ? [{ what: m[1]!, wallS: Number(m[2]), outcome: '' }] : [];
  });
  const tally = (k: string) => t.lines.map(l => new RegExp(`^# ${k} (\\d+)`).exec(l.text)).filter(Boolean).reduce((a, m) => a + Number(m![1]), 0);
  const what = filters.length ? `\`npm test -- ${filters.join(' ')}\`` : '`npm test`, all of it';
  rows.push({ what, wallS: t.wallS, ...(t.cpuS === undefined ? {} : { cpuS: t.cpuS }),
    outcome: `exit ${t.code}, ${tally('pass')} passed, ${tally('fail')} failed` });
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

function markdown(proofs: boolean, baselineS: number, rows: Row[], loadAtStart: number): string {
  const loaded = loadAtStart >= cpus().length;
  const whole = rows.find(r => r.what === '`npm test`, all of it');
  const targetS = loaded ? TARGET.loadedS : TARGET.quietS;
  return [
    '<!-- tests.bench -->',
    '## The test command (`npx tsx bench/tests.bench.ts --write' + (proofs ? ' --proofs' : '') + '`)',
    '',
    `Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, on ${cpus().length} cores, ` +
    `load average ${loadAtStart.toFixed(1)} at the start (${loaded ? 'loaded' : 'quiet'}) and ${loadavg()[0].toFixed(1)} at the end. ` +
    `Targets for the whole \`npm test\`: at most ${TARGET.quietS} s quiet, ${TARGET.loadedS} s loaded (load average at or above the cores). ` +
    (proofs ? 'Proof files only, each alone, one after the other (`node --test FILE`). ' : 'One whole `npm test`, split at the phases it prints. ') +
    `Baseline in the same run: a minimal run (\`run --suites data --grep data.banks.list\`) takes ${baselineS.toFixed(2)} s (median of 3); ` +
    '"runs" is wall s in those units. CPU s: user + sys of the command and every process under it.',
    '',
    '| what | wall s | runs | CPU s | outcome |',
    '|---|---|---|---|---|',
    ...rows.map(r => `| ${r.what} | ${r.wallS.toFixed(1)} | ${(r.wallS / baselineS).toFixed(1)} | ${r.cpuS?.toFixed(1) ?? '-'} | ${r.outcome || '-'} |`),
    ...(whole ? ['', `Whole command: ${whole.wallS.toFixed(0)} s against the ${loaded ? 'loaded' : 'quiet'} target of ${targetS} s: ` +
      `${whole.wallS <= targetS ? 'met' : 'not met'}.`] : []),
    '<!-- /tests.bench -->',
  ].join('\n');
}

async function main(): Promise<void> {
  const proofs = process.argv.includes('--proofs');
  const loadAtStart = loadavg()[0];
  const baselineS = await minimalRunS();
  const filters = process.argv.slice(2).filter(a => !a.startsWith('--'));
  const rows = proofs ? await proofFiles(filters) : await wholeCommand(filters);
  const text = markdown(proofs, baselineS, rows, loadAtStart);
  process.stdout.write(text + '\n');
  if (process.argv.includes('--write')) writeResultsSection('tests.bench', text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
