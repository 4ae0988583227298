// What the mutations of test/suites/mutations.ts are made of: predicates on an
// exchange, and the mutations that keep state across a run (what was issued,
// which bank a session is at) or stand for a family of places.
import { operationsAt } from '../../harness/places/operations.ts';
import { LATEST_API_VERSION } from '../../harness/contracts/api-versions.ts';
import { editJson as json, errorAnswer, jsonAnswer, type Answer, type Exchange, type ProxyMutation } from '../helpers/proxy.ts';
import type { Mutation } from './mutation-runs.ts';

/** Access tokens that came from a refresh (refreshed-token-refused). */
export const refreshed = new Set<string>();

export const NO_SUCH_BANK = '/api/banks/pis-conformance-no-such-bank';
export const TOKEN = /\/openid-connect\/token$/;
export const isApi = (x: Exchange) => x.path.startsWith('/api/');
export const grant = (x: Exchange) => new URLSearchParams(x.body).get('grant_type');
export const ok = (a: Answer) => a.status >= 200 && a.status < 300;
export const error = errorAnswer;
export const without = (x: Exchange, header: string) => !x.headers[header];
export const each = (body: unknown, edit: (item: Record<string, unknown>) => void) => {
  for (const item of Array.isArray(body) ? body : [body]) if (item && typeof item === 'object') edit(item as Record<string, unknown>);
};
/** The request's JSON body, {} when it has none. */
export const body = (x: Exchange): Record<string, unknown> => { try { return JSON.parse(x.body || '{}'); } catch { return {}; } };
export const isCode = (a: Answer, code: string) => { try { return JSON.parse(a.text)?.errorCode === code; } catch { return false; } };
export const created = (paymentId: string, status: string) => jsonAnswer({ paymentId, status, creationDateTime: '2026-11-22T10:00:00.000Z' }, 201);

/**
 * The name filter lists every bank sharing a word with the name asked for
 * ("Danske Bank" lists "Deutsche Bank"): the list comes from the last
 * unfiltered GET /banks the proxy passed on (the suites read it first).
 */
export function nameFilterLoose(): ProxyMutation {
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

/**
 * The answer to the exchange of a refresh token that itself came from a
 * refresh (the second exchange of a chain, and every later one) is changed by
 * `edit`, which is given the refresh token asked about; the first exchange of
 * every chain is kept.
 */
export function laterRefresh(edit: (b: Record<string, unknown>, asked: string) => void): ProxyMutation {
  const fromRefresh = new Set<string>();
  return {
    answer: (x, a) => {
      if (!TOKEN.test(x.path) || a.status !== 200 || grant(x) !== 'refresh_token') return;
      const asked = new URLSearchParams(x.body).get('refresh_token') ?? '';
      json(a, b => { if (fromRefresh.has(asked)) edit(b, asked); fromRefresh.add(String(b.refresh_token)); });
    },
  };
}

const bearer = (x: Exchange) => (x.headers.authorization ?? '').replace(/^Bearer\s+/i, '');

/**
 * One operation serves a token it should refuse: a call to it whose token
 * `wrong` picks (never issued, none) goes on with the last token the API
 * served, so the reference answers it as it would a live token.
 */
export function servedAt(method: string, path: RegExp, wrong: (token: string, issued: Set<string>) => boolean): ProxyMutation {
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

export const hasConsentLink = (body: any) => Array.isArray(body?.links) && body.links.some((l: { rel?: string }) => l?.rel === 'consent');
export const payment = (x: Exchange, product: RegExp) => x.method === 'POST' && new RegExp(`^/api/payments/${product.source}$`).test(x.path);

/**
 * One mutation per session-bound operation (harness/places/operations.ts) but
 * GET /accounts, transactions and payment initiation, which catalog faults
 * break: the consent-link error (1426) there, and only there, becomes a 2xx.
 */
export const consentSkipped: Record<string, Mutation> = Object.fromEntries(operationsAt(LATEST_API_VERSION)
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
export function consentSkippedAt(bankId: string): ProxyMutation {
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
export function accountsOfEveryBank(): ProxyMutation {
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

/** The sessions started at `bankId`, learned from the answers to POST /session: what a mutation at one bank only keys on. */
function sessionsAt(bankId: string): { learn(x: Exchange, a: Answer): void; has(x: Exchange): boolean; ids: Set<string> } {
  const ids = new Set<string>();
  return {
    ids,
    learn: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { ids.add(String(b.sessionId)); });
    },
    has: x => ids.has(x.headers['x-session-id'] ?? ''),
  };
}

/** A 2xx answer to GET /accounts in a session at `bankId` is changed by `edit`; every other bank's is kept. */
function accountsAt(bankId: string, edit: (a: Answer) => void): ProxyMutation {
  const at = sessionsAt(bankId);
  return { answer: (x, a) => { at.learn(x, a); if (x.method === 'GET' && x.path === '/api/accounts' && ok(a) && at.has(x)) edit(a); } };
}

/** GET /accounts in a session at `bankId` answers the consent-link error whatever the consent. */
export const consentNotKeptAt = (bankId: string): ProxyMutation =>
  accountsAt(bankId, a => { Object.assign(a, error(510, '1426', `consent at ${bankId} forgotten by the mutation`)); });

/** GET /accounts in a session at `bankId` answers its list wrapped in an object ({"accounts": [...]}), every other bank a list. */
export const accountsNotListedAt = (bankId: string): ProxyMutation =>
  accountsAt(bankId, a => { a.text = JSON.stringify({ accounts: JSON.parse(a.text) }); });

/**
 * A payment of `product` is unknown once POST /authorize was made for it:
 * where the read would have been served (a refused token or a session
 * without consent keeps its own refusal).
 */
export function goneAfterAuthorize(product: string): ProxyMutation {
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

/** POST /authorize of a `product` payment answers 2xx without the bank's authentication link. */
export function authorizeNoLinkAt(product: string): ProxyMutation {
  const at = new RegExp(`^/api/payments/${product}/[^/]+/authorize$`);
  return { answer: (x, a) => { if (x.method === 'POST' && at.test(x.path) && ok(a)) json(a, b => { delete b.links; }); } };
}

/** The first call for transactions in each session answers the consent-link error, as if the consent had been lost. */
export function consentLostOnce(): ProxyMutation {
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

/**
 * The consent status of a session at `bankId` never changes: every 2xx answer
 * to GET /session of such a session repeats the first one (the status before
 * consent).
 */
export function statusFrozenAt(bankId: string): ProxyMutation {
  const at = sessionsAt(bankId), first = new Map<string, string>();
  return {
    answer: (x, a) => {
      at.learn(x, a);
      const id = /^\/api\/session\/([^/]+)$/.exec(x.path)?.[1];
      if (x.method !== 'GET' || !id || !at.ids.has(id) || !ok(a)) return;
      if (first.has(id)) a.text = first.get(id)!; else first.set(id, a.text);
    },
  };
}

/**
 * A DELETE /session at `bankId` ends every session the bank had then: GET
 * /accounts in any of them answers the consent-link error. The bank of each
 * session is learned from POST /session.
 */
export function deleteEndsBankAt(bankId: string): ProxyMutation {
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
export function consentOutlivesSessionAt(bankId: string): ProxyMutation {
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
export function consentRedirectIgnoredAt(bankId: string): ProxyMutation {
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
export function consentRedirectRequiredAt(bankId: string): ProxyMutation {
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
export function consentNoLinkAt(bankId: string): ProxyMutation {
  const at = new Set<string>();
  return {
    answer: (x, a) => {
      if (x.method === 'POST' && x.path === '/api/session' && ok(a) && body(x).bankId === bankId) json(a, b => { at.add(String(b.sessionId)); });
      if (x.method === 'GET' && x.path.startsWith('/api/consent/') && ok(a) && at.has(x.path.split('/').pop() ?? '')) json(a, b => { delete b.links; });
    },
  };
}
