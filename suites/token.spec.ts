// The token suite (spec 2.1, 4.1, 4.2, 5, 8): token endpoint and lifecycle.
// The checks and their levels are listed in catalog/token.ts.
import { registerChecks } from './support/register.ts';
import { TOKEN_CHECKS } from './catalog/token.ts';

registerChecks(TOKEN_CHECKS);
