// The data, payment and consent checks that no catalog fault reaches, shown
// failing: each mutation of the pass-through breaks one rule, all in one run,
// and exactly the checks named in contracts/proofs.yaml fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProofs } from '../../harness/requirements/load.ts';
import { errorBody, runThroughProxy, type Mutation, type ProxiedRequest } from '../helpers/proxy.ts';

const PAYMENT = /^\/api\/payments\/[\w-]+$/;
const without = (r: ProxiedRequest, header: string) => !r.headers[header];
const refuse = (code: string, message: string) => ({ status: 510, json: errorBody(code, message) });

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
