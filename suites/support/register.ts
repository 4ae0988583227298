// A check as the checks/ folders define it (id, title, spec, quote, body), and
// the three ways a spec file registers one: the caller decides the level
// (STYLE.md 2, after the OpenID suite's callAndContinueOnFailure).
import { check, type CheckContext, type CheckDef } from './check.ts';

export interface Check extends Omit<CheckDef, 'level'> {
  run(c: CheckContext): Promise<void>;
}

export const must = (k: Check) => check({ ...k, level: 'must' }, k.run);
export const should = (k: Check) => check({ ...k, level: 'should' }, k.run);
export const profile = (k: Check) => check({ ...k, level: 'profile' }, k.run);
