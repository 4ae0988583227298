// `run --list`: the checks a selection would run, with level, spec section,
// requirement ids and places, without starting anything. The selection is
// the one `run` computes and hands to Playwright (selection.ts).
import type { Registered } from '../check/def.ts';
import { counted } from '../report/verdict.ts';
import { palette } from '../report/colour.ts';
import type { StdoutReporter } from '../report/terminal.ts';
import type { ApiVersion } from '../contracts/api-versions.ts';
import { membersOf } from '../places/index.ts';
import { pluralFamily } from '../results/places.ts';

/** The places a check covers at a version, in words: "every operation (21)", "2 of 4 products", "every bank of the target", "one place". */
function placesText(c: Registered, v: ApiVersion): string {
  if (!c.bindsAt) return 'one place';
  const { family, only } = c.bindsAt;
  const members = membersOf(family, v);
  if (!only) return members ? `every ${family} (${members.length})` : `every ${family} of the target`;
  return members ? `${only.length} of ${members.length} ${pluralFamily(family)}` : `${only.length} ${only.length === 1 ? family : pluralFamily(family)}`;
}

export function formatList(checks: readonly Registered[], mode: StdoutReporter, v: ApiVersion): string {
  if (mode === 'json') {
    return checks.map(c => JSON.stringify({ type: 'check', id: c.id, suite: c.suite, level: c.level, spec: c.spec, requirements: c.requirements,
      title: c.title, places: placesText(c, v) })).join('\n') + '\n';
  }
  const p = palette();
  const idW = Math.max(...checks.map(c => c.id.length), 2);
  const reqW = Math.min(40, Math.max(...checks.map(c => c.requirements.join(',').length), 12));
  const level = (l: string) => (l === 'must' ? p.bold : l === 'should' ? p.yellow : p.grey)(l.padEnd(7));
  const rows = checks.map(c =>
    `${c.id.padEnd(idW)}  ${level(c.level)}  ${`spec ${c.spec}`.padEnd(12)}  ${(c.requirements.join(',') || '-').padEnd(reqW)}  ${c.title}`
    + (c.bindsAt ? ` [at ${placesText(c, v)}]` : ''));
  const count = (l: string) => checks.filter(c => c.level === l).length;
  const suites = [...new Set(checks.map(c => c.suite))];
  return [...rows, '', `${counted(checks.length, 'check')} in ${suites.length} suite${suites.length === 1 ? '' : 's'} (${suites.join(', ')}): ` +
    `${count('must')} must, ${count('should')} should, ${count('profile')} profile.`].join('\n') + '\n';
}
