// Mutations: a pass-through in front of the clean reference that breaks one
// rule of its answers (or of the suites' requests), to show a check fail that
// no catalog fault reaches. contracts/proofs.yaml names the checks each must
// fail. The mutations of one run are on together and must fail exactly the
// union of their checks; a mutation that breaks something every check builds
// on (tokens, sessions, consent, the bank list) gets a run of its own that
// selects only its checks (--grep), since the others would only skip.
import { operationsAt } from '../../harness/places/operations.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import { editJson as json, errorAnswer, jsonAnswer, type Answer, type Exchange, type ProxyMutation } from '../helpers/proxy.ts';

export interface Mutation extends ProxyMutation {
  /** The run of RUNS that proves it. */
  run: RunName;
}

export interface MutationRun {
  suites: string;
  /** Only the checks whose test title matches (Playwright --grep). */
  grep?: string;
  /** More flags of `run`. */
  args?: string[];
}

/**
 * The banks every run visits: strong customer authentication (dnb-no,
 * danske-dk) and none (deutsche-de), both scheduled products between them and
 * one missing at each, Nordic status codes, confirm-funds answered and Not
 * Implemented (danske-dk), two or more banks for the optional-header checks.
 */
export const BANKS = 'dnb-no,danske-dk,deutsche-de';

export const RUNS = {
  shared: { suites: 'token,session,data,payments' },
  alternates: { suites: 'session,data,payments' },
  // Optional headers made required and error codes renumbered would mask what the shared run's mutations show.
  optional: { suites: 'session,data,payments' },
  'access-token': { suites: 'token', grep: 'token\\.issue\\.access-token ' },
  'token-use': { suites: 'token', grep: 'token\\.use\\.accepted ' },
  // Token checks whose proofs the shared run's mutations would mask: each alone.
  'token-alone': { suites: 'token', grep: 'token\\.(use\\.(wrong-token-refused|wrong-token-401|no-token-refused)|issue\\.optional-fields) ' },
  // The same checks, with a token served at one operation of another family each (confirm-funds, a payment read by its id).
  'token-places': { suites: 'token', grep: 'token\\.use\\.(wrong-token-refused|wrong-token-401|no-token-refused) ' },
  'session-create': { suites: 'session', grep: 'session\\.lifecycle\\.create ' },
  'consent-url': { suites: 'session', grep: 'session\\.consent-link\\.consent-url ' },
  'consent-kept': { suites: 'session', grep: 'session\\.lifecycle\\.consent ' },
  'banks-list': { suites: 'data', grep: 'data\\.banks\\.list ' },
  'per-bank': { suites: 'session', grep: 'session\\.lifecycle\\.per-bank-accounts ' },
  // The reference's consent lifetime (one spec hour), so that a consent lost before it is a finding.
  'consent-lost': { suites: 'data', grep: 'data\\.transactions\\.list ', args: ['--session-lifetime', '3600'] },
  // The consent-link error served away at one operation: the checks that judge it at every session-bound operation.
  'consent-places': { suites: 'session', grep: 'session\\.(consent-link\\.new-session-every-operation|lifecycle\\.delete) ' },
  // The consent-link error served away in one country only: the check that probes every operation at one bank per country.
  'consent-countries': { suites: 'session', grep: 'session\\.consent-link\\.new-session-every-operation ' },
  // A delete at one bank ends every session there, in one country only: the check that deletes at one bank per country.
  'delete-countries': { suites: 'session', grep: 'session\\.lifecycle\\.delete-keeps-other-sessions ' },
  // Sessions started without an id in one country only: the check that starts one at one bank per country.
  'create-countries': { suites: 'session', grep: 'session\\.lifecycle\\.create ' },
  // The consent URL left out in one country only: the check that asks for one at one bank per country.
  'consent-url-countries': { suites: 'session', grep: 'session\\.consent-link\\.consent-url ' },
  // A consent that outlives its session's delete in one country only: the check that deletes sessions at one bank per country
  // (the expired session, which needs the consent lifetime, is proven so in test/proofs/operation-places.test.ts).
  'ended-countries': { suites: 'session', grep: 'session\\.lifecycle\\.delete ' },
  // The bank's redirect after consent ignored, and x-redirect-url required, in one country only: the checks that give consent at one bank per country.
  'redirect-countries': { suites: 'session', grep: 'session\\.lifecycle\\.consent-(redirect|without-redirect-url) ' },
  'accounts-list': { suites: 'data', grep: 'data\\.accounts\\.list ' },
  'transactions-list': { suites: 'data', grep: 'data\\.transactions\\.list ' },
} satisfies Record<string, MutationRun>;
export type RunName = keyof typeof RUNS;

/** Access tokens that came from a refresh (refreshed-token-refused). */
const refreshed = new Set<string>();

const NO_SUCH_BANK = '/api/banks/pis-conformance-no-such-bank';
const TOKEN = /\/openid-connect\/token$/;
const isApi = (x: Exchange) => x.path.startsWith('/api/');
const grant = (x: Exchange) => new URLSearchParams(x.body).get('grant_type');
const ok = (a: Answer) => a.status >= 200 && a.status < 300;
const error = errorAnswer;
const without = (x: Exchange, header: string) => !x.headers[header];
const each = (body: unknown, edit: (item: Record<string, unknown>) => void) => {
  for (const item of Array.isArray(body) ? body : [body]) if (item && typeof item === 'object') edit(item as Record<string, unknown>);
};
/** The request's JSON body, {} when it has none. */
const body = (x: Exchange): Record<string, unknown> => { try { return JSON.parse(x.body || '{}'); } catch { return {}; } };
const isCode = (a: Answer, code: string) => { try { return JSON.parse(a.text)?.errorCode === code; } catch { return false; } };
const created = (paymentId: string, status: string) => jsonAnswer({ paymentId, status, creationDateTime: '2026-11-22T10:00:00.000Z' }, 201);

/**
 * The name filter lists every bank sharing a word with the name asked for
 * ("Danske Bank" lists "Deutsche Bank"): the list comes from the last
 * unfiltered GET /banks the proxy passed on (the suites read it first).
 */
function nameFilterLoose(): ProxyMutation {
  let all: { bankDisplayName?: string; bankOfficialName?: string }[] = [];
  const words = (t = '') => t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(w => w.length > 1);
  return {
    answer: (x, a) => {
      if (x.method !== 'GET' || !x.path.startsWith('/api/banks')) return;
      if (x.path === '/api/banks' && !x.query.size) { json(a, b => { if (Array.isArray(b)) all = b; }); return; }
      const name = x.query.get('name');
      if (!name || !all.length) return;
      const asked = new Set(words(name));
      Object.assign(a, jsonAnswer(all.filter(b => [...words(b.bankDisplayName), ...words(b.bankOfficialName)].some(w => asked.has(w)))));
    },
  };
}

const bearer = (x: Exchange) => (x.headers.authorization ?? '').replace(/^Bearer\s+/i, '');

/**
 * One operation serves a token it should refuse: a call to it whose token
 * `wrong` picks (never issued, none) goes on with the last token the API
 * served, so the reference answers it as it would a live token.
 */
function servedAt(method: string, path: RegExp, wrong: (token: string, issued: Set<string>) => boolean): ProxyMutation {
  const issued = new Set<string>();
  let live = '';
  return {
    request: x => {
      if (x.method === method && path.test(x.path) && live && wrong(bearer(x), issued)) x.headers.authorization = `Bearer ${live}`;
    },
    answer: (x, a) => {
      if (TOKEN.test(x.path) && a.status === 200) json(a, b => { if (typeof b?.access_token === 'string') issued.add(b.access_token); });
      if (isApi(x) && ok(a) && bearer(x)) live = bearer(x);
    },
  };
}

const hasConsentLink = (body: any) => Array.isArray(body?.links) && body.links.some((l: { rel?: string }) => l?.rel === 'consent');
const payment = (x: Exchange, product: RegExp) => x.method === 'POST' && new RegExp(`^/api/payments/${product.source}$`).test(x.path);

/**
 * One mutation per session-bound operation (harness/places/operations.ts) but
 * GET /accounts, transactions and payment initiation, which catalog faults
 * break: the consent-link error (1426) there, and only there, becomes a 2xx.
 */
const consentSkipped: Record<string, Mutation> = Object.fromEntries(operationsAt(LATEST_API_VERSION)
  .filter(o => o.sessionBound && !['accounts', 'transactions', 'payments'].includes(o.path))
  .map(o => {
    const [method, path] = o.id.split(' ') as [string, string];
    const at = new RegExp(`^/api${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    const name = `consent-skipped-${o.id.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-+$/, '')}`;
    const mutation: Mutation = {
      run: 'consent-places',
      answer: (x, a) => { if (x.method === method && at.test(x.path) && isCode(a, '1426')) Object.assign(a, jsonAnswer({})); },
    };
    return [name, mutation];
  }));

/**
 * GET /accounts in a session at deutsche-de (the one German bank of BANKS) is
 * served without consent: the consent-link error (1426) becomes a 2xx there
 * only. The bank of each session is learned from POST /session.
 */
function consentSkippedAt(bankId: string): ProxyMutation {
  const bankOf = new Map<string, string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a)) json(a, b => { bankOf.set(String(b.sessionId), String(body(x).bankId)); });
      if (x.method === 'GET' && x.path === '/api/accounts' && isCode(a, '1426') && bankOf.get(x.headers['x-session-id'] ?? '') === bankId)
        Object.assign(a, jsonAnswer([]));
    },
  };
}

/**
 * A session at danske-dk lists, besides its own accounts, those every other
 * bank listed before: the bank of each session is learned from POST /session.
 */
function accountsOfEveryBank(): ProxyMutation {
  const bankOf = new Map<string, string>();
  const listed = new Map<string, unknown[]>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a)) json(a, b => { bankOf.set(String(b.sessionId), String(body(x).bankId)); });
      if (x.method !== 'GET' || x.path !== '/api/accounts' || !ok(a)) return;
      const bank = bankOf.get(x.headers['x-session-id'] ?? '');
      if (!bank) return;
      json(a, b => {
        if (!Array.isArray(b)) return;
        if (bank !== 'danske-dk') { listed.set(bank, b); return; }
        return [...b, ...[...listed.values()].flat()];
      });
    },
  };
}

/**
 * A DELETE /session at `bankId` ends every session the bank had then: GET
 * /accounts in any of them answers the consent-link error. The bank of each
 * session is learned from POST /session.
 */
function deleteEndsBankAt(bankId: string): ProxyMutation {
  const at = new Set<string>(), dead = new Set<string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
      if (x.method === 'DELETE' && at.has(x.path.split('/').pop() ?? '') && ok(a)) for (const id of at) dead.add(id);
      if (x.method === 'GET' && x.path === '/api/accounts' && ok(a) && dead.has(x.headers['x-session-id'] ?? ''))
        Object.assign(a, error(510, '1426', `every session at ${bankId} ended by the delete of one (mutation)`));
    },
  };
}

/**
 * A session at `bankId` whose accounts were once served keeps being served
 * after it was deleted or its consent expired: the consent-link error to GET
 * /accounts there becomes a 2xx. The bank of each session is learned from
 * POST /session.
 */
function consentOutlivesSessionAt(bankId: string): ProxyMutation {
  const at = new Set<string>(), served = new Set<string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
      const id = x.headers['x-session-id'] ?? '';
      if (x.method !== 'GET' || x.path !== '/api/accounts' || !at.has(id)) return;
      if (ok(a)) served.add(id);
      else if (served.has(id) && isCode(a, '1426')) Object.assign(a, jsonAnswer([]));
    },
  };
}

/**
 * The bank page of a consent for a session at `bankId` sends the browser to
 * its own done page instead of the x-redirect-url: the pages are learned from
 * the links GET /consent answered for such sessions.
 */
function consentRedirectIgnoredAt(bankId: string): ProxyMutation {
  const at = new Set<string>(), pages = new Set<string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
      if (x.method === 'GET' && x.path.startsWith('/api/consent/') && ok(a) && at.has(x.path.split('/').pop() ?? ''))
        for (const m of a.text.matchAll(/\/bank\/consent\/[\w-]+/g)) pages.add(m[0]);
      if (pages.has(x.path) && a.status >= 300 && a.status < 400) a.headers.location = `http://${x.headers.host}/bank/done?what=consent`;
    },
  };
}

/** GET /consent for a session at `bankId` without x-redirect-url is refused: the bank of each session is learned from POST /session. */
function consentRedirectRequiredAt(bankId: string): ProxyMutation {
  const at = new Set<string>();
  return {
    request: x => {
      if (x.method === 'GET' && x.path.startsWith('/api/consent/') && at.has(x.path.split('/').pop() ?? '') && without(x, 'x-redirect-url'))
        return error(510, '1005', 'Missing x-redirect-url (mutation)');
    },
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
    },
  };
}

/** GET /consent for a session at `bankId` answers without its links (the consent URL): the bank of each session is learned from POST /session. */
function consentNoLinkAt(bankId: string): ProxyMutation {
  const at = new Set<string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
      if (x.method === 'GET' && x.path.startsWith('/api/consent/') && ok(a) && at.has(x.path.split('/').pop() ?? '')) json(a, b => { delete b.links; });
    },
  };
}

/** GET /accounts in a session at `bankId` answers the consent-link error whatever the consent: the bank of each session is learned from POST /session. */
function consentNotKeptAt(bankId: string): ProxyMutation {
  const at = new Set<string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
      if (x.method === 'GET' && x.path === '/api/accounts' && ok(a) && at.has(x.headers['x-session-id'] ?? ''))
        Object.assign(a, error(510, '1426', `consent at ${bankId} forgotten by the mutation`));
    },
  };
}

/**
 * A payment of `product` is unknown once POST /authorize was made for it:
 * where the read would have been served (a refused token or a session
 * without consent keeps its own refusal).
 */
function goneAfterAuthorize(product: string): ProxyMutation {
  const gone = new Set<string>();
  const authorizeAt = new RegExp(`^/api/payments/${product}/([^/]+)/authorize$`);
  const byId = new RegExp(`^/api/payments/${product}/([^/]+)$`);
  // Only answers the reference served are changed: a call it refused (a wrong token, a new session) keeps its refusal.
  return {
    answer: (x, a) => {
      const read = x.method === 'GET' ? byId.exec(x.path)?.[1] : undefined;
      if (read && gone.has(read) && ok(a)) Object.assign(a, error(510, '1003', 'payment unknown after its authorisation (mutation)'));
      const id = authorizeAt.exec(x.path)?.[1];
      if (x.method === 'POST' && id && ok(a)) gone.add(id);
    },
  };
}

/** The first call for transactions in each session answers the consent-link error, as if the consent had been lost. */
function consentLostOnce(): ProxyMutation {
  const met = new Set<string>();
  return {
    request: x => {
      const session = x.headers['x-session-id'] ?? '';
      if (x.method !== 'GET' || !/^\/api\/accounts\/[^/]+\/transactions$/.test(x.path) || met.has(session)) return;
      met.add(session);
      return jsonAnswer({ errorCode: '1426', message: 'consent lost by the mutation',
        links: [{ type: 'GET', rel: 'consent', href: `http://127.0.0.1/api/consent/${session}` }] }, 510);
    },
  };
}

export const MUTATIONS: Record<string, Mutation> = {
  ...consentSkipped,
  'consent-skipped-accounts-in-one-country': { run: 'consent-countries', ...consentSkippedAt('deutsche-de') },
  'delete-ends-bank-in-one-country': { run: 'delete-countries', ...deleteEndsBankAt('deutsche-de') },
  'consent-no-link-in-one-country': { run: 'consent-url-countries', ...consentNoLinkAt('deutsche-de') },
  'consent-outlives-session-in-one-country': { run: 'ended-countries', ...consentOutlivesSessionAt('deutsche-de') },
  'consent-redirect-ignored-in-one-country': { run: 'redirect-countries', ...consentRedirectIgnoredAt('deutsche-de') },
  'consent-redirect-url-required-in-one-country': { run: 'redirect-countries', ...consentRedirectRequiredAt('deutsche-de') },
  'session-no-id-in-one-country': {
    run: 'create-countries',
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === 'deutsche-de') json(a, b => { delete b.sessionId; });
    },
  },
  // ---- token ----
  'token-no-expires-in': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200) json(a, b => { delete b.expires_in; }); } },
  'refresh-no-scope': {
    run: 'shared',
    answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'refresh_token') json(a, b => { delete b.scope; }); },
  },
  'token-scope-number': {
    run: 'shared',
    answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'client_credentials') json(a, b => { b.scope = 42; }); },
  },
  'token-error-code-other': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status >= 400) json(a, b => { b.error = 'access_denied'; }); } },
  'missing-grant-500': {
    run: 'shared',
    request: x => { if (TOKEN.test(x.path) && !grant(x)) return jsonAnswer({ error: 'server_error', error_description: 'failed by the mutation' }, 500); },
  },
  'session-state-null': {
    run: 'token-alone',
    answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'client_credentials') json(a, b => { b.session_state = null; }); },
  },
  'no-access-token': { run: 'access-token', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200) json(a, b => { delete b.access_token; }); } },
  'no-token-served': { run: 'shared', request: x => { if (isApi(x) && !x.headers.authorization) return jsonAnswer([]); } },
  'accounts-made-up-token-served': {
    run: 'token-alone', ...servedAt('GET', /^\/api\/accounts$/, (token, issued) => token !== '' && !issued.has(token)),
  },
  'payment-without-token-served': { run: 'token-alone', ...servedAt('POST', /^\/api\/payments\/domestic-transfer$/, token => token === '') },
  'confirm-funds-made-up-token-served': {
    run: 'token-places', ...servedAt('POST', /^\/api\/confirm-funds$/, (token, issued) => token !== '' && !issued.has(token)),
  },
  'payment-read-without-token-served': { run: 'token-places', ...servedAt('GET', /^\/api\/payments\/[a-z-]+\/[^/]+$/, token => token === '') },
  'api-refuses-tokens': { run: 'token-use', request: x => { if (isApi(x)) return error(401, '1001', 'token refused by the mutation'); } },
  'refreshed-token-refused': {
    run: 'shared',
    answer: (x, a) => {
      if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'refresh_token') json(a, b => { refreshed.add(String(b.access_token)); });
      if (isApi(x) && refreshed.has((x.headers.authorization ?? '').replace(/^Bearer\s+/i, '')))
        Object.assign(a, error(401, '1001', 'refreshed tokens refused by the mutation'));
    },
  },

  // ---- session ----
  'session-no-id': {
    run: 'session-create',
    answer: (x, a) => { if (x.method === 'POST' && x.path === '/api/session' && ok(a)) json(a, b => { delete b.sessionId; }); },
  },
  'session-status-error': {
    run: 'shared',
    // Only calls the reference served: a call with a wrong token is still refused as the reference refuses it.
    answer: (x, a) => { if (x.method === 'GET' && /^\/api\/session\/[^/]+$/.test(x.path) && ok(a)) Object.assign(a, error(500, '1999', 'status refused by the mutation')); },
  },
  'consent-no-link': {
    run: 'consent-url',
    answer: (x, a) => { if (x.method === 'GET' && x.path.startsWith('/api/consent/') && ok(a)) json(a, b => { delete b.links; }); },
  },
  'consent-not-kept': {
    run: 'consent-kept',
    answer: (x, a) => {
      if (x.method === 'GET' && x.path === '/api/accounts' && ok(a)) Object.assign(a, error(510, '1426', 'consent forgotten by the mutation'));
    },
  },
  'consent-error-code-other': {
    run: 'shared',
    answer: (x, a) => { if (isApi(x) && a.status >= 400) json(a, b => { if (hasConsentLink(b)) b.errorCode = '1999'; }); },
  },
  'accounts-of-every-bank': { run: 'per-bank', ...accountsOfEveryBank() },
  'sepa-gone-after-authorize': { run: 'shared', ...goneAfterAuthorize('sepa-credit') },
  'consent-not-kept-dk': { run: 'consent-kept', ...consentNotKeptAt('danske-dk') },
  // ---- payments: required fields, one field of one product each ----
  'domestic-empty-currency-accepted': {
    run: 'shared',
    request: x => { if (payment(x, /domestic-transfer/) && body(x).currency === '') return created('mutation-empty-currency', 'RCVD'); },
  },
  'sepa-missing-amount-server-error': {
    run: 'shared',
    request: x => {
      if (payment(x, /sepa-credit/) && !('instrumentedAmount' in body(x))) return error(520, '1999', 'the service failed on a missing amount (mutation)');
    },
  },
  'sepa-scheduled-empty-creditor-iban-accepted': {
    run: 'shared',
    request: x => {
      const b = body(x);
      if (payment(x, /sepa-scheduled-credit/) && (b.creditorAccount as { iban?: unknown } | undefined)?.iban === '') return created('mutation-empty-iban', 'RCVD');
    },
  },
  'consent-lost-early': { run: 'consent-lost', ...consentLostOnce() },
  'consent-link-dead-end': {
    run: 'shared',
    answer: (x, a) => {
      if (isApi(x) && a.status >= 400) json(a, b => {
        if (hasConsentLink(b)) for (const l of b.links) if (l.rel === 'consent') l.href = String(l.href).replace(/\/consent\//, '/consent/gone-');
      });
    },
  },

  // ---- data ----
  'unknown-bank-found': { run: 'shared', request: x => { if (x.path === NO_SUCH_BANK) return jsonAnswer({}); } },
  'bank-by-id-services-string': {
    run: 'optional',
    answer: (x, a) => { if (x.path === '/api/banks/danske-dk' && ok(a)) json(a, b => { b.supportedServices = 'instant-domestic-transfer'; }); },
  },
  // GET transactions of any account at danske-dk answers its first account's.
  'transactions-ignore-account': {
    run: 'shared',
    request: x => { if (x.method === 'GET') x.url = x.url.replace(/^\/api\/accounts\/danske-dk-acc-\d+\/transactions/, '/api/accounts/danske-dk-acc-1/transactions'); },
  },
  'unknown-account-transactions-served': {
    run: 'optional',
    request: x => {
      if (x.method === 'GET' && x.path === '/api/accounts/pis-conformance-no-such-account/transactions')
        x.url = x.url.replace('pis-conformance-no-such-account', 'deutsche-de-acc-1');
    },
  },
  'bic-malformed-at-one-bank': {
    run: 'shared',
    answer: (x, a) => {
      if (x.path !== '/api/accounts/deutsche-de-acc-1/transactions' || !ok(a)) return;
      json(a, list => {
        const tx = Array.isArray(list) && list.find((t: { counterpartyAgent?: string }) => t?.counterpartyAgent);
        if (tx) tx.counterpartyAgent = 'DEUT12FF';
      });
    },
  },
  'bank-by-id-other-bank': {
    run: 'shared',
    answer: (x, a) => { if (/^\/api\/banks\/[\w-]+$/.test(x.path) && a.status === 200) json(a, b => { b.id = 'another-bank'; }); },
  },
  'bank-type-text-plain': {
    run: 'shared',
    answer: (x, a) => { if (/^\/api\/banks\/[\w-]+$/.test(x.path) && x.path !== NO_SUCH_BANK && ok(a)) a.headers['content-type'] = 'text/plain'; },
  },
  'no-request-id': { run: 'shared', answer: (_, a) => { delete a.headers['x-request-id']; } },
  'device-header-added': { run: 'shared', request: x => { if (isApi(x) && !x.headers['x-device-id']) x.headers['x-device-id'] = 'added-by-proxy'; } },
  'banks-without-id': { run: 'banks-list', answer: (x, a) => { if (x.path === '/api/banks' && ok(a)) json(a, b => each(b, bank => { delete bank.id; })); } },
  'name-filter-finds-nothing': { run: 'shared', answer: (x, a) => { if (x.path === '/api/banks' && x.query.has('name') && ok(a)) a.text = '[]'; } },
  'bank-no-bic': { run: 'shared', answer: (x, a) => { if (x.path.startsWith('/api/banks') && ok(a)) json(a, b => each(b, bank => { delete bank.bic; })); } },
  'unknown-bank-error-no-code': {
    run: 'alternates',
    answer: (x, a) => { if (x.path === NO_SUCH_BANK && a.status >= 400) json(a, b => { delete b.errorCode; }); },
  },
  'accounts-not-listed': {
    run: 'accounts-list',
    answer: (x, a) => { if (x.path === '/api/accounts' && ok(a)) a.text = JSON.stringify({ accounts: JSON.parse(a.text) }); },
  },
  'account-type-number': {
    run: 'shared',
    answer: (x, a) => { if (x.path === '/api/accounts' && ok(a)) json(a, b => each(b, acc => { acc.accountType = 42; })); },
  },
  'transactions-not-listed': {
    run: 'transactions-list',
    answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) a.text = JSON.stringify({ transactions: JSON.parse(a.text) }); },
  },
  'counterparty-name-null': {
    run: 'shared',
    answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) json(a, b => each(b, t => { t.counterpartyName = null; })); },
  },
  'value-date-number': {
    run: 'shared',
    answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) json(a, b => each(b, t => { t.valueDate = 20261124; })); },
  },

  // ---- payments ----
  'domestic-no-payment-id': { run: 'shared', answer: (x, a) => { if (payment(x, /domestic-transfer/) && ok(a)) json(a, b => { delete b.paymentId; }); } },
  'authorize-no-link': {
    run: 'shared',
    answer: (x, a) => { if (x.method === 'POST' && /\/authorize$/.test(x.path) && ok(a)) json(a, b => { delete b.links; }); },
  },
  'scheduled-refused': {
    run: 'shared',
    answer: (x, a) => {
      if (payment(x, /(domestic-scheduled-transfer|sepa-scheduled-credit)/) && ok(a))
        Object.assign(a, error(510, '1002', 'scheduled payments refused by the mutation'));
    },
  },
  'banks-hide-scheduled': {
    run: 'alternates',
    answer: (x, a) => {
      if (x.path.startsWith('/api/banks') && ok(a)) json(a, b => each(b, bank => {
        if (Array.isArray(bank.supportedServices))
          bank.supportedServices = bank.supportedServices.filter((s: unknown) => s !== 'domestic-scheduled-transfer' && s !== 'sepa-scheduled-credit');
      }));
    },
  },
  'payment-by-id-404': {
    run: 'shared',
    answer: (x, a) => {
      if (x.method === 'GET' && /^\/api\/payments\/[^/]+\/[^/]+$/.test(x.path) && ok(a)) Object.assign(a, error(510, '1003', 'payment unknown to the mutation'));
    },
  },
  'payment-status-no-id': {
    run: 'alternates',
    answer: (x, a) => { if (x.method === 'GET' && /^\/api\/payments\/[^/]+\/[^/]+$/.test(x.path) && ok(a)) json(a, b => { delete b.paymentId; }); },
  },
  'funds-available-string': {
    run: 'shared',
    answer: (x, a) => { if (x.path === '/api/confirm-funds' && a.status === 200) json(a, b => { b.fundsAvailable = 'yes'; }); },
  },
  // ---- optional headers and fields, error codes ----
  'accounts-psu-ip-required': {
    run: 'optional',
    request: x => {
      if (x.method === 'GET' && x.path === '/api/accounts' && without(x, 'x-psu-ip-address'))
        return error(510, '1001', 'Missing required header x-psu-ip-address');
    },
  },
  'payments-psu-ip-required': {
    run: 'optional',
    request: x => { if (payment(x, /[\w-]+/) && without(x, 'x-psu-ip-address')) return error(510, '1001', 'Missing required header x-psu-ip-address'); },
  },
  'domestic-metadata-refused': {
    run: 'optional',
    request: x => { if (payment(x, /domestic-transfer/) && body(x).paymentMetadata !== undefined) return error(510, '1002', 'Unknown field paymentMetadata'); },
  },
  'sepa-metadata-refused': {
    run: 'optional',
    request: x => { if (payment(x, /sepa-credit/) && body(x).paymentMetadata !== undefined) return error(510, '1002', 'Unknown field paymentMetadata'); },
  },
  'payments-redirect-url-required': {
    run: 'optional',
    request: x => { if (payment(x, /[\w-]+/) && without(x, 'x-redirect-url')) return error(510, '1005', 'Missing x-redirect-url'); },
  },
  'consent-redirect-url-required': {
    run: 'optional',
    request: x => {
      if (x.method === 'GET' && x.path.startsWith('/api/consent/') && without(x, 'x-redirect-url')) return error(510, '1005', 'Missing x-redirect-url');
    },
  },
  'error-codes-renumbered': {
    run: 'optional',
    answer: (_, a) => {
      json(a, b => { if (b && typeof b === 'object' && ['1002', '1003', '1004', '1005', '1428'].includes(String(b.errorCode))) b.errorCode = '1999'; });
    },
  },
  'name-filter-loose': { run: 'optional', ...nameFilterLoose() },
  'scheduled-scheme-unchecked': {
    run: 'optional',
    request: x => {
      const account = body(x).creditorAccount as Record<string, unknown> | undefined;
      if (payment(x, /domestic-scheduled-transfer/) && account && (!account.accountScheme || !account.identifier)) return created('pis-proxy-scheme', 'PDNG');
    },
  },
  'huge-payment-accepted': {
    run: 'optional',
    answer: (x, a) => {
      if (payment(x, /domestic-transfer/) && body(x).instrumentedAmount === '9999999999.00' && isCode(a, '1008'))
        Object.assign(a, created('pis-proxy-huge', 'ACSP'));
    },
  },
  'unlisted-scheduled-accepted': {
    run: 'optional',
    answer: (x, a) => {
      if (payment(x, /(sepa-scheduled-credit|domestic-scheduled-transfer)/) && isCode(a, '1007')) Object.assign(a, created('pis-proxy-unlisted', 'PDNG'));
    },
  },
  'unlisted-instant-accepted': {
    run: 'optional',
    answer: (x, a) => {
      if (payment(x, /domestic-transfer/) && body(x).instantPayment === true && isCode(a, '1007')) Object.assign(a, created('pis-proxy-instant', 'ACSP'));
    },
  },
  'confirm-funds-unsupported-client-error': {
    run: 'optional',
    answer: (x, a) => { if (x.path === '/api/confirm-funds' && a.status === 501) Object.assign(a, error(510, '1002', 'Parameter iban is required')); },
  },
  'not-implemented-no-code': {
    run: 'shared',
    answer: (x, a) => { if (x.path === '/api/confirm-funds' && a.status === 501) json(a, b => { delete b.errorCode; }); },
  },
};
