// token.errors: what the token endpoint answers to bad requests. That a bad
// request gets no token is the spec's (4.1, 5); how the refusal looks (status,
// `error`) is docs/profile.md's reading of RFC 6749 5.2, so those checks are `profile`.
import type { Check } from '../../support/register.ts';
import type { CheckContext } from '../../support/check.ts';
import { obj } from '../../support/api.ts';
import { tokenRequest } from '../../support/tokens.ts';
import { target } from '../../support/target.ts';
import { issuePair, tokenFields } from './common.ts';
import { describeAnswer } from '../../support/check.ts';

interface Case {
  name: string; statuses: number[]; errors: string[]; quote: string;
  /** The bad request's form; it may first get a live refresh token (recorded as the check's evidence). */
  form: (c: CheckContext) => Record<string, string> | Promise<Record<string, string>>;
  /** Requirement ids of the refusal (spec) and of the answer's shape (profile). */
  requirements: { refused: string[]; answer: string[] };
}

const wrongSecret = () => target().clientSecret + '-wrong';
const CASES: Record<string, Case> = {
  'wrong-secret': { name: 'a wrong client secret',
    quote: 'Form fields: grant_type = client_credentials; client_id (string, required); client_secret (string, required).',
    statuses: [400, 401], errors: ['invalid_client', 'unauthorized_client'],
    requirements: { refused: ['R4.1-client-secret-required'], answer: ['P-token-error-client'] },
    form: () => ({ grant_type: 'client_credentials', client_id: target().clientId, client_secret: wrongSecret() }) },
  'missing-secret': { name: 'no client secret',
    quote: 'Form fields: grant_type = client_credentials; client_id (string, required); client_secret (string, required).',
    statuses: [400, 401], errors: ['invalid_client', 'unauthorized_client', 'invalid_request'],
    requirements: { refused: ['R4.1-client-secret-required'], answer: ['P-token-error-client'] },
    form: () => ({ grant_type: 'client_credentials', client_id: target().clientId }) },
  'unknown-client': { name: 'an unknown client id',
    quote: 'Form fields: grant_type = client_credentials; client_id (string, required); client_secret (string, required).',
    statuses: [400, 401], errors: ['invalid_client', 'unauthorized_client'],
    requirements: { refused: ['R4.1-client-id-required'], answer: ['P-token-error-client'] },
    form: () => ({ grant_type: 'client_credentials', client_id: 'pis-conformance-unknown-client', client_secret: wrongSecret() }) },
  'unsupported-grant': { name: 'an unsupported grant_type',
    quote: 'Form fields: grant_type = client_credentials (4.1) or refresh_token (4.2).',
    statuses: [400], errors: ['unsupported_grant_type', 'invalid_request'],
    requirements: { refused: ['R4.1-grant-type'], answer: ['P-token-error-grant'] },
    form: () => ({ grant_type: 'urn:pis-conformance:no-such-grant', client_id: target().clientId, client_secret: target().clientSecret }) },
  'missing-grant': { name: 'no grant_type',
    quote: 'Form fields: grant_type = client_credentials (4.1) or refresh_token (4.2).',
    statuses: [400], errors: ['invalid_request', 'unsupported_grant_type'],
    requirements: { refused: ['R4.1-grant-type'], answer: ['P-token-error-grant'] },
    form: () => ({ client_id: target().clientId, client_secret: target().clientSecret }) },
  'unknown-refresh-token': { name: 'an unknown refresh token',
    quote: 'Form fields: grant_type = refresh_token; refresh_token (string, required); ... This must be done before refresh_token expires.',
    statuses: [400], errors: ['invalid_grant'],
    requirements: { refused: ['R4.2-refresh-grant'], answer: ['P-token-error-refresh'] },
    form: () => ({ grant_type: 'refresh_token', refresh_token: 'pis-conformance-not-a-refresh-token', client_id: target().clientId,
      client_secret: target().clientSecret }) },
  'missing-client': { name: 'no client id',
    quote: 'Form fields: grant_type = client_credentials; client_id (string, required); client_secret (string, required).',
    statuses: [400, 401], errors: ['invalid_client', 'unauthorized_client', 'invalid_request'],
    requirements: { refused: ['R4.1-client-id-required'], answer: ['P-token-error-client'] },
    form: () => ({ grant_type: 'client_credentials', client_secret: target().clientSecret }) },
  'missing-refresh-token': { name: 'a refresh grant without refresh_token',
    quote: 'Form fields: grant_type = refresh_token; refresh_token (string, required); client_id (string, required); client_secret (string, required).',
    statuses: [400], errors: ['invalid_request', 'invalid_grant'],
    requirements: { refused: ['R4.2-refresh-grant'], answer: ['P-token-error-refresh'] },
    form: () => ({ grant_type: 'refresh_token', client_id: target().clientId, client_secret: target().clientSecret }) },
  'refresh-wrong-secret': { name: 'a live refresh token and a wrong client secret',
    quote: 'Form fields: grant_type = refresh_token; refresh_token (string, required); client_id (string, required); client_secret (string, required).',
    statuses: [400, 401], errors: ['invalid_client', 'unauthorized_client'],
    requirements: { refused: ['R4.2-refresh-grant'], answer: ['P-token-error-client'] },
    form: async c => ({ grant_type: 'refresh_token', refresh_token: (await issuePair(c)).refresh, client_id: target().clientId,
      client_secret: wrongSecret() }) },
};

async function ask(c: CheckContext, key: string) {
  const k = CASES[key]!;
  const res = await tokenRequest(c, await k.form(c), k.name);
  return { k, res, body: obj(res) };
}

/** `must`: the request is refused and the answer holds no token. */
function refused(key: string, spec: string): Check {
  const k = CASES[key]!;
  return {
    id: `token.errors.${key}-refused`, requirements: k.requirements.refused, spec, title: `A request with ${k.name} is refused without a token`,
    quote: k.quote,
    async run(c) {
      const { res, body } = await ask(c, key);
      // A 5xx is the server failing, not refusing: under no level is it the refusal this asks for.
      c.expect(res.status >= 400 && res.status < 500, res.status >= 500 ? `a request with ${k.name} made the token endpoint fail instead of refusing it`
        : `a request with ${k.name} was not refused`, 'a 4xx answer', describeAnswer(res));
      c.expect(!tokenFields(body).length, `the refusal of ${k.name} carries a token`, 'no access_token or refresh_token in an error answer',
        tokenFields(body).join(', '));
    },
  };
}

/** `profile`: the refusal is RFC 6749 5.2's: an allowed status and `error` code. */
function answer(key: string, spec: string): Check {
  const k = CASES[key]!;
  return {
    id: `token.errors.${key}-answer`, requirements: k.requirements.answer, spec,
    title: `The refusal of ${k.name} is ${k.statuses.join(' or ')} with error ${k.errors.join(' or ')}`,
    quote: `docs/profile.md (RFC 6749 5.2): ${k.name}: ${k.statuses.join(' or ')}; error is ${k.errors.join(' or ')}.`,
    async run(c) {
      const { res, body } = await ask(c, key);
      c.expect(k.statuses.includes(res.status), `the refusal of ${k.name} has another status`, k.statuses.join(' or '), String(res.status));
      c.expect(typeof body?.error === 'string' && k.errors.includes(body.error), `the refusal of ${k.name} has another error code`,
        `error: ${k.errors.join(' or ')}`, describeAnswer(res));
    },
  };
}

const SECTIONS: Record<string, string> = {
  'wrong-secret': '4.1', 'missing-secret': '4.1', 'unknown-client': '4.1', 'missing-client': '4.1', 'unsupported-grant': '4.1',
  'missing-grant': '4.1', 'unknown-refresh-token': '4.2', 'missing-refresh-token': '4.2', 'refresh-wrong-secret': '4.2',
};
export const REFUSED: Check[] = Object.entries(SECTIONS).map(([key, spec]) => refused(key, spec));
export const ANSWERS: Check[] = Object.entries(SECTIONS).map(([key, spec]) => answer(key, spec));
