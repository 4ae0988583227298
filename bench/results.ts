// Writes one benchmark's section of bench/RESULTS.md, between its markers
// `<!-- NAME -->` and `<!-- /NAME -->` (appended when the section is new).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function writeResultsSection(name: string, text: string): void {
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const marker = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`<!-- ${marker} -->[\\s\\S]*?<!-- /${marker} -->`);
  writeFileSync(file, re.test(old) ? old.replace(re, () => text) : `${old.trimEnd()}\n\n${text}\n`);
}
