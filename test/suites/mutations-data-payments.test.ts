// The data, payment and consent checks that no catalog fault reaches, shown
// failing: each mutation of the pass-through breaks one rule, all in one run,
// and exactly the checks named in contracts/proofs.yaml fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProofs } from '../../harness/requirements/load.ts';
import { errorBody, runThroughProxy, type Mutation, type ProxiedAnswer, type ProxiedRequest } from '../helpers/proxy.ts';

const PAYMENT = /^\/api\/payments\/[\w-]+$/;
const without = (r: ProxiedRequest, header: string) => !r.headers[header];
const refuse = (code: string, message: string) => ({ status: 510, json: errorBody(code, message) });

const isCode = (a: ProxiedAnswer, code: string) => (a.json as { errorCode?: unknown } | undefined)?.errorCode === code;
const created = (paymentId: string, status: string) => ({ status: 201, json: { paymentId, status, creationDateTime: '2026-11-22T10:00:00.000Z' } });

/**
 * The name filter lists every bank sharing a word with the name asked for
 * ("Danske Bank" lists "Deutsche Bank"): the list comes from the last
 * unfiltered GET /banks the proxy passed on (the suites read it first).
 */
function nameFilterLoose(): Mutation {
  let all: { bankDisplayName?: string; bankOfficialName?: string }[] = [];
  const words = (s = '') => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(w => w.length > 1);
  return {
    name: 'name-filter-loose',
    response: (r, a) => {
      if (r.method !== 'GET' || !r.path.startsWith('/api/banks')) return undefined;
      if (r.path === '/api/banks' && Array.isArray(a.json)) { all = a.json; return undefined; }
      const name = new URL(r.path, 'http://x').searchParams.get('name');
      if (!name || !all.length) return undefined;
      const asked = new Set(words(name));
      return { status: 200, json: all.filter(b => [...words(b.bankDisplayName), ...words(b.bankOfficialName)].some(w => asked.has(w))) };
    },
  };
}

export const DATA_PAYMENT_MUTATIONS: Mutation[] = [
  {
    name: 'accounts-psu-ip-required',
    request: r => r.method === 'GET' && r.path === '/api/accounts' && without(r, 'x-psu-ip-address') ? refuse('1001', 'Missing required header x-psu-ip-address') : undefined,
  },
  {
    name: 'payments-psu-ip-required',
    request: r => r.method === 'POST' && PAYMENT.test(r.path) && without(r, 'x-psu-ip-address') ? refuse('1001', 'Missing required header x-psu-ip-address') : undefined,
  },
  {
    name: 'domestic-metadata-refused',
    request: r => r.method === 'POST' && r.path === '/api/payments/domestic-transfer' && r.json?.paymentMetadata !== undefined ? refuse('1002', 'Unknown field paymentMetadata') : undefined,
  },
  {
    name: 'sepa-metadata-refused',
    request: r => r.method === 'POST' && r.path === '/api/payments/sepa-credit' && r.json?.paymentMetadata !== undefined ? refuse('1002', 'Unknown field paymentMetadata') : undefined,
  },
  {
    name: 'payments-redirect-url-required',
    request: r => r.method === 'POST' && PAYMENT.test(r.path) && without(r, 'x-redirect-url') ? refuse('1005', 'Missing x-redirect-url') : undefined,
  },
  {
    name: 'consent-redirect-url-required',
    request: r => r.method === 'GET' && r.path.startsWith('/api/consent/') && without(r, 'x-redirect-url') ? refuse('1005', 'Missing x-redirect-url') : undefined,
  },
  {
    name: 'error-codes-renumbered',
    response: (_, a) => {
      const b = a.json as { errorCode?: unknown } | undefined;
      return typeof b === 'object' && ['1002', '1003', '1004', '1005', '1428'].includes(String(b?.errorCode)) ? { ...a, json: { ...b, errorCode: '1999' } } : undefined;
    },
  },
  nameFilterLoose(),
  {
    name: 'scheduled-scheme-unchecked',
    request: r => {
      const account = r.json?.creditorAccount as Record<string, unknown> | undefined;
      return r.method === 'POST' && r.path === '/api/payments/domestic-scheduled-transfer' && account && (!account.accountScheme || !account.identifier)
        ? created('pis-proxy-scheme', 'PDNG') : undefined;
    },
  },
  {
    name: 'huge-payment-accepted',
    response: (r, a) => r.path === '/api/payments/domestic-transfer' && r.json?.instrumentedAmount === '9999999999.00' && isCode(a, '1008') ? created('pis-proxy-huge', 'ACSP') : undefined,
  },
  {
    name: 'unlisted-scheduled-accepted',
    response: (r, a) => /^\/api\/payments\/(sepa-scheduled-credit|domestic-scheduled-transfer)$/.test(r.path) && isCode(a, '1007') ? created('pis-proxy-unlisted', 'PDNG') : undefined,
  },
  {
    name: 'unlisted-instant-accepted',
    response: (r, a) => r.path === '/api/payments/domestic-transfer' && r.json?.instantPayment === true && isCode(a, '1007') ? created('pis-proxy-instant', 'ACSP') : undefined,
  },
  {
    name: 'confirm-funds-unsupported-client-error',
    response: (r, a) => r.path === '/api/confirm-funds' && a.status === 501 ? refuse('1002', 'Parameter iban is required') : undefined,
  },
];

test('each data, payment and consent mutation fails exactly the checks proofs.yaml names for it', async () => {
  const proofs = loadProofs().mutations;
  const expected = new Set(DATA_PAYMENT_MUTATIONS.flatMap(m => {
    assert.ok(proofs[m.name], `mutation ${m.name} is not in contracts/proofs.yaml`);
    return proofs[m.name]!.fails;
  }));
  // Three banks meet every mutation: two or more for the psu-ip checks, danske-dk answers Not Implemented, dnb-no asks for authentication.
  const { cli, results } = await runThroughProxy(DATA_PAYMENT_MUTATIONS, ['--suites', 'session,data,payments', '--banks', 'dnb-no,danske-dk,deutsche-de']);
  const out = cli.stdout + cli.stderr;
  assert.ok(results, out);
  const failed = new Set(results.checks.filter(c => c.status === 'failed').map(c => c.id));
  assert.deepEqual([...failed].sort(), [...expected].sort(), out);
  assert.equal(cli.code, 1, out);
});
