// What makes a folder a report folder, apart from the writer so that every
// command can check its --report folder at start without loading the renderers.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN_FILE } from './assemble.ts';

/** The signed certificate of a report folder (`attest`, `run --attest`; docs/report.md). */
export const ATTESTATION_FILE = 'attestation.intoto.json';

/** The files a report folder holds; a run clears them before it writes its own, so nothing of an older run is left to be mixed in. */
export const REPORT_FILES = ['results.json', 'results.jsonl', PLAN_FILE, 'junit.xml', 'index.html', ATTESTATION_FILE] as const;

/** Whether `dir` is a folder a run wrote (it holds results.jsonl or plan.json). */
function isReportFolder(dir: string): boolean {
  return existsSync(join(dir, 'results.jsonl')) || existsSync(join(dir, PLAN_FILE));
}

/** Whether `dir` may take a report: it does not exist, is empty, or holds a report of an earlier run. */
export function reportFolderUsable(dir: string): boolean {
  let entries: string[];
  try { entries = readdirSync(dir); } catch { return true; }
  return !entries.length || isReportFolder(dir);
}

