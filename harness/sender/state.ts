// Reads the receiver's own view of a checkout through --state-url, a template
// such as https://merchant.example/checkouts/{id} that answers JSON carrying
// the checkout's status. The merchant's shape is unknown, so a top-level
// `status` or `checkoutStatus`, or a bare status string, are all accepted.
import type { Delivery, Transport } from './transport.ts';

export interface StateRead { status?: string; read: Delivery; problem?: string }

export function stateUrlFor(template: string, id: string): string {
  return template.split('{id}').join(encodeURIComponent(id));
}

export async function readState(t: Transport, template: string, id: string): Promise<StateRead> {
  const read = await t.get(stateUrlFor(template, id), `state of checkout ${id}`);
  if (read.status === undefined) return { read, problem: `the state URL did not answer: ${read.error}` };
  if (read.status !== 200) return { read, problem: `the state URL answered ${read.status}` };
  const j = read.json as Record<string, unknown> | string | undefined;
  const raw = typeof j === 'string' ? j : j && typeof j === 'object' ? (j.status ?? j.checkoutStatus) : undefined;
  if (typeof raw === 'string') return { read, status: raw };
  const text = typeof read.evidence.response?.body === 'string' ? read.evidence.response.body.trim() : '';
  if (/^[A-Z_]+$/.test(text)) return { read, status: text };
  return { read, problem: 'the state URL answered 200 without a status field' };
}
