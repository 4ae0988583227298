// Consent drivers: how the end user's part of a consent or a payment
// authorisation is done once the target has given its link (spec 4.4: GET
// /consent "returns a consent authentication URL for the bank"; POST /authorize).
// follow: GET the link and its redirects (the reference, many sandboxes);
// browser: Chromium and a YAML script of clicks and fills; manual: a person.
import { target } from '../target.ts';
import { follow } from './follow.ts';
import { browser } from './browser.ts';
import { manual } from './manual.ts';
import type { ConsentDriver } from './task.ts';

export function consentDriver(): ConsentDriver {
  switch (target().consentDriver) {
    case 'browser': return browser;
    case 'manual': return manual;
    default: return follow;
  }
}
