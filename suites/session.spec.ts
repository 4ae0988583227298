// The session suite (spec 4.4, 7): sessions, consent, and the consent-link error.
// The checks and their levels are listed in catalog/session.ts.
import { registerChecks } from './support/register.ts';
import { SESSION_CHECKS } from './catalog/session.ts';

registerChecks(SESSION_CHECKS);
