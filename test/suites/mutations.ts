// Mutations: a pass-through in front of the clean reference that breaks one
// rule of its answers (or of the suites' requests), to show a check fail that
// no catalog fault reaches. contracts/proofs.yaml names the checks each must
// fail. The mutations of one run are on together and must fail exactly the
// union of their checks; a mutation that breaks something every check builds
// on (tokens, sessions, consent, the bank list) gets a run of its own that
// selects only its checks (--grep), since the others would only skip.
import { createServer, request, type Server } from 'node:http';

export interface Exchange {
  method: string;
  /** Path and query as the suites sent them, e.g. /api/banks?name=DNB. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}
export interface Answer { status: number; headers: Record<string, string>; text: string }

export interface Mutation {
  /** The run of RUNS that proves it. */
  run: RunName;
  /** Changes the request before the reference sees it, or answers it alone. */
  request?(x: Exchange): Answer | void;
  /** Changes the reference's answer. */
  answer?(x: Exchange, a: Answer, state: ProxyState): void;
}

export interface MutationRun {
  suites: string;
  /** Only the checks whose test title matches (Playwright --grep). */
  grep?: string;
}

export const RUNS = {
  shared: { suites: 'token,session,data,payments' },
  alternates: { suites: 'session,data,payments' },
  'access-token': { suites: 'token', grep: 'token\\.issue\\.access-token ' },
  'token-use': { suites: 'token', grep: 'token\\.use\\.accepted ' },
  'session-create': { suites: 'session', grep: 'session\\.lifecycle\\.create ' },
  'consent-url': { suites: 'session', grep: 'session\\.consent-link\\.consent-url ' },
  'consent-kept': { suites: 'session', grep: 'session\\.lifecycle\\.consent ' },
  'banks-list': { suites: 'data', grep: 'data\\.banks\\.list ' },
  'accounts-list': { suites: 'data', grep: 'data\\.accounts\\.list ' },
  'transactions-list': { suites: 'data', grep: 'data\\.transactions\\.list ' },
} satisfies Record<string, MutationRun>;
export type RunName = keyof typeof RUNS;

/** What the proxy remembers across exchanges: access tokens that came from a refresh. */
export interface ProxyState { refreshed: Set<string> }

export const NO_SUCH_BANK = '/api/banks/pis-conformance-no-such-bank';
const TOKEN = /\/openid-connect\/token$/;
const isApi = (x: Exchange) => x.path.startsWith('/api/');
const grant = (x: Exchange) => new URLSearchParams(x.body).get('grant_type');
const ok = (a: Answer) => a.status >= 200 && a.status < 300;
const error = (status: number, errorCode: string, message: string): Answer =>
  ({ status, headers: { 'content-type': 'application/json' }, text: JSON.stringify({ id: 'e-mutation', errorCode, message, source: 'C', type: 'BAD_REQUEST', timestamp: Date.now(), links: [] }) });

/** Edits a JSON answer in place (answers that are not JSON stay as they are). */
function json(a: Answer, edit: (body: any) => unknown): void {
  let body: unknown;
  try { body = JSON.parse(a.text); } catch { return; }
  const replaced = edit(body);
  a.text = JSON.stringify(replaced === undefined ? body : replaced);
}
const each = (body: unknown, edit: (item: Record<string, unknown>) => void) => {
  for (const item of Array.isArray(body) ? body : [body]) if (item && typeof item === 'object') edit(item as Record<string, unknown>);
};
const hasConsentLink = (body: any) => Array.isArray(body?.links) && body.links.some((l: { rel?: string }) => l?.rel === 'consent');
const payment = (x: Exchange, product: RegExp) => x.method === 'POST' && new RegExp(`^/api/payments/${product.source}$`).test(x.path);

export const MUTATIONS: Record<string, Mutation> = {
  // ---- token ----
  'token-no-expires-in': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200) json(a, b => { delete b.expires_in; }); } },
  'refresh-no-scope': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'refresh_token') json(a, b => { delete b.scope; }); } },
  'token-scope-number': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'client_credentials') json(a, b => { b.scope = 42; }); } },
  'token-error-code-other': { run: 'shared', answer: (x, a) => { if (TOKEN.test(x.path) && a.status >= 400) json(a, b => { b.error = 'access_denied'; }); } },
  'no-access-token': { run: 'access-token', answer: (x, a) => { if (TOKEN.test(x.path) && a.status === 200) json(a, b => { delete b.access_token; }); } },
  'no-token-served': { run: 'shared', request: x => { if (isApi(x) && !x.headers.authorization) return { status: 200, headers: { 'content-type': 'application/json' }, text: '[]' }; } },
  'api-refuses-tokens': { run: 'token-use', request: x => { if (isApi(x)) return error(401, '1001', 'token refused by the mutation'); } },
  'refreshed-token-refused': {
    run: 'shared',
    answer: (x, a, state) => {
      if (TOKEN.test(x.path) && a.status === 200 && grant(x) === 'refresh_token') json(a, b => { state.refreshed.add(String(b.access_token)); });
      if (isApi(x) && state.refreshed.has((x.headers.authorization ?? '').replace(/^Bearer\s+/i, ''))) Object.assign(a, error(401, '1001', 'refreshed tokens refused by the mutation'));
    },
  },

  // ---- session ----
  'session-no-id': { run: 'session-create', answer: (x, a) => { if (x.method === 'POST' && x.path === '/api/session' && ok(a)) json(a, b => { delete b.sessionId; }); } },
  'session-status-error': { run: 'shared', request: x => { if (x.method === 'GET' && /^\/api\/session\/[^/]+$/.test(x.path)) return error(500, '1999', 'status refused by the mutation'); } },
  'consent-no-link': { run: 'consent-url', answer: (x, a) => { if (x.method === 'GET' && x.path.startsWith('/api/consent/') && ok(a)) json(a, b => { delete b.links; }); } },
  'consent-not-kept': {
    run: 'consent-kept',
    answer: (x, a) => { if (x.method === 'GET' && x.path === '/api/accounts' && ok(a)) Object.assign(a, error(510, '1426', 'consent forgotten by the mutation')); },
  },
  'consent-error-code-other': { run: 'shared', answer: (x, a) => { if (isApi(x) && a.status >= 400) json(a, b => { if (hasConsentLink(b)) b.errorCode = '1999'; }); } },
  'consent-link-dead-end': {
    run: 'shared',
    answer: (x, a) => {
      if (isApi(x) && a.status >= 400) json(a, b => { if (hasConsentLink(b)) for (const l of b.links) if (l.rel === 'consent') l.href = String(l.href).replace(/\/consent\//, '/consent/gone-'); });
    },
  },

  // ---- data ----
  'unknown-bank-found': { run: 'shared', request: x => { if (x.path === NO_SUCH_BANK) return { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' }; } },
  'bank-by-id-other-bank': { run: 'shared', answer: (x, a) => { if (/^\/api\/banks\/[\w-]+$/.test(x.path) && a.status === 200) json(a, b => { b.id = 'another-bank'; }); } },
  'no-request-id': { run: 'shared', answer: (_, a) => { delete a.headers['x-request-id']; } },
  'device-header-added': { run: 'shared', request: x => { if (isApi(x) && !x.headers['x-device-id']) x.headers['x-device-id'] = 'added-by-proxy'; } },
  'banks-without-id': { run: 'banks-list', answer: (x, a) => { if (x.path === '/api/banks' && ok(a)) json(a, b => each(b, bank => { delete bank.id; })); } },
  'name-filter-finds-nothing': { run: 'shared', answer: (x, a) => { if (x.path === '/api/banks' && x.query.has('name') && ok(a)) a.text = '[]'; } },
  'bank-no-bic': { run: 'shared', answer: (x, a) => { if (x.path.startsWith('/api/banks') && ok(a)) json(a, b => each(b, bank => { delete bank.bic; })); } },
  'unknown-bank-error-no-code': { run: 'alternates', answer: (x, a) => { if (x.path === NO_SUCH_BANK && a.status >= 400) json(a, b => { delete b.errorCode; }); } },
  'accounts-not-listed': { run: 'accounts-list', answer: (x, a) => { if (x.path === '/api/accounts' && ok(a)) a.text = JSON.stringify({ accounts: JSON.parse(a.text) }); } },
  'account-type-number': { run: 'shared', answer: (x, a) => { if (x.path === '/api/accounts' && ok(a)) json(a, b => each(b, acc => { acc.accountType = 42; })); } },
  'transactions-not-listed': { run: 'transactions-list', answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) a.text = JSON.stringify({ transactions: JSON.parse(a.text) }); } },
  'counterparty-name-null': { run: 'shared', answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) json(a, b => each(b, t => { t.counterpartyName = null; })); } },
  'value-date-number': { run: 'shared', answer: (x, a) => { if (/\/transactions$/.test(x.path) && ok(a)) json(a, b => each(b, t => { t.valueDate = 20261124; })); } },

  // ---- payments ----
  'domestic-no-payment-id': { run: 'shared', answer: (x, a) => { if (payment(x, /domestic-transfer/) && ok(a)) json(a, b => { delete b.paymentId; }); } },
  'authorize-no-link': { run: 'shared', answer: (x, a) => { if (x.method === 'POST' && /\/authorize$/.test(x.path) && ok(a)) json(a, b => { delete b.links; }); } },
  'scheduled-refused': {
    run: 'shared',
    answer: (x, a) => { if (payment(x, /(domestic-scheduled-transfer|sepa-scheduled-credit)/) && ok(a)) Object.assign(a, error(510, '1002', 'scheduled payments refused by the mutation')); },
  },
  'banks-hide-scheduled': {
    run: 'alternates',
    answer: (x, a) => {
      if (x.path.startsWith('/api/banks') && ok(a)) json(a, b => each(b, bank => {
        if (Array.isArray(bank.supportedServices)) bank.supportedServices = bank.supportedServices.filter((s: unknown) => s !== 'domestic-scheduled-transfer' && s !== 'sepa-scheduled-credit');
      }));
    },
  },
  'payment-by-id-404': { run: 'shared', request: x => { if (x.method === 'GET' && /^\/api\/payments\/[^/]+\/[^/]+$/.test(x.path)) return error(510, '1003', 'payment unknown to the mutation'); } },
  'payment-status-no-id': { run: 'alternates', answer: (x, a) => { if (x.method === 'GET' && /^\/api\/payments\/[^/]+\/[^/]+$/.test(x.path) && ok(a)) json(a, b => { delete b.paymentId; }); } },
  // Optional headers made required, and the optional paymentMetadata refused.
  'consent-needs-redirect-url': { run: 'shared', request: x => { if (x.path.startsWith('/api/consent/') && !x.headers['x-redirect-url']) return error(510, '1005', 'x-redirect-url required by the mutation'); } },
  'accounts-need-psu-ip': { run: 'shared', request: x => { if (x.path === '/api/accounts' && !x.headers['x-psu-ip-address']) return error(510, '1004', 'x-psu-ip-address required by the mutation'); } },
  'payments-need-psu-ip': { run: 'shared', request: x => { if (payment(x, /[^/]+/) && !x.headers['x-psu-ip-address']) return error(510, '1004', 'x-psu-ip-address required by the mutation'); } },
  'payments-need-redirect-url': { run: 'shared', request: x => { if (payment(x, /[^/]+/) && !x.headers['x-redirect-url']) return error(510, '1005', 'x-redirect-url required by the mutation'); } },
  'metadata-refused': { run: 'shared', request: x => { if (payment(x, /[^/]+/) && x.body.includes('"paymentMetadata"')) return error(510, '1002', 'paymentMetadata refused by the mutation'); } },
  'funds-available-string': { run: 'shared', answer: (x, a) => { if (x.path === '/api/confirm-funds' && a.status === 200) json(a, b => { b.fundsAvailable = 'yes'; }); } },
  'not-implemented-no-code': { run: 'shared', answer: (x, a) => { if (x.path === '/api/confirm-funds' && a.status === 501) json(a, b => { delete b.errorCode; }); } },
};

export interface MutationProxy { url: string; close(): Promise<void> }

/** One exchange with the reference, host header and all (fetch would replace it). */
function forward(upstream: string, x: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(x.body);
    const req = request(upstream + x.url, { method: x.method, headers: { ...x.headers, 'content-length': String(body.length) } }, res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c as Buffer));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string' && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
        resolve({ status: res.statusCode!, headers, text: Buffer.concat(chunks).toString() });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Starts the pass-through to `upstream` (an origin) with the named mutations on. */
export async function startMutationProxy(upstream: string, names: readonly string[]): Promise<MutationProxy> {
  const on = names.map(n => {
    const m = MUTATIONS[n];
    if (!m) throw new Error(`no mutation ${n} in test/suites/mutations.ts`);
    return m;
  });
  const state: ProxyState = { refreshed: new Set() };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    // The host header goes through as the suites sent it: the reference builds its links (consent, authorize) from it, so they lead back here.
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'content-length') headers[k] = v;
    const u = new URL(req.url!, 'http://proxy');
    const x: Exchange = { method: req.method!, url: req.url!, path: u.pathname, query: u.searchParams, headers, body: Buffer.concat(chunks).toString() };
    let a: Answer | undefined;
    for (const m of on) if (!a) a = m.request?.(x) ?? undefined;
    if (!a) {
      a = await forward(upstream, x);
      for (const m of on) m.answer?.(x, a, state);
    }
    res.writeHead(a.status, a.headers).end(a.text);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>(r => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
