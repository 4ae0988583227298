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
