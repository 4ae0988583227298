// The session suite (spec 4.4, 7): sessions, consent, and the consent-link error.
// Every check of the suite in run order, each with the level it is registered at
// (the caller decides severity): the suite file registers them as tests, and
// the catalog lists them without running anything.
import { must, profile, type Registered } from '../../harness/check/def.ts';
import * as lifecycle from '../checks/session/lifecycle.ts';
import * as link from '../checks/session/consent-link.ts';
import * as redirect from '../checks/session/consent-redirect.ts';
import * as expiry from '../checks/session/expiry.ts';
import * as every from '../checks/session/every-operation.ts';
import type { Check } from '../support/check.ts';

export const SESSION_CHECKS: readonly Registered<Check>[] = [
  must(lifecycle.create),
  must(lifecycle.status),
  must(lifecycle.statusUnknown),
  profile(lifecycle.statusFields),
  must(link.consentUrl),
  must(lifecycle.consent),
  must(lifecycle.perBank),
  must(redirect.withoutRedirect),
  must(redirect.redirect),
  must(every.remove),
  must(every.removeKeepsOthers),
  must(link.newRefused),
  must(link.newLink),
  must(link.newSessionPayment),
  must(every.newEveryOperation),
  must(link.perSession),
  profile(link.deletedLink),
  profile(link.errorCode),
  profile(link.linkLeadsToConsent),
  // Last: it reads the watch of checks/session/expiry.ts, which started with the worker.
  must(expiry.expiredSession),
  must(expiry.statusExpired),
];
