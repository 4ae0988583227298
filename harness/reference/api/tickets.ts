// One-use-per-purpose links of the simulated bank: the consent href of GET
// /consent and the authorize href of POST .../authorize point at
// /bank/<kind>/<ticket> on this server. A ticket remembers what the page grants
// and where to send the browser afterwards (x-redirect-url, spec 4.4).
import { randomBase64url } from '../random.ts';

export type Ticket =
  | { kind: 'consent'; sessionId: string; scope: string; redirectUrl?: string }
  | { kind: 'authorize'; paymentId: string; redirectUrl?: string };

/** Tickets kept at most; the oldest are forgotten first (a serve-reference run can last days). */
const MAX_TICKETS = 10_000;

export class TicketStore {
  private readonly tickets = new Map<string, Ticket>();

  issue(t: Ticket): string {
    const id = randomBase64url(16);
    this.tickets.set(id, t);
    if (this.tickets.size > MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    return id;
  }

  /** The page a ticket opens: `${origin}/bank/<kind>/<id>`, with ?interactive=1 when the page should wait for a click. */
  href(origin: string, kind: Ticket['kind'], id: string, interactive: boolean): string {
    return `${origin}/bank/${kind}/${id}${interactive ? '?interactive=1' : ''}`;
  }

  get(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }
}
