// What a `run` selects and what it leaves out: the selection recorded in every
// report file, and the checks of the static catalog the options leave out,
// each with the option that did (the reporter lists them as not selected).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NotSelected } from '../report/assemble.ts';
import { metaOf, type Registered } from '../check/def.ts';
import type { Selection } from '../report/model.ts';
import type { ApiVersion } from '../contracts/api-versions.ts';
import { whyNotAt } from '../requirements/versions.ts';
import { SUITE_CHECKS } from '../../suites/catalog/index.ts';

export interface RunChoice { suites: string[]; allSuites: readonly string[]; grep?: string; profile: boolean; apiVersion: ApiVersion }

/** Why a check is left out of a run at `--api-version V` ("--api-version 2.0.0: the check appeared in 3.0.0"), if it is. */
function versionReason(r: Registered, v: ApiVersion): string | undefined {
  const why = whyNotAt(r, v);
  return why && `--api-version ${v}: the check ${why}`;
}

/** Every check of the run's suites (selected or not), each with the option that would leave it out. */
export function candidates(choice: RunChoice): NotSelected[] {
  return choice.allSuites.flatMap(suite => (SUITE_CHECKS[suite as keyof typeof SUITE_CHECKS] ?? []).map(r => ({
    ...metaOf(r),
    reason: !choice.suites.includes(suite) ? `--suites ${choice.suites.join(',')}`
      : versionReason(r, choice.apiVersion) ?? (r.level === 'profile' && !choice.profile ? '--no-profile'
        : choice.grep !== undefined ? `--grep '${choice.grep}'`
        : 'not registered by its suite'),
  })));
}

export function selectionOf(choice: RunChoice, more: { timeScale: number; maxWaitS: number; allowIncomplete: boolean }): Selection {
  const grep = choice.grep !== undefined ? { grep: choice.grep } : {};
  return { suites: choice.suites, ...grep, profile: choice.profile, apiVersion: choice.apiVersion, ...more };
}

/** Writes the candidates where the reporter reads them (PIS_REPORT_CANDIDATES); returns the path and its cleanup. */
export function writeCandidates(list: NotSelected[]): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pis-candidates-'));
  const file = join(dir, 'candidates.json');
  writeFileSync(file, JSON.stringify(list));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
