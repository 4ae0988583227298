// The operations of the banking API at each API version (spec 4, 9): the
// places a rule about "every operation", "an account or payment endpoint" or
// "a call with a session" binds. Checks iterate this table, so an operation
// added here is covered by every rule that binds its kind. Paths are the names
// of the target's path table (harness/config/profile.ts), filled in at run
// time; the id is the operation as the latest version names it.
import { atLeast, type ApiVersion } from '../contracts/api-versions.ts';

/** A payment product of spec 4.4, and the version it arrived in. */
export const PAYMENT_PRODUCTS = [
  { product: 'sepa-credit', since: '1.0.0' },
  { product: 'domestic-transfer', since: '2.0.0' },
  { product: 'domestic-scheduled-transfer', since: '3.1.0' },
  { product: 'sepa-scheduled-credit', since: '3.2.0' },
] as const satisfies readonly { product: string; since: ApiVersion }[];

type PaymentProduct = typeof PAYMENT_PRODUCTS[number]['product'];

export interface Operation {
  /** Stable name: method and path as the latest version names them, with the product filled in. */
  id: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The key of the target's path table (harness/config/profile.ts). */
  path: 'banks' | 'bank' | 'sessions' | 'session' | 'consent' | 'accounts' | 'transactions' | 'confirmFunds' | 'payments' | 'payment' | 'authorize';
  since: ApiVersion;
  /** The payment product the path names, for payment operations. */
  product?: PaymentProduct;
  /** Needs a session (a consent before 3.0.0) whose end user consented: an account or payment endpoint (spec 4.4, 7). */
  sessionBound: boolean;
}

const perProduct = (method: Operation['method'], path: 'payments' | 'payment' | 'authorize', suffix: string, since: ApiVersion): Operation[] =>
  PAYMENT_PRODUCTS.map(p => ({
    id: `${method} /payments/${p.product}${suffix}`, method, path, product: p.product,
    since: atLeast(p.since, since) ? p.since : since, sessionBound: true,
  }));

/** Every operation of the latest version; `operationsAt` picks those of a version. */
const OPERATIONS: readonly Operation[] = [
  { id: 'GET /banks', method: 'GET', path: 'banks', since: '1.0.0', sessionBound: false },
  { id: 'GET /banks/{bankId}', method: 'GET', path: 'bank', since: '2.0.0', sessionBound: false },
  { id: 'POST /session', method: 'POST', path: 'sessions', since: '1.0.0', sessionBound: false },
  { id: 'GET /session', method: 'GET', path: 'session', since: '2.0.0', sessionBound: false },
  { id: 'DELETE /session', method: 'DELETE', path: 'session', since: '2.0.0', sessionBound: false },
  { id: 'GET /consent', method: 'GET', path: 'consent', since: '3.0.0', sessionBound: false },
  { id: 'GET /accounts', method: 'GET', path: 'accounts', since: '1.0.0', sessionBound: true },
  { id: 'GET /accounts/{accountId}/transactions', method: 'GET', path: 'transactions', since: '1.0.0', sessionBound: true },
  { id: 'POST /confirm-funds', method: 'POST', path: 'confirmFunds', since: '1.0.2', sessionBound: true },
  ...perProduct('POST', 'payments', '', '1.0.0'),
  ...perProduct('GET', 'payment', '/{paymentId}', '1.0.0'),
  ...perProduct('POST', 'authorize', '/{paymentId}/authorize', '1.0.1'),
];

/** The operations of the API at version `v`, in the table's order. */
export function operationsAt(v: ApiVersion): Operation[] {
  return OPERATIONS.filter(o => atLeast(v, o.since));
}
