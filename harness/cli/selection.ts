// The one selection of a run: which checks of the static catalog (suites/catalog/)
// the options select, matched once, here, with Playwright's --grep semantics.
// `run --list` prints it, `run` decides the webhook drive and the start-first
// watches by it and hands it to Playwright (harness/runner/playwright.ts), so
// the three cannot disagree; every check it leaves out keeps the option that
// did (the reporter lists them as not selected).
import { HarnessError } from '../errors.ts';
import { nearest } from '../flag-values.ts';
import type { NotSelected } from '../report/assemble.ts';
import { grepTitle } from '../report/check.ts';
import { metaOf, type Registered } from '../check/def.ts';
import type { Selection } from '../results/model.ts';
import type { ApiVersion } from '../contracts/api-versions.ts';
import { requirementsAt, whyNotAt } from '../requirements/versions.ts';
import { availableSuites, specFile } from '../runner/playwright.ts';
import { SUITES } from '../config/config.ts';

export interface RunChoice { suites: readonly string[]; grep?: string; grepInvert?: string; profile: boolean; apiVersion: ApiVersion }

/**
 * --grep (or --grep-invert) as Playwright's command line makes it (forceRegExp
 * of its util.js): `/source/flags` with flags g and i only, else the source
 * matched case-insensitively. A pattern that is no regular expression is a bad flag.
 */
function grepRegExp(grep: string, flag = '--grep'): RegExp {
  const slashed = /^\/(.*)\/([gi]*)$/s.exec(grep);
  try {
    return slashed ? new RegExp(slashed[1]!, slashed[2]) : new RegExp(grep, 'gi');
  } catch (e) {
    const why = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new HarnessError('PIS_BAD_FLAG', `${flag} '${grep}' is not a valid regular expression (${why}): ` +
      'put a backslash before ( ) [ ] { } . * + ? | ^ $ to match them as they are, or give a check id such as token.issue.access-token.');
  }
}

/**
 * What Playwright matches --grep against for a check's test: its title path
 * joined by spaces (the untitled root and project, the file, the title "<id>
 * <title>") and the requirement tags.
 */
function grepPath(c: Registered): string {
  return `  ${specFile(c)} ${grepTitle(c)}`;
}

/** The --grep and --grep-invert of a command line, each checked: what RunChoice takes of them. */
export function grepFlags(v: { grep?: string; 'grep-invert'?: string }): Pick<RunChoice, 'grep' | 'grepInvert'> {
  if (v.grep !== undefined) grepRegExp(v.grep);
  if (v['grep-invert'] !== undefined) grepRegExp(v['grep-invert'], '--grep-invert');
  return { ...(v.grep === undefined ? {} : { grep: v.grep }), ...(v['grep-invert'] === undefined ? {} : { grepInvert: v['grep-invert'] }) };
}

/** Whether a pattern matches the check's test, as Playwright's own --grep (or --grep-invert) would match it. */
const grepMatches = (pattern: string, c: Registered): boolean => grepRegExp(pattern).test(grepPath(c));

/** Why the choice leaves the check out, or undefined when it selects it. */
function leftOutBy(c: Registered, choice: RunChoice): string | undefined {
  if (!choice.suites.includes(c.suite)) return `--suites ${choice.suites.join(',')}`;
  const why = whyNotAt(c, choice.apiVersion);
  if (why) return `--api-version ${choice.apiVersion}: the check ${why}`;
  if (c.level === 'profile' && !choice.profile) return '--no-profile';
  if (choice.grep !== undefined && !grepMatches(choice.grep, c)) return `--grep '${choice.grep}'`;
  if (choice.grepInvert !== undefined && grepMatches(choice.grepInvert, c)) return `--grep-invert '${choice.grepInvert}'`;
  return undefined;
}

export interface Selected {
  /** The selected checks in catalog order, each naming the requirements that exist at the run's API version. */
  checks: Registered[];
  /** Every other check of the catalog, with the option that left it out. */
  notSelected: NotSelected[];
}

/** The checks of `catalog` the choice selects, and those it leaves out. */
export function selectChecks(catalog: readonly Registered[], choice: RunChoice): Selected {
  const out: Selected = { checks: [], notSelected: [] };
  for (const c of catalog) {
    const reason = leftOutBy(c, choice);
    if (reason === undefined) out.checks.push({ ...c, requirements: requirementsAt(c, choice.apiVersion) });
    else out.notSelected.push({ ...metaOf(c), reason });
  }
  return out;
}

/** A selection of no check stops the run before anything starts: the same sentence for `run` and `run --list`. */
function nothingSelected(choice: RunChoice): HarnessError {
  const but = choice.grepInvert === undefined ? '' : ` but not --grep-invert '${choice.grepInvert}'`;
  if (choice.grep !== undefined)
    return new HarnessError('PIS_BAD_FLAG', `No check matches --grep '${choice.grep}'${but}: give a check id such as token.issue.access-token.`);
  if (choice.grepInvert !== undefined)
    return new HarnessError('PIS_BAD_FLAG', `--grep-invert '${choice.grepInvert}' leaves out every check: give a narrower pattern.`);
  return new HarnessError('PIS_BAD_FLAG', `The suites ${choice.suites.join(', ')} hold no check at API version ${choice.apiVersion}` +
    `${choice.profile ? '' : ' but profile checks'}: name more --suites${choice.profile ? '' : ', or leave out --no-profile'}.`);
}

/** The checks of the catalog the choice selects (suites of this build only); none is a bad flag. */
export async function select(choice: RunChoice): Promise<ReturnType<typeof selectChecks>> {
  const { CATALOG } = await import('../../suites/catalog/index.ts');
  const built = availableSuites(SUITES);
  const selected = selectChecks(CATALOG.filter(c => built.includes(c.suite)), choice);
  if (!selected.checks.length) throw nothingSelected(choice);
  return selected;
}

/** --suites: the suites of this build it names (default: all of them). */
export function chooseSuites(list: string | undefined): string[] {
  const present = availableSuites(SUITES);
  if (!list) return present;
  const asked = list.split(',').map(s => s.trim()).filter(Boolean);
  for (const s of asked) {
    if (!(SUITES as readonly string[]).includes(s)) {
      const near = nearest(s, SUITES);
      throw new HarnessError('PIS_BAD_FLAG', `--suites names '${s}', which is not a suite: ${near ? `did you mean ${near}? ` : ''}use ${SUITES.join(', ')}.`);
    }
    if (!present.includes(s))
      throw new HarnessError('PIS_BAD_FLAG', `The ${s} suite is not part of this build (no suites/${s}.spec.ts): leave it out of --suites.`);
  }
  if (!asked.length) throw new HarnessError('PIS_BAD_FLAG', `--suites is empty: name at least one of ${present.join(', ')}.`);
  return [...new Set(asked)];
}

export function selectionOf(choice: RunChoice, more: { timeScale: number; maxWaitS: number; allowIncomplete: boolean }): Selection {
  const grep = choice.grep !== undefined ? { grep: choice.grep } : {};
  const invert = choice.grepInvert !== undefined ? { grepInvert: choice.grepInvert } : {};
  return { suites: [...choice.suites], ...grep, ...invert, profile: choice.profile, apiVersion: choice.apiVersion, ...more };
}

/**
 * Whether the run's selection holds a webhook check: without one no checkout
 * is made, and `run` loads no part of the drive (harness/runner/webhook.ts).
 */
export function selectsWebhookCheck(selected: readonly Pick<Registered, 'suite'>[]): boolean {
  return selected.some(k => k.suite === 'webhook');
}
