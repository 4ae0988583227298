// The session-bound operations of the run's API version as places a session
// rule binds (spec 4.4, 7: "a request to an account or payment endpoint";
// harness/places/operations.ts): for each, a bank that serves it and a request
// that is valid in every way but the session, so that the only reason to refuse
// it is the session's consent. What a request needs (an account, a payment of
// the product, a bank that confirms funds) is made in the worker's consented
// sessions, once per worker.
import type { ExchangeResponse } from '../../harness/http/exchange.ts';
import { operationsAt, type Operation } from '../../harness/places/operations.ts';
import { apiUrl, callUrl } from './api.ts';
import { Prerequisite, type CheckContext } from './check.ts';
import { banksUnderTest, type Bank } from './banks.ts';
import { confirmFunds, fundsAnswer, isNotImplemented } from './payment-banks.ts';
import { currencyOf, initiate, ownAccounts, paymentBody, firstOffering, type Product } from './payments.ts';
import { target } from './target.ts';
import { perPart } from './part.ts';

/** The session-bound operations of the run's API version, in the table's order. */
export function sessionBoundOperations(): Operation[] {
  return operationsAt(target().apiVersion).filter(o => o.sessionBound);
}

/** A request at one operation, valid but for the session it is sent in. */
export interface OperationProbe {
  op: Operation;
  bankId: string;
  /** Sends the request in `sessionId`. */
  send(c: CheckContext, sessionId: string, when: string): Promise<ExchangeResponse>;
  /** The bank answers this operation Not Implemented (confirm-funds at a bank that does not offer it): such an answer serves nothing. */
  notImplementedHere?: boolean;
}

const probes = perPart(() => new Map<string, Promise<OperationProbe>>());

/** The bank of `banks` an operation is probed at: the first that offers the operation's product. */
function bankFor(op: Operation, banks: readonly Bank[]): Promise<Bank | undefined> {
  return op.product ? firstOffering(banks, op.product as Product) : Promise.resolve(banks[0]);
}

/** A payment of `product` at `bankId` made in the worker's consented session: its id, and its authorize link when the bank asked for one. */
async function paymentOf(bankId: string, product: Product): Promise<{ id: string; authorizeHref?: string }> {
  const a = await initiate(null, bankId, product);
  if ((a.kind === 'created' || a.kind === 'sca') && a.paymentId)
    return { id: a.paymentId, ...(a.kind === 'sca' ? { authorizeHref: a.authorizeHref } : {}) };
  throw new Prerequisite(`no ${product} payment could be made at ${bankId} to name (${a.res.status}; see the payments suite)`);
}

async function makeProbe(op: Operation, banks: readonly Bank[]): Promise<OperationProbe> {
  const bank = await bankFor(op, banks);
  if (!bank) throw new Prerequisite(`no bank under test offers ${op.product} (supportedServices, the target description, or a plain payment accepted)`);
  const bankId = bank.id;
  const t = target();
  const psu = { [t.headers.psuIpAddress]: t.psuIpAddress };
  const payHeaders = { ...psu, [t.headers.redirectUrl]: t.redirectUrl };
  const probe = (url: string, body?: unknown, headers: Record<string, string> = psu, at = bankId, notImplementedHere = false): OperationProbe => ({
    op, bankId: at, ...(notImplementedHere ? { notImplementedHere } : {}),
    send: (c, sessionId, when) => callUrl(c, op.method, url, { session: sessionId, body, headers, label: `${op.id} at ${at}, ${when}` }),
  });
  const product = op.product as Product | undefined;
  switch (op.path) {
    case 'accounts': return probe(apiUrl('accounts'));
    case 'transactions': {
      const account = (await ownAccounts(bankId)).find(a => typeof a.id === 'string' && a.id);
      if (!account) throw new Prerequisite(`no account at ${bankId} has an id to name (see data.accounts.list)`);
      return probe(apiUrl('transactions', { accountId: String(account.id) }));
    }
    case 'confirmFunds': {
      // A bank that confirms funds, else one that answers Not Implemented (where that answer, too, serves nothing).
      let at: { bank: Bank; notImplemented: boolean } | undefined;
      for (const b of banks) {
        const { res } = await confirmFunds(null, b.id, '1.00').catch(() => ({ res: undefined }));
        if (res && fundsAnswer(res) !== undefined) { at = { bank: b, notImplemented: false }; break; }
        if (res && isNotImplemented(res)) at ??= { bank: b, notImplemented: true };
      }
      if (!at) throw new Prerequisite('no bank under test answered confirm-funds in a consented session (see payments.confirm-funds.answers)');
      const account = (await ownAccounts(at.bank.id))[0]!;
      const body = { iban: account.iban ?? account.bban, amount: '1.00', currency: currencyOf(account) };
      return probe(apiUrl('confirmFunds'), body, psu, at.bank.id, at.notImplemented);
    }
    case 'payments': return probe(apiUrl('payments', { product: product! }), await paymentBody(bankId, product!), payHeaders);
    case 'payment': {
      const p = await paymentOf(bankId, product!);
      return probe(apiUrl('payment', { product: product!, paymentId: p.id }));
    }
    case 'authorize': {
      const p = await paymentOf(bankId, product!);
      return probe(p.authorizeHref ?? apiUrl('authorize', { product: product!, paymentId: p.id }), {}, payHeaders);
    }
    default: throw new Error(`${op.id} is not bound to a session`);
  }
}

/**
 * The probe of `op` at the first bank under test that serves it (`banks`
 * narrows the choice), made once per worker and bank list; what it needs that
 * cannot be made is a Prerequisite naming why.
 */
export async function operationProbe(op: Operation, banks?: readonly Bank[]): Promise<OperationProbe> {
  const list = banks ?? await banksUnderTest();
  const key = `${op.id} ${list.map(b => b.id).join(',')}`;
  let p = probes().get(key);
  if (!p) { p = makeProbe(op, list); probes().set(key, p); }
  return p;
}
