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

/** True when `url` is where the bank sends the end user back (x-redirect-url): the flow is over there. */
export function isRedirectBack(url: string): boolean {
  return url.startsWith(target().redirectUrl);
}
