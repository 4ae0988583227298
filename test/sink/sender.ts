// A small webhook sender for the sink's tests, with a control API of the shape
// of docs/control-api.md. It is correct by default; each flag breaks one rule
// of spec section 6 the way an independent sender might.
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'undici';
import { sequenceViolation, statusesWithSca } from '../../harness/contracts/rules.ts';
import { buildWebhookBody } from '../../harness/webhook/bodies.ts';

export interface SenderFlags {
  /** Spec ms of the first retry delay (10 000 when correct). */
  firstDelayMs?: number;
  /** Growth factor of the retry delays (2 when correct). */
  growth?: number;
  /** Upward jitter fraction (allowed when ≥ 0 and the minimum holds). */
  jitter?: number;
  /** Spec ms the sender waits for an answer (5 000 when correct; Infinity: no limit). */
  timeoutMs?: number;
  noRetry?: boolean;
  anyTwoHundred?: boolean;
  noAckGating?: boolean;
  globalQueue?: boolean;
  noKeyOnRetries?: boolean;
  /** Never sends the api-key. */
  noKey?: boolean;
  amountString?: boolean;
  acceptForbidden?: boolean;
  duplicates?: boolean;
  extraFields?: boolean;
  older?: boolean;
}

export interface TestSender {
  controlUrl: string; sent: number;
  /** Resolves when every checkout asked for so far has had each of its events delivered (or given up), at once if none runs. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface Req {
  kind: 'normal' | 'batch'; payments?: number; statuses: string[]; abortReason?: string;
  scheduledDate?: string; sca?: boolean; endToEndId?: string; referenceId?: string; webhook: { url: string; apiKey: string };
}

export async function startSender(scale: number, f: SenderFlags = {}): Promise<TestSender> {
  const agent = new Agent({ connections: null, headersTimeout: 0, bodyTimeout: 0 });
  const timers = new Set<NodeJS.Timeout>();
  let closed = false, n = 0, queue: Promise<unknown> = Promise.resolve();
  const sleep = (specMs: number) => new Promise<void>(r => { const t = setTimeout(() => { timers.delete(t); r(); }, specMs * scale); timers.add(t); });
  let running = 0;
  const waiters: Array<() => void> = [];
  const state: TestSender = {
    controlUrl: '', sent: 0, close: async () => {},
    settled: () => running === 0 ? Promise.resolve() : new Promise<void>(r => { waiters.push(r); }),
  };

  const attempt = async (url: string, headers: Record<string, string>, body: string): Promise<number | undefined> => {
    const ac = new AbortController();
    const wait = f.timeoutMs ?? 5_000;
    const t = Number.isFinite(wait) ? setTimeout(() => ac.abort(), wait * scale) : undefined;
    state.sent++;
    try {
      const res = await request(url, { method: 'POST', headers, body, dispatcher: agent, signal: ac.signal });
      await res.body.arrayBuffer();
      return res.statusCode;
    } catch { return undefined; } finally { clearTimeout(t); }
  };

  const deliverEvent = async (r: Req, id: string, status: string) => {
    const body = buildWebhookBody({ kind: f.older ? 'older' : r.kind, id, status, payments: r.payments, abortReason: r.abortReason, extraFields: f.extraFields,
      scheduledDate: r.scheduledDate, endToEndId: r.endToEndId, referenceId: r.referenceId, createdDate: created.get(id) });
    // Spec 2.2 types originalAmount "number" (amount, "decimal", may be a decimal string).
    if (f.amountString) (body.payment as Record<string, unknown> | undefined ?? {}).originalAmount = '10.00';
    const text = JSON.stringify(body);
    for (let k = 1; !closed; k++) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (!f.noKey && (k === 1 || !f.noKeyOnRetries)) headers['api-key'] = r.webhook.apiKey;
      const code = await attempt(r.webhook.url, headers, text);
      if (code === 200 || (f.anyTwoHundred && code !== undefined && code >= 200 && code < 300)) return;
      if (f.noRetry) return;
      const base = (f.firstDelayMs ?? 10_000) * (f.growth ?? 2) ** (k - 1);
      await sleep(base * (1 + (f.jitter ?? 0) * Math.random()));
    }
  };
  const oneEvent = async (r: Req, id: string, status: string) => {
    const go = async () => { await deliverEvent(r, id, status); if (f.duplicates) await deliverEvent(r, id, status); };
    if (!f.globalQueue) return go();
    const mine = queue.then(go);
    queue = mine.catch(() => {});
    return mine;
  };
  // One creation date per checkout (spec 2.2 createdDate), as a real service keeps it.
  const created = new Map<string, string>();
  const run = async (r: Req, id: string) => {
    created.set(id, new Date().toISOString());
    r = { ...r, statuses: statusesWithSca(r.statuses, r.sca) };
    if (f.noAckGating) { await Promise.all(r.statuses.map((s, i) => sleep(i).then(() => oneEvent(r, id, s)))); return; }
    for (const s of r.statuses) await oneEvent(r, id, s);
  };

  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', c => { text += c; });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/control/checkouts') { res.writeHead(404).end(); return; }
      const r = JSON.parse(text) as Req;
      const why = sequenceViolation(r.statuses);
      if (why && !f.acceptForbidden) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'forbidden-sequence', reason: why }));
        return;
      }
      const id = `ck-${++n}`;
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
      running++;
      void run(r, id).finally(() => { if (--running === 0) for (const w of waiters.splice(0)) w(); });
    });
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  state.controlUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/control`;
  state.close = async () => {
    closed = true;
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    await new Promise(r => server.close(r));
    await agent.destroy();
  };
  return state;
}
