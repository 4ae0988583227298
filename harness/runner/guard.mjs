// Loaded into the Playwright runner with `node --import` (see playwright.ts);
// plain JavaScript, so it needs no loader. Two jobs:
//
// - The runner ends with `run`. `run` holds the other end of a pipe whose fd
//   it names in the run context (guardFd) and never writes to it. When `run` ends in any
//   way (a CI timeout's SIGKILL included) the pipe reads end-of-file, and the
//   runner removes the run's private temp folder and kills its own process
//   group: itself and the Playwright workers, which share it. A run nobody
//   waits for must not go on driving the target and rewrite the report.
// - A reader that hung up (`run ... | head`) is no error: the output ends
//   quietly and the reporter still writes the report folder.
import { rmSync } from 'node:fs';
import { Socket } from 'node:net';

for (const s of [process.stdout, process.stderr]) s.on('error', () => { /* EPIPE: the reader left */ });

// The run context (suites/support/context.ts decodes and checks it; this file
// runs before any TypeScript loads, so it reads its three fields here).
let ctx = {};
try { ctx = JSON.parse(process.env.PIS_RUN_CONTEXT ?? '{}'); } catch { /* not started by run: nothing to guard */ }

function orphaned() {
  const scratch = ctx.scratchDir;
  if (typeof scratch === 'string') { try { rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort, we are going */ } }
  try { process.kill(-process.pid, 'SIGKILL'); } catch { /* not a group leader */ }
  process.kill(process.pid, 'SIGKILL');
}

// The runner only, `run`'s child: the workers load this file too (Playwright
// passes its execArgv on), and their fd 3 is Playwright's IPC channel, not our pipe.
const fd = ctx.runPid === process.ppid ? Number(ctx.guardFd) : NaN;
if (Number.isInteger(fd) && fd > 2) {
  let parent;
  try { parent = new Socket({ fd, readable: true, writable: false }); } catch { /* no such pipe: nothing to watch */ }
  if (parent) {
    parent.on('end', orphaned);
    parent.on('error', orphaned);
    parent.resume();
    parent.unref();
  }
}
