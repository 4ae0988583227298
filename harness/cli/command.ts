// What every command file in harness/cli/ exports, and the checks of a report
// folder flag they share (the flags themselves are parsed from each command's
// table: option-table.ts, parse-flags.ts).
import { mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { reportFolderUsable } from '../report/folder.ts';
import type { CommandOption } from './option-table.ts';

export interface Command {
  name: string;
  /** Full --help text; its option rows are written from `options` (optionsHelp). */
  help: string;
  /** Every flag it takes, the table its parser reads (option-table.ts): docs/options.md is written from it. */
  options: readonly CommandOption[];
  /** Returns the exit status: 0 conformant/ok, 1 not conformant, 2 could not run. */
  run(argv: string[]): Promise<number>;
}

/**
 * Checks at start that the report folder can be written, so a run does not
 * find out only after the whole session. Creates nothing that stays: a folder
 * that does not exist yet is probed in its nearest existing parent.
 */
export function reportDirFlag(value: string | undefined, fallback: () => string): string {
  const dir = resolve(value ?? fallback());
  let probe = dir;
  for (;;) {
    let isDir: boolean | undefined;
    try { isDir = statSync(probe).isDirectory(); } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // ENOTDIR: a file further up the path, found on the way up.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw reportError(dir, `${probe} cannot be read (${code})`);
    }
    if (isDir === false) throw reportError(dir, `${probe} is a file, not a folder`);
    if (isDir) break;
    if (dirname(probe) === probe) throw reportError(dir, 'no part of the path exists');
    probe = dirname(probe);
  }
  try {
    rmdirSync(mkdtempSync(join(probe, '.pis-write-test-')));
  } catch (e) {
    throw reportError(dir, `${probe} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // A run clears the report files of a folder it reuses; a folder of other files it leaves alone.
  if (!reportFolderUsable(dir))
    throw new HarnessError('PIS_BAD_FLAG', `The report folder ${dir} holds files but no report (no results.jsonl or plan.json): ` +
      'give --report a new or empty folder, or one a run wrote.');
  return dir;
}

function reportError(dir: string, why: string): HarnessError {
  return new HarnessError('PIS_BAD_FLAG', `The report folder ${dir} cannot be made: ${why}; give --report a folder you can write to.`);
}
