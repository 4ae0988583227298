// Reads the YAML files a run is given (the --config file, the consent
// script): capped in size, and every failure one sentence that names the file.
import { closeSync, openSync, readSync } from 'node:fs';
import { parse } from 'yaml';
import { HarnessError } from '../errors.ts';

/**
 * The most a config file or consent script may hold (1 MiB, arbitrary: a few
 * dozen keys fill a kilobyte). The YAML parser takes seconds and gigabytes on
 * tens of megabytes (30 MB: 21 s and 2.1 GB before its error).
 */
const MAX_YAML_BYTES = 1024 * 1024;

/** Reads at most MAX_YAML_BYTES + 1 bytes, so a huge file, a device or a pipe that never ends costs no more. */
function readCapped(file: string): { text: string; over: boolean } {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(MAX_YAML_BYTES + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length;) n += (got = readSync(fd, buf, n, buf.length - n, null));
    return { text: buf.subarray(0, n).toString('utf8'), over: n > MAX_YAML_BYTES };
  } finally { closeSync(fd); }
}

/** The parsed document; `what` names the file's role in the sentence of an error ("config file"). */
export function readYaml(file: string, what: string): unknown {
  let text: string;
  try {
    const read = readCapped(file);
    if (read.over) {
      throw new HarnessError('PIS_BAD_CONFIG',
        `The ${what} ${file} is over ${MAX_YAML_BYTES / 1024 / 1024} MiB, far more than its settings need: check that it is the right file.`);
    }
    text = read.text;
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    throw new HarnessError('PIS_BAD_CONFIG', `Cannot read the ${what} ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path.`);
  }
  try { return parse(text); } catch (e) {
    throw new HarnessError('PIS_BAD_CONFIG', `The ${what} ${file} is not valid YAML (${(e as Error).message.split('\n')[0]}): fix the syntax.`);
  }
}

/** An error in a config file or consent script: "Config file F: <why>." (a question keeps its question mark). */
export function badConfig(file: string, why: string): HarnessError {
  return new HarnessError('PIS_BAD_CONFIG', `Config file ${file}: ${why}${why.endsWith('?') ? '' : '.'}`);
}
