// token.use: the API takes the tokens the endpoint issues and nothing else (spec 5).
// How the token is presented is "not shown" (spec 5); profile.md's
// `Authorization: Bearer` is the default, overridable in the config.
import type { Check } from '../../support/register.ts';
import { Prerequisite } from '../../support/check.ts';
import { refreshForm, tokenRequest } from '../../support/tokens.ts';
import { obj } from '../../support/api.ts';
import { requireApi, describe, issuePair, probeApi } from './common.ts';

const refusedStatus = (s: number) => s === 401 || s === 403 || (s >= 400 && s < 600);

export const accepted: Check = {
  id: 'token.use.accepted', requirements: ['R2.1-token-needed', 'P-call-bearer'], spec: '5',
  title: 'The API accepts an access token from the token endpoint',
  quote: 'access_token | string | Token needed to call the API.',
  async run(c) {
    requireApi(c, 'using a token');
    const { access } = await issuePair(c, false);
    const res = await probeApi(c, access, 'API call with the issued token');
    c.expect(res.status !== 401 && res.status !== 403, 'the API refused a fresh access token', 'not 401 or 403', describe(res));
  },
};

export const wrongRefused: Check = {
  id: 'token.use.wrong-token-refused', requirements: ['R2.1-token-needed'], spec: '5',
  title: 'The API refuses a made-up access token',
  quote: 'The API uses the OAuth 2.0 client credentials grant ... and receives access_token (only issued tokens open the API).',
  async run(c) {
    requireApi(c, 'using a token');
    const res = await probeApi(c, 'pis-conformance-made-up-token', 'API call with a made-up token');
    c.expect(refusedStatus(res.status), 'the API accepted a made-up access token', 'a refusal (401)', describe(res));
  },
};

export const missingRefused: Check = {
  id: 'token.use.no-token-refused', requirements: ['R2.1-token-needed'], spec: '5',
  title: 'The API refuses a call without a token',
  quote: 'access_token | string | Token needed to call the API.',
  async run(c) {
    requireApi(c, 'using a token');
    const res = await probeApi(c, null, 'API call without a token');
    c.expect(refusedStatus(res.status), 'the API answered a call without a token', 'a refusal (401)', describe(res));
  },
};

export const wrong401: Check = {
  id: 'token.use.wrong-token-401', requirements: ['P-call-wrong-token-401'], spec: '5',
  title: 'A wrong access token is answered 401',
  quote: 'profile.md: expired or wrong access token -> 401.',
  async run(c) {
    requireApi(c, 'using a token');
    const res = await probeApi(c, 'pis-conformance-made-up-token', 'API call with a made-up token');
    c.expect(res.status === 401, 'a wrong token was not answered 401', '401', describe(res));
  },
};

export const refreshedAccepted: Check = {
  id: 'token.use.refreshed-token-accepted', requirements: ['R4.2-tokens-renewed'], spec: '4.2',
  title: 'The access token from a refresh opens the API',
  quote: 'To keep the session alive, the client exchanges refresh_token for a new pair (4.2).',
  async run(c) {
    requireApi(c, 'using a token');
    const { refresh } = await issuePair(c);
    const res = await tokenRequest(c, refreshForm(refresh), 'refresh token grant');
    const access = obj(res)?.access_token;
    if (res.status !== 200 || typeof access !== 'string') throw new Prerequisite(`the refresh grant answered ${res.status} (see token.refresh)`);
    const api = await probeApi(c, access, 'API call with the refreshed token');
    c.expect(api.status !== 401 && api.status !== 403, 'the API refused the refreshed access token', 'not 401 or 403', describe(api));
  },
};
