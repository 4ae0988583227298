// Mutations: a pass-through in front of the clean reference that breaks one
// rule of its answers (or of the suites' requests), to show a check fail that
// no catalog fault reaches. contracts/proofs.yaml names the checks each must
// fail. The mutations of one run are on together and must fail exactly the
// union of their checks; a mutation that breaks something every check builds
// on (tokens, sessions, consent, the bank list) gets a run of its own that
// selects only its checks (--grep), since the others would only skip.
// The table is here; the runs that prove it are in mutation-runs.ts and what
// its entries are made of in mutation-kit.ts.
import { editJson as json, jsonAnswer } from '../helpers/proxy.ts';
import {
  accountsNotListedAt, accountsOfEveryBank, authorizeNoLinkAt, body, consentNoLinkAt, consentOutlivesSessionAt, consentRedirectIgnoredAt,
  consentRedirectRequiredAt, deleteEndsBankAt, consentLostOnce, consentNotKeptAt, consentSkipped, consentSkippedAt, created, each, error,
  goneAfterAuthorize, grant, hasConsentLink, isApi, isCode, laterRefresh, nameFilterLoose, NO_SUCH_BANK, ok, payment, refreshed, servedAt,
  statusFrozenAt, TOKEN, without,
} from './mutation-kit.ts';
import type { Mutation } from './mutation-runs.ts';

export const MUTATIONS: Record<string, Mutation> = {
  ...consentSkipped,
  'consent-skipped-accounts-in-one-country': { run: 'consent-countries', ...consentSkippedAt('deutsche-de') },
  'delete-ends-bank-in-one-country': { run: 'delete-countries', ...deleteEndsBankAt('deutsche-de') },
  'status-frozen-in-one-country': { run: 'status-countries', ...statusFrozenAt('deutsche-de') },
  'consent-no-link-in-one-country': { run: 'consent-url-countries', ...consentNoLinkAt('deutsche-de') },
  'consent-outlives-session-in-one-country': { run: 'ended-countries', ...consentOutlivesSessionAt('deutsche-de') },
  'consent-redirect-ignored-in-one-country': { run: 'redirect-countries', ...consentRedirectIgnoredAt('deutsche-de') },
  'consent-redirect-url-required-in-one-country': { run: 'redirect-countries', ...consentRedirectRequiredAt('deutsche-de') },
  'session-no-id-in-one-country': {
    run: 'create-countries',
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === 'deutsche-de') json(a, b => { delete b.sessionId; });
    },
  },  // ---- token ----
  'token-no-expires-in': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200) json(a, b => { delete b.expires_in; }); } },
  'refresh-no-scope': {
    run: 'shared',
    answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'refresh_token') json(a, b => { delete b.scope; }); },
  },
  'refresh-second-no-scope': { run: 'refresh-exchanges', ...laterRefresh(b => { delete b.scope; }) },
  'refresh-second-same-refresh-token': { run: 'refresh-exchanges', ...laterRefresh((b, asked) => { b.refresh_token = asked; }) },
  // The same chain broken at its second exchange in runs where token.refresh.answers-tokens fails for nothing else: one finding per run.
  'refresh-second-no-refresh-token': { run: 'token-alone', ...laterRefresh(b => { delete b.refresh_token; }) },
  'refresh-second-lifetime-string': { run: 'token-places', ...laterRefresh(b => { b.refresh_expires_in = String(b.refresh_expires_in); }) },
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
  'accounts-not-listed-at-one-bank': { run: 'accounts-bank', ...accountsNotListedAt('deutsche-de') },
  'account-type-number': {
    run: 'shared',
    answer: (x, a) => { if (x.path === '/api/accounts' && ok(a)) json(a, b => each(b, acc => { acc.accountType = 42; })); },
  },
  'transactions-not-listed': {
    run: 'transactions-list',
    answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) a.text = JSON.stringify({ transactions: JSON.parse(a.text) }); },
  },
  'transactions-not-listed-at-one-bank': {
    run: 'transactions-bank',
    answer: (x, a) => {
      if (/^\/api\/accounts\/deutsche-de-[^/]+\/transactions$/.test(x.path) && ok(a)) a.text = JSON.stringify({ transactions: JSON.parse(a.text) });
    },
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
  // Authorisation broken for one product each: the authorize check of that product fails at that place only.
  'domestic-authorize-no-link': { run: 'shared', ...authorizeNoLinkAt('domestic-transfer') },
  'domestic-scheduled-authorize-no-link': { run: 'shared', ...authorizeNoLinkAt('domestic-scheduled-transfer') },
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
