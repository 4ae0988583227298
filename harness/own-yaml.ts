// The package's own YAML files (the contracts, the requirements, the catalog),
// parsed once per content rather than at every process start: the command's
// process spent about a third of a CPU second of its start in the YAML parser
// (a minimal run: 1.11 to 1.24 CPU s before, 0.79 to 0.94 after, median of 6
// runs in 4 rounds; Playwright's processes, which parse fewer of the files,
// did not change beyond the noise). The parsed value is kept as JSON under
// node_modules/.cache/pis-conformance/yaml/, named by the sha256 of the text, so
// an edited file is parsed again. A value JSON does not hold alike is never
// kept, and a cache that cannot be read or written is passed over: the file is
// parsed as before. Only the package's own files come here, never a user's.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';

const CACHE_DIR = join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '.cache', 'pis-conformance', 'yaml');

/** The parsed YAML of one of the package's own files; a file that is not YAML throws the parser's error. */
export function readOwnYaml(file: string | URL, cacheDir = CACHE_DIR): unknown {
  const text = readFileSync(file, 'utf8');
  const kept = join(cacheDir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try { return JSON.parse(readFileSync(kept, 'utf8')); } catch { /* not kept yet, or unreadable */ }
  const value: unknown = parse(text);
  try {
    const json = JSON.stringify(value);
    if (json !== undefined && isDeepStrictEqual(JSON.parse(json), value)) {
      mkdirSync(cacheDir, { recursive: true });
      // Whole or not at all: processes that start together may write the same file.
      const partial = `${kept}.${process.pid}`;
      writeFileSync(partial, json);
      renameSync(partial, kept);
    }
  } catch { /* a cache only */ }
  return value;
}
