// The session suite (spec 4.4, 7): sessions, consent, and the consent-link error.
// The checks and their levels are listed in catalog/session.ts. The check that
// waits for a consent to expire comes last and reads a watch that starts with
// the worker, so its wait runs beside every other check.
import { registerChecks } from './support/register.ts';
import { startFirst } from './support/start-first.ts';
import { SESSION_CHECKS } from './catalog/session.ts';
import * as expiry from './checks/session/expiry.ts';

startFirst([{ readers: [expiry.expiredSession], start: expiry.sessionWatch }]);
registerChecks(SESSION_CHECKS);
