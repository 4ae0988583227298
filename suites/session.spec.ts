// The session suite (spec 4.4, 7): sessions, consent, and the consent-link error.
// Levels are decided here, where each check is registered (STYLE.md 2).
import { must, profile } from './support/register.ts';
import * as lifecycle from './checks/session/lifecycle.ts';
import * as link from './checks/session/consent-link.ts';

must(lifecycle.create);
must(lifecycle.status);
profile(lifecycle.statusFields);
must(link.consentUrl);
must(lifecycle.consent);
must(lifecycle.remove);
must(link.newRefused);
must(link.newLink);
profile(link.deletedLink);
profile(link.errorCode);
profile(link.linkLeadsToConsent);
