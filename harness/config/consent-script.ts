// The browser consent driver's script (`--consent-script FILE`, or inline in
// the config file): a YAML list of {goto}, {click}, {fill, value}, {press,
// key}, {waitFor}, {waitForUrl}. A first {goto} replaces the driver's own
// visit of the link ({href} in it is the link).
import { badConfig, readYaml } from './yaml.ts';

/** One step of the `browser` consent driver's YAML script. */
export type ConsentStep =
  | { goto: string }
  | { click: string }
  | { fill: string; value: string }
  | { press: string; key: string }
  | { waitFor: string }
  | { waitForUrl: string };

export function loadConsentScript(file: string): ConsentStep[] {
  return checkSteps(readYaml(file, 'consent script'), file);
}

/** The steps of a script, a list or {steps: list}; `file` names where they were written. */
export function checkSteps(data: unknown, file: string): ConsentStep[] {
  const list = (data && typeof data === 'object' && !Array.isArray(data) && 'steps' in data) ? (data as { steps: unknown }).steps : data;
  if (!Array.isArray(list) || !list.length) throw badConfig(file, 'the consent script must be a non-empty list of steps such as {click: "#approve"}');
  return list.map((s, i) => {
    const ok = s && typeof s === 'object' && (
      typeof s.goto === 'string' || typeof s.click === 'string' || typeof s.waitFor === 'string' || typeof s.waitForUrl === 'string'
      || (typeof s.fill === 'string' && typeof s.value === 'string') || (typeof s.press === 'string' && typeof s.key === 'string'));
    if (!ok) throw badConfig(file, `step ${i + 1} must be one of {goto: URL ({href} is the link)}, {click: SELECTOR}, {fill: SELECTOR, value: TEXT}, `
      + '{press: SELECTOR, key: KEY}, {waitFor: SELECTOR}, {waitForUrl: PATTERN}');
    return s as ConsentStep;
  });
}
