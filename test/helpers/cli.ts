// Runs the CLI as a user does: a child process, its output and exit status.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The installed binary, as a user starts it: the compiled copy of bin/compiled.mjs, or the sources through tsx.
const BIN = fileURLToPath(new URL('../../bin/pis-conformance.mjs', import.meta.url));

export interface CliResult { code: number | null; stdout: string; stderr: string }

/** `onStdout`: each chunk of standard output as it comes, for a test that needs to know when a line was printed. */
export function runCli(args: string[], opts: {
  cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number; onStdout?: (chunk: string) => void;
} = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '', stderr = '';
    child.stdout.on('data', d => { stdout += d; opts.onStdout?.(String(d)); });
    child.stderr.on('data', d => { stderr += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pis-conformance ${args.join(' ')} did not end within ${opts.timeoutMs ?? 120_000} ms\n${stdout}\n${stderr}`));
    }, opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    child.stdin.end(opts.input ?? '');
  });
}

/** A pre-flight call that got no complete answer within its deadline (harness/config/preflight.ts). */
const PREFLIGHT_STALL = /\[PIS_UNREACHABLE\][^\n]*gave no complete answer within/;

/**
 * `run` against a target this test process serves itself: a pre-flight call
 * its 3 s did not see answered is this process's own stall (a clean-clone CI
 * run at load 10 saw the catalog's clean payments run end so, and a quiet
 * bench the HTML report's run), not the target's. Such a run is made again, up
 * to twice and `pauseMs` apart; any other outcome is the run's.
 */
export async function againOnStall(made: () => Promise<CliResult>, pauseMs = 2_000): Promise<CliResult> {
  let cli = await made();
  for (let n = 1; n <= 2 && cli.code === 2 && PREFLIGHT_STALL.test(cli.stderr); n++) {
    await new Promise(resolve => setTimeout(resolve, pauseMs));
    cli = await made();
  }
  return cli;
}

/** runCli for a `run` whose target this process serves (againOnStall). */
export const runServedHere = (args: string[], opts: Parameters<typeof runCli>[1] = {}): Promise<CliResult> => againOnStall(() => runCli(args, opts));

/** A shell command as CI runs it: bash -e, in `cwd`, with `env` on top of this process's. */
export function sh(command: string, cwd: string, env: Record<string, string> = {}, timeoutMs = 180_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const full: NodeJS.ProcessEnv = { ...process.env, ...env };
    // Set by `node --test` in its children; it would make a nested Node process report to this runner.
    delete full.NODE_TEST_CONTEXT;
    const child = spawn('bash', ['-ec', command], { cwd, env: full, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', d => { stdout += d; });
    child.stderr.on('data', d => { stderr += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', code => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}
