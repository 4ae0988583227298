// What a consent driver is given and what it reports (driver.ts picks the
// driver; follow.ts, browser.ts and manual.ts are the drivers).
import type { CheckContext } from '../check.ts';
import { target } from '../target.ts';

export interface ConsentTask {
  /** The link the target gave. */
  href: string;
  what: 'consent' | 'authorize';
  /** Asks the target whether the end user's part is done (the manual driver polls it). */
  done: () => Promise<boolean>;
  /** Where the check's evidence goes; null during setup. */
  c: CheckContext | null;
}

/** Where the end user's part ended, as far as the driver can see it (a person's browser it cannot see). */
export interface ConsentOutcome {
  /** True when the bank sent the end user to x-redirect-url; undefined when the driver cannot tell. */
  redirectedBack?: boolean;
  /** The last address the driver reached. */
  finalUrl?: string;
}

export type ConsentDriver = (task: ConsentTask) => Promise<ConsentOutcome>;

/**
 * Why the drivers may not go to `url`, or undefined when they may: only the
 * origins of the target's own URLs and those of --consent-origins, so a consent
 * link cannot make the harness fetch an address of the network it runs in.
 */
export function originRefused(url: string, what: string): string | undefined {
  let origin: string;
  try { origin = new URL(url).origin; } catch { return `the ${what} link is not a URL`; }
  const t = target();
  const own = [t.authUrl, t.baseUrl, t.controlUrl].flatMap(u => { try { return u ? [new URL(u).origin] : []; } catch { return []; } });
  if ([...own, ...(t.consentOrigins ?? [])].includes(origin)) return undefined;
  return `the ${what} link leads to ${origin}, which is not an origin of the target's URLs: the driver does not go there ` +
    `unless --consent-origins names it`;
}

/** The remedy of a refused origin. */
export const originRemedy = (url: string) => `give --consent-origins ${(() => { try { return new URL(url).origin; } catch { return url; } })()}`;

/** True when `url` is where the bank sends the end user back (x-redirect-url): the flow is over there. */
export function isRedirectBack(url: string): boolean {
  return url.startsWith(target().redirectUrl);
}
