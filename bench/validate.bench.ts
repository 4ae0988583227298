// Benchmark of `validate` on large inputs: the same webhook bodies as one JSON
// array and as JSON lines (the baseline, measured in the same run), at 10 MB
// and 100 MB, each in its own process through the real command line. Wall time
// and the process's peak RSS. The array should cost about what the lines cost,
// and both should grow linearly with the file while memory stays flat.
// Not part of `npm test`: `npx tsx bench/validate.bench.ts [--write] [--mb N]`
// (--write updates bench/RESULTS.md between the validate.bench markers).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResultsSection } from './results.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'harness/cli.ts');
const ITEM = JSON.stringify(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/contracts/valid/batch-completed.json'), 'utf8')));
// Prints the process's peak RSS on stderr as it exits (the CLI ends with process.exit).
const RSS_HOOK = 'data:text/javascript,import{writeSync}from"node:fs";' +
  'process.on("exit",()=>writeSync(2,"\\npis-bench-maxrss "+process.resourceUsage().maxRSS+"\\n"))';

export interface ValidateFigure { input: string; mb: number; items: number; wallS: number; peakRssMb: number }

function writeInput(file: string, items: number, array: boolean): void {
  const fd = openSync(file, 'w');
  const block = 1000;
  if (array) writeSync(fd, '[\n');
  for (let i = 0; i < items; i += block) {
    const n = Math.min(block, items - i);
    const sep = array ? ',\n' : '\n';
    const last = i + n >= items;
    writeSync(fd, Array(n).fill(ITEM).join(sep) + (last ? '\n' : sep));
  }
  if (array) writeSync(fd, ']\n');
  closeSync(fd);
}

function runValidate(file: string): Promise<{ wallS: number; peakRssMb: number; summary: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', RSS_HOOK, CLI, 'validate', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '', err = '';
    child.stdout.on('data', (d: Buffer) => { tail = (tail + d.toString()).slice(-400); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('close', code => {
      const wallS = (performance.now() - t0) / 1000;
      const rss = /pis-bench-maxrss (\d+)/.exec(err);
      if (code !== 0 || !rss) return reject(new Error(`validate ${file} exited ${code}: ${err.slice(-500)}`));
      resolve({ wallS, peakRssMb: Number(rss[1]) / 1024, summary: tail.trim().split('\n').pop() ?? '' });
    });
  });
}

/** Runs the phases and returns their figures. */
export async function benchValidate(sizesMb = [10, 100]): Promise<ValidateFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pis-validate-bench-'));
  const figures: ValidateFigure[] = [];
  try {
    for (const mb of sizesMb) {
      const items = Math.ceil(mb * 1e6 / (ITEM.length + 2));
      for (const [input, array] of [['JSON lines (baseline)', false], ['one JSON array', true]] as const) {
        const file = join(dir, `${mb}.${array ? 'json' : 'jsonl'}`);
        writeInput(file, items, array);
        const r = await runValidate(file);
        if (!r.summary.startsWith(`validate: ${items} items, ${items} valid`)) throw new Error(`unexpected summary for ${file}: ${r.summary}`);
        figures.push({ input, mb, items, wallS: r.wallS, peakRssMb: r.peakRssMb });
        rmSync(file);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

async function main(): Promise<void> {
  const mbFlag = process.argv.indexOf('--mb');
  const sizes = mbFlag > 0 ? [Number(process.argv[mbFlag + 1])] : [10, 100];
  const figures = await benchValidate(sizes);
  const rows = figures.map(f => `| ${f.mb} MB | ${f.input} | ${f.items} | ${f.wallS.toFixed(2)} | ${(f.mb / f.wallS).toFixed(1)} | ` +
    `${f.peakRssMb.toFixed(0)} |`);
  const text = `<!-- validate.bench -->
## validate on large inputs (\`npx tsx bench/validate.bench.ts --write\`)

Run ${new Date().toISOString().slice(0, 16)}Z, Node ${process.version}, batch webhook bodies of ${ITEM.length} bytes, every one valid, ` +
    'through the command line (`pis-conformance validate FILE`, stdout to a pipe), one process per row, ' +
    `on the shared 2-core machine (load average ${loadavg()[0].toFixed(1)} at the end). ` +
    'Wall time includes starting Node and compiling the contracts (about 1 s). ' +
    'Before the streaming reader, a 100 MB array had not finished after 160 s (1.19 GB peak RSS), ' +
    `and the same items as JSON lines took 2.0 s and 424 MB.

| size | input | items | wall s | MB/s | peak RSS MB |
|---|---|---|---|---|---|
${rows.join('\n')}
<!-- /validate.bench -->`;
  process.stdout.write(text + '\n');
  if (process.argv.includes('--write')) writeResultsSection('validate.bench', text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
