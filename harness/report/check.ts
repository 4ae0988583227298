// How a check's result and registration travel from a Playwright worker to the
// reporter, and how --grep sees a check. The check vocabulary itself (CheckDef,
// must/should/profile, Outcome) is harness/check/.

/** Name of the Playwright attachment carrying a check's CheckResult from the worker to the reporter. */
export const CHECK_ATTACHMENT = 'pis-check';
/** Name of the Playwright annotation carrying a check's registration (CheckMeta) for a test that ended without a result. */
export const CHECK_ANNOTATION = 'pis-check';

/** A check's requirement ids as Playwright tags (@R6.5-min-delay): --grep matches them as it matches the title. */
export function requirementTags(c: { requirements?: readonly string[] }): string[] {
  return (c.requirements ?? []).map(r => `@${r}`);
}

/** What --grep is matched against for a check, as Playwright matches its test: id and title, then the tags. */
export function grepTitle(c: { id: string; title: string; requirements?: readonly string[] }): string {
  return [`${c.id} ${c.title}`, ...requirementTags(c)].join(' ');
}
