#!/usr/bin/env node
// Entry point of the installed binary: runs harness/cli.ts through tsx's loader,
// so the TypeScript sources are what runs (no build step). Signals are passed on
// to the child, so Ctrl-C or a SIGTERM stops servers cleanly and the child's own
// exit status is the one a caller sees.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsx = import.meta.resolve('tsx');
const cli = join(root, 'harness', 'cli.ts');
const child = spawn(process.execPath, ['--import', tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  // A terminal's Ctrl-C reaches the child too (same process group); forwarding
  // covers a signal sent to this wrapper alone (kill PID, a CI runner).
  process.on(sig, () => { if (child.exitCode === null) child.kill(sig); });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1) : 2)));
