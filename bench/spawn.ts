// A command started from a benchmark and timed from spawn to exit: its wall
// seconds, its CPU seconds with every process under it, and each line it
// printed stamped with the seconds since the start.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Spawned { wallS: number; cpuS?: number; code: number | null; lines: { atS: number; text: string }[] }

/**
 * CPU seconds (user + sys) of the children this process has waited for, and
 * theirs in turn (Linux: cutime and cstime of /proc/self/stat, in clock ticks
 * of 100 per second); undefined elsewhere.
 */
function childCpuS(): number | undefined {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8');
    const [cutime, cstime] = f.slice(f.lastIndexOf(')') + 2).split(' ').slice(13, 15).map(Number);
    return (cutime! + cstime!) / 100;
  } catch { return undefined; }
}

/** Runs `node ARGS` (one at a time: the CPU of children is read before and after) with `env` on top of this process's. */
export function spawnTimed(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Spawned> {
  const t0 = performance.now();
  const cpu0 = childCpuS();
  const lines: Spawned['lines'] = [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { ...(opts.cwd ? { cwd: opts.cwd } : {}), env: { ...process.env, ...opts.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [child.stdout, child.stderr]) {
      let rest = '';
      s.on('data', (d: Buffer) => {
        const parts = (rest + d.toString()).split('\n');
        rest = parts.pop()!;
        for (const text of parts) lines.push({ atS: (performance.now() - t0) / 1000, text });
      });
    }
    child.on('error', reject);
    child.on('close', code => {
      const cpu1 = childCpuS();
      resolve({ wallS: (performance.now() - t0) / 1000, ...(cpu0 === undefined || cpu1 === undefined ? {} : { cpuS: cpu1 - cpu0 }), code, lines });
    });
  });
}
