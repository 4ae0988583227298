// What makes a folder a report folder, apart from the writer so that every
// command can check its --report folder at start without loading the renderers.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { PLAN_FILE } from './assemble.ts';

/** The signed certificate of a report folder (`attest`, `run --attest`; docs/report.md). */
export const ATTESTATION_FILE = 'attestation.intoto.json';
/** The lock a run holds on its report folder: the pid of the process that writes it. */
const LOCK_FILE = '.pis-lock';

/** The files a report folder holds; a run clears them before it writes its own, so nothing of an older run is left to be mixed in. */
export const REPORT_FILES = ['results.json', 'results.jsonl', PLAN_FILE, 'junit.xml', 'index.html', ATTESTATION_FILE] as const;

/** Whether `dir` is a folder a run wrote (it holds results.jsonl or plan.json). */
function isReportFolder(dir: string): boolean {
  return existsSync(join(dir, 'results.jsonl')) || existsSync(join(dir, PLAN_FILE));
}

/** Whether `dir` may take a report: it does not exist, is empty, or holds a report of an earlier run. */
export function reportFolderUsable(dir: string): boolean {
  let entries: string[];
  try { entries = readdirSync(dir).filter(e => e !== LOCK_FILE); } catch { return true; }
  return !entries.length || isReportFolder(dir);
}


/** Whether a process of this pid exists (EPERM: it does, under another user). */
function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

/**
 * Takes the report folder for this process, so that two runs never write one
 * folder at once (their results.jsonl lines would mix): a folder locked by a
 * live process stops the command with a harness error; the lock of a process
 * that is gone (killed) is taken over. Released when the process exits, or by
 * the function returned; a folder the lock made and nothing else filled is removed.
 */
export function lockReportFolder(dir: string): () => void {
  const made = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let pid = NaN;
    try { pid = Number(readFileSync(file, 'utf8').trim()); } catch { /* removed meanwhile: try again */ }
    if ((Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) || attempt >= 2)
      throw new HarnessError('PIS_BAD_FLAG', `Another run (pid ${pid}) is writing the report folder ${dir}: wait for it to end, or give another --report.`);
    try { unlinkSync(file); } catch { /* another process took it over first */ }
  }
  const release = () => {
    process.removeListener('exit', release);
    try { if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file); } catch { /* already gone */ }
    try { if (made && !readdirSync(dir).length) rmdirSync(dir); } catch { /* in use or gone */ }
  };
  process.on('exit', release);
  return release;
}
