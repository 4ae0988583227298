// Where a command's CPU goes, process by process (Linux): the command is
// started, and /proc is read every 20 ms for it and every process under it;
// each process keeps the CPU seconds (user + sys) and the seconds since the
// start at which it was first and last seen. A process's last 20 ms may go
// unseen, so the sum is a little under what the kernel counts for the tree.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessCpu { pid: number; cmd: string; cpuS: number; firstS: number; lastS: number }
export interface TreeCpu { wallS: number; code: number | null; processes: ProcessCpu[]; output: string }

const TICK = 100; // clock ticks per second (sysconf CLK_TCK on Linux)

function table(): Map<number, { ppid: number; cpuS: number }> {
  const out = new Map<number, { ppid: number; cpuS: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.set(Number(d), { ppid: Number(f[1]), cpuS: (Number(f[11]) + Number(f[12])) / TICK });
    } catch { /* ended meanwhile */ }
  }
  return out;
}

const cmdline = (pid: number): string => {
  try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(); } catch { return ''; }
};

/** Runs `node ARGS` in `cwd` and samples its process tree until it ends. */
export function cpuByProcess(args: string[], cwd: string, env: Record<string, string> = {}): Promise<TreeCpu> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', d => { output += d; });
  child.stderr.on('data', d => { output += d; });
  const seen = new Map<number, ProcessCpu>();
  const sample = () => {
    const now = (performance.now() - t0) / 1000;
    const procs = table();
    const tree = new Set([child.pid!]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, p] of procs) if (tree.has(p.ppid) && !tree.has(pid)) { tree.add(pid); grew = true; }
    }
    for (const pid of tree) {
      const p = procs.get(pid);
      if (!p) continue;
      const r = seen.get(pid) ?? { pid, cmd: '', cpuS: 0, firstS: now, lastS: now };
      // Read each time: between fork and exec a child still shows its parent's command line.
      r.cmd = cmdline(pid) || r.cmd;
      r.cpuS = p.cpuS;
      r.lastS = now;
      seen.set(pid, r);
    }
  };
  const timer = setInterval(sample, 20);
  sample();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', code => {
      clearInterval(timer);
      resolve({ wallS: (performance.now() - t0) / 1000, code, processes: [...seen.values()].sort((a, b) => a.firstS - b.firstS), output });
    });
  });
}
