// The installed binary as a terminal or a CI runner starts it: its own process
// group (so a test can send what Ctrl-C sends, a signal to the whole group),
// and the process tree under it read from /proc (Linux).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.ts';

const BIN = join(ROOT, 'bin', 'pis-conformance.mjs');

export interface Started {
  child: ChildProcess;
  pid: number;
  out(): string;
  err(): string;
  /** Resolves when stdout matches, rejects when the process ends first or after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  /** Exit code and signal once the process and its pipes have closed. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startBin(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Started {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve => child.on('close', (code, signal) => resolve({ code, signal })));
  const waitFor = (pattern: RegExp, ms = 60_000) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => { cleanup(); reject(new Error(`no ${pattern} on stdout within ${ms} ms:\n${out}\n${err}`)); }, ms);
    const check = () => { if (pattern.test(out)) { cleanup(); resolve(); } };
    const early = () => { cleanup(); reject(new Error(`ended before ${pattern} on stdout:\n${out}\n${err}`)); };
    const cleanup = () => { clearTimeout(timer); child.stdout!.off('data', check); child.off('close', early); };
    child.stdout!.on('data', check);
    child.on('close', early);
    check();
  });
  return { child, pid: child.pid!, out: () => out, err: () => err, waitFor, closed };
}

/** A process as /proc shows it: pid, start time (tells a reused pid apart), command line. */
export interface Proc { pid: number; start: string; cmd: string }

function stat(pid: number): { ppid: number; start: string; state: string } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { state: f[0]!, ppid: Number(f[1]), start: f[19]! };
  } catch { return undefined; }
}

/** Every process below `root`, children first. */
export function descendants(root: number): Proc[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const s = stat(Number(d));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(d)]);
  }
  const out: Proc[] = [];
  const queue = [root];
  while (queue.length) {
    for (const pid of children.get(queue.shift()!) ?? []) {
      const s = stat(pid);
      if (!s) continue;
      let cmd = '';
      try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(); } catch { /* gone */ }
      out.push({ pid, start: s.start, cmd });
      queue.push(pid);
    }
  }
  return out;
}

/** The processes of `procs` still running (a zombie waiting for its reaper counts as gone). */
function stillAlive(procs: Proc[]): Proc[] {
  return procs.filter(p => { const s = stat(p.pid); return s !== undefined && s.start === p.start && s.state !== 'Z'; });
}

/** Waits until none of `procs` runs, or `ms` passed; returns the survivors. */
export async function waitGone(procs: Proc[], ms: number): Promise<Proc[]> {
  const until = performance.now() + ms;
  for (;;) {
    const alive = stillAlive(procs);
    if (!alive.length || performance.now() > until) return alive;
    await new Promise(r => setTimeout(r, 50));
  }
}
