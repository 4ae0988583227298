// How long the reference's access tokens, refresh tokens and consents live, in
// spec seconds. Spec 8 gives the token lifetimes by expires_in and
// refresh_expires_in; 3600 and 7200 are the values "in the shown response"
// (spec 2.1, 8), so any other positive lifetime, stated in the answer, is
// conformant. The spec says nothing of how long a consent lasts; one hour is
// this reference's default.
import { HarnessError } from '../errors.ts';

export interface Lifetimes {
  accessS: number;
  refreshS: number;
  consentS: number;
}

/** The values of the spec's shown response; serve-reference uses them unless told otherwise. */
export const SHOWN_LIFETIMES: Readonly<Lifetimes> = { accessS: 3600, refreshS: 7200, consentS: 3600 };

/**
 * `ACCESS,REFRESH[,CONSENT]` in spec seconds (the --lifetimes flag), e.g.
 * `25,50,50`; a consent left out lasts as long as the refresh token.
 */
export function parseLifetimes(text: string, flag = '--lifetimes'): Lifetimes {
  const parts = text.split(',').map(s => s.trim());
  const nums = parts.map(Number);
  if (parts.length < 2 || parts.length > 3 || nums.some(n => !Number.isInteger(n) || n <= 0))
    throw new HarnessError('PIS_BAD_FLAG',
      `${flag} takes two or three whole numbers of spec seconds, ACCESS,REFRESH[,CONSENT] (e.g. 3600,7200,3600), not '${text}'.`);
  const [accessS, refreshS, consentS = refreshS] = nums as [number, number, number?];
  if (refreshS < accessS)
    throw new HarnessError('PIS_BAD_FLAG', `${flag}: the refresh token (${refreshS} s) must live at least as long as the access token (${accessS} s).`);
  return { accessS, refreshS, consentS };
}
