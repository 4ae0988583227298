// Consent drivers: how the end user's part of a consent or a payment
// authorisation is done once the target has given its link (spec 4.4: GET
// /consent "returns a consent authentication URL for the bank"; POST /authorize).
// follow: GET the link and its redirects (the reference, many sandboxes);
// browser: Chromium and a YAML script of clicks and fills; manual: a person.
import type { CheckContext } from '../check.ts';
import { target } from '../target.ts';
import { follow } from './follow.ts';
import { browser } from './browser.ts';
import { manual } from './manual.ts';

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

export function consentDriver(): ConsentDriver {
  switch (target().consentDriver) {
    case 'browser': return browser;
    case 'manual': return manual;
    default: return follow;
  }
}

/** True when `url` is where the bank sends the end user back (x-redirect-url): the flow is over there. */
export function isRedirectBack(url: string): boolean {
  return url.startsWith(target().redirectUrl);
}
