// Every operation of the API version under test (harness/places/operations.ts),
// made ready to call with a token of a check's choosing: the session, account,
// payment and body each needs are made first with the worker's own token, so
// that the call reaches the target's token check as a real call would. The
// request itself is the one the suites' helpers send (withToken), so a target
// that reads the session or the body before the token still has to judge the
// token. A token check then sees every operation refuse the token, not one.
import type { ExchangeResponse } from '../../../harness/http/exchange.ts';
import { operationsAt, type Operation } from '../../../harness/places/operations.ts';
import { apiUrl, call, withToken } from '../../support/api.ts';
import { banksUnderTest, type Bank } from '../../support/banks.ts';
import { Prerequisite, type CheckContext } from '../../support/check.ts';
import { currencyOf, initiate, ownAccounts, paymentBody, postPayment, firstOffering, type Product } from '../../support/payments.ts';
import { confirmFunds } from '../../support/payment-banks.ts';
import { createSession, requestConsent, sessionCall, sessionCallUrl } from '../../support/sessions.ts';
import { target } from '../../support/target.ts';
import { perPart } from '../../support/part.ts';

/** One operation ready to call: `send` makes the call with `token` (null: no token) and records it in `c`. */
interface OperationProbe {
  op: Operation;
  send(c: CheckContext, token: string | null, label: string): Promise<ExchangeResponse>;
}

/** The operations of the version under test this target offers, each ready to call or with why it could not be made ready. */
export interface OperationPlaces {
  places: { name: string; value: OperationProbe | Prerequisite }[];
  /** Operations of the version the target does not offer (a product no bank under test lists), with why. */
  notOffered: string[];
}

/** A new session at `bank`, made with the worker's token (a probe that may end a session gets one of its own). */
async function freshSession(bank: Bank): Promise<string> {
  const { res, id } = await createSession(null, bank.id);
  if (!id) throw new Prerequisite(`no session could be started at ${bank.id} (${res.status}; see session.lifecycle.create)`);
  return id;
}

type Send = (c: CheckContext, label: string) => Promise<ExchangeResponse>;

/**
 * A probe whose call sends the chosen token. `setup` runs before each call
 * with the worker's token (a fresh session, a fresh payment body); the call
 * itself, inside withToken, sends the chosen one.
 */
function probe<T>(op: Operation, setup: () => Promise<T>, send: (c: CheckContext, label: string, made: T) => Promise<ExchangeResponse>): OperationProbe {
  return {
    op,
    async send(c, token, label) {
      const made = await setup();
      return withToken(token, () => send(c, `${label}: ${op.id}`, made));
    },
  };
}

const nothing = async () => undefined;

/** The probe of one operation at `bank`; what it builds on (accounts, a consented session, a payment) is made now, with the worker's token. */
async function probeOf(op: Operation, bank: Bank | undefined): Promise<OperationProbe> {
  if (op.path === 'banks') return probe(op, nothing, (c, label) => call(c, 'GET', 'banks', {}, { label }));
  if (!bank) throw new Prerequisite(`no bank to call ${op.id} at`);
  return probeAt(op, bank);
}

/** The probe of an operation that names or needs a bank. */
async function probeAt(op: Operation, bank: Bank): Promise<OperationProbe> {
  const plain = (send: Send) => probe(op, nothing, send);
  switch (op.path) {
    case 'bank': return plain((c, label) => call(c, 'GET', 'bank', { bankId: bank.id }, { label }));
    case 'sessions': return plain(async (c, label) => { c.note(label); return (await createSession(c, bank.id)).res; });
    case 'session':
      return probe(op, () => freshSession(bank), (c, label, id) => call(c, op.method, 'session', { sessionId: id }, { session: id, label }));
    case 'consent':
      return probe(op, () => freshSession(bank), async (c, label, id) => { c.note(label); return (await requestConsent(c, id, 'accounts')).res; });
    case 'accounts':
      await ownAccounts(bank.id);
      return plain((c, label) => sessionCall(c, bank.id, 'accounts', 'GET', 'accounts', {}, { label }));
    case 'transactions': {
      const id = (await ownAccounts(bank.id)).map(a => a.id).find((x): x is string => typeof x === 'string' && !!x);
      if (!id) throw new Prerequisite(`no account at ${bank.id} has an id (see data.accounts.list)`);
      return plain((c, label) => sessionCall(c, bank.id, 'accounts', 'GET', 'transactions', { accountId: id }, { label }));
    }
    case 'confirmFunds': {
      const { account } = await confirmFunds(null, bank.id, '1.00');
      return plain((c, label) => sessionCall(c, bank.id, 'payments', 'POST', 'confirmFunds', {}, {
        body: { iban: account.iban ?? account.bban, amount: '1.00', currency: currencyOf(account) }, label,
      }));
    }
    default: return paymentProbe(op, bank);
  }
}

/** The payment operations of one product at a bank that offers it: a payment made with the worker's token gives the id. */
async function paymentProbe(op: Operation, bank: Bank): Promise<OperationProbe> {
  const product = op.product as Product;
  const made = await initiate(null, bank.id, product);
  if (op.path === 'payments')
    return probe(op, () => paymentBody(bank.id, product), async (c, label, body) => (await postPayment(c, bank.id, product, body, label)).res);
  const paymentId = made.kind === 'created' || made.kind === 'sca' ? made.paymentId : undefined;
  if (!paymentId) throw new Prerequisite(`the ${product} payment at ${bank.id} answered ${made.res.status} without a paymentId (see payments)`);
  if (op.path === 'payment')
    return probe(op, nothing, (c, label) => sessionCall(c, bank.id, 'payments', 'GET', 'payment', { product, paymentId }, { label }));
  const href = made.kind === 'sca' ? made.authorizeHref : apiUrl('authorize', { product, paymentId });
  return probe(op, nothing, (c, label) => sessionCallUrl(c, bank.id, 'payments', 'POST', href, {
    body: {}, label, headers: { [target().headers.redirectUrl]: target().redirectUrl },
  }));
}

/** The bank an operation is called at: the first bank under test, or for a product the first that offers it (spec 2.6; payments.ts offered). */
async function bankOf(op: Operation, banks: Bank[]): Promise<Bank | undefined> {
  if (!op.product) return banks[0];
  try { return await firstOffering(banks, op.product as Product); } catch (e) { if (e instanceof Prerequisite) return undefined; throw e; }
}

const made = perPart(() => ({ value: undefined as Promise<OperationPlaces> | undefined }));

/** Every operation of the run's API version, ready to call; made once per part of the run. */
export function operationPlaces(): Promise<OperationPlaces> {
  return made().value ??= (async () => {
    // Without a bank only the bank list can be called; every other operation names why it could not be.
    let banks: Bank[] | Prerequisite;
    try { banks = await banksUnderTest(); } catch (e) {
      if (!(e instanceof Prerequisite)) throw e;
      banks = e;
    }
    const out: OperationPlaces = { places: [], notOffered: [] };
    for (const op of operationsAt(target().apiVersion)) {
      if (banks instanceof Prerequisite && op.path !== 'banks') { out.places.push({ name: op.id, value: banks }); continue; }
      const bank = banks instanceof Prerequisite ? undefined : await bankOf(op, banks);
      if (!bank && op.path !== 'banks') { out.notOffered.push(`${op.id} (no bank under test offers ${op.product})`); continue; }
      try {
        out.places.push({ name: op.id, value: await probeOf(op, bank) });
      } catch (e) {
        if (!(e instanceof Prerequisite)) throw e;
        out.places.push({ name: op.id, value: e });
      }
    }
    return out;
  })();
}
