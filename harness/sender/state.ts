// Reads the receiver's own view of a checkout through --state-url, a template
// such as https://merchant.example/checkouts/{id} that answers JSON carrying
// the checkout's status. The merchant's shape is unknown, so the status is
// looked for under the usual names, at the top or one object down
// ({"checkout": {"status": ...}}), or as a bare string body.
import { CHECKOUT_STATUSES } from '../contracts/enums.ts';
import type { Delivery, Transport } from './transport.ts';

export interface StateRead { status?: string; read: Delivery; problem?: string }

const NAMES = ['status', 'checkoutStatus', 'lastStatus', 'state'];

function stateUrlFor(template: string, id: string): string {
  return template.split('{id}').join(encodeURIComponent(id));
}

/** The checkout status in a state answer, or undefined. */
export function statusIn(json: unknown, text: string): string | undefined {
  const isStatus = (v: unknown): v is string => typeof v === 'string' && CHECKOUT_STATUSES.includes(v);
  if (isStatus(json)) return json;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>;
    for (const n of NAMES) if (isStatus(o[n])) return o[n] as string;
    for (const v of Object.values(o)) {
      if (v && typeof v === 'object' && !Array.isArray(v))
        for (const n of NAMES) if (isStatus((v as Record<string, unknown>)[n])) return (v as Record<string, unknown>)[n] as string;
    }
  }
  const bare = text.trim().replace(/^"|"$/g, '');
  return isStatus(bare) ? bare : undefined;
}

export async function readState(t: Transport, template: string, id: string): Promise<StateRead> {
  const read = await t.get(stateUrlFor(template, id), `state of checkout ${id}`);
  if (read.status === undefined) return { read, problem: `the state URL did not answer: ${read.error}` };
  if (read.status !== 200) return { read, problem: `the state URL answered ${read.status}` };
  const body = read.evidence.response?.body;
  const status = statusIn(read.json, typeof body === 'string' ? body : '');
  return status ? { read, status } : { read, problem: 'the state URL answered 200 without a checkout status in it' };
}
